import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../context.ts';
import { registerAffiliateRoutes } from '../domains/affiliate/affiliate.rest.ts';
import { registerAuthRoutes } from '../domains/auth/auth.rest.ts';
import { registerChannelKeyRoutes } from '../domains/channels/channel-key.rest.ts';
import { registerChannelRoutes } from '../domains/channels/channels.rest.ts';
import { registerChannelUnsupportedRoutes } from '../domains/channels/channels-unsupported.rest.ts';
import { registerCheckInRoutes } from '../domains/checkin/checkin.rest.ts';
import { registerImportRoutes } from '../domains/importer/importer.rest.ts';
import { registerLogRoutes } from '../domains/logs/logs.rest.ts';
import { registerMessageRoutes } from '../domains/messages/messages.rest.ts';
import { registerModelMappingRoutes } from '../domains/model-mapping/model-mapping.rest.ts';
import { registerModelMetaRoutes } from '../domains/models/models.rest.ts';
import { registerVendorRoutes } from '../domains/models/vendors.rest.ts';
import { registerConsoleSettingRoutes } from '../domains/options/affinity-cache.rest.ts';
import { registerOptionRoutes } from '../domains/options/options.rest.ts';
import { registerPasskeyRoutes } from '../domains/passkeys/passkeys.rest.ts';
import { registerPricingRoutes } from '../domains/pricing/pricing.rest.ts';
import { registerRatioConfigRoutes } from '../domains/pricing/ratio-config.rest.ts';
import { registerRedemptionRoutes } from '../domains/redemptions/redemptions.rest.ts';
import { registerPerformanceRoutes } from '../domains/status/performance.rest.ts';
import { registerStatusRoutes } from '../domains/status/status.rest.ts';
import { registerUnavailableFeatureRoutes } from '../domains/status/unavailable.rest.ts';
import { registerSubscriptionRoutes } from '../domains/subscriptions/subscriptions.rest.ts';
import { registerTaskListRoutes } from '../domains/tasks/tasks.rest.ts';
import { registerTokenRoutes } from '../domains/tokens/tokens.rest.ts';
import { registerTokenUsageRoutes } from '../domains/tokens/token-usage.rest.ts';
import { registerTopUpOrderRoutes } from '../domains/topup/topup-orders.rest.ts';
import { registerTopUpRoutes } from '../domains/topup/topup.rest.ts';
import { registerTopUpProviderRoutes } from '../domains/topup/topup-providers.rest.ts';
import { registerTwoFaRoutes } from '../domains/twofa/twofa.rest.ts';
import { registerUserSettingRoutes } from '../domains/user-settings/user-settings.rest.ts';
import { registerUserBindingRoutes } from '../domains/users/bindings.rest.ts';
import { registerUserRoutes } from '../domains/users/users.rest.ts';

/**
 * The /api/* compatibility surface. Each domain registers its own routes with
 * restRoute(); this list is the only place that knows them all.
 */
const domainRoutes: ((app: FastifyInstance, deps: AppDeps) => void)[] = [
  registerAffiliateRoutes,
  registerAuthRoutes,
  registerChannelKeyRoutes,
  registerChannelRoutes,
  registerChannelUnsupportedRoutes,
  registerCheckInRoutes,
  registerConsoleSettingRoutes,
  registerImportRoutes,
  registerLogRoutes,
  registerMessageRoutes,
  registerModelMappingRoutes,
  registerModelMetaRoutes,
  registerOptionRoutes,
  registerPasskeyRoutes,
  registerPerformanceRoutes,
  registerPricingRoutes,
  registerRatioConfigRoutes,
  registerRedemptionRoutes,
  registerStatusRoutes,
  registerSubscriptionRoutes,
  registerTaskListRoutes,
  registerTokenRoutes,
  registerTokenUsageRoutes,
  registerTopUpOrderRoutes,
  registerTopUpProviderRoutes,
  registerTopUpRoutes,
  registerTwoFaRoutes,
  registerUnavailableFeatureRoutes,
  registerUserBindingRoutes,
  registerUserRoutes,
  registerUserSettingRoutes,
  registerVendorRoutes,
];

export function registerCompatRoutes(app: FastifyInstance, deps: AppDeps) {
  for (const register of domainRoutes) register(app, deps);
}
