import { affiliateRouter } from '../domains/affiliate/affiliate.router.ts';
import { authRouter } from '../domains/auth/auth.router.ts';
import { channelsRouter } from '../domains/channels/channels.router.ts';
import { checkInRouter } from '../domains/checkin/checkin.router.ts';
import { importerRouter } from '../domains/importer/importer.router.ts';
import { logsCleanupRouter } from '../domains/logs/logs-cleanup.router.ts';
import { dashboardRouter, logsRouter } from '../domains/logs/logs.router.ts';
import { inboxRouter, messagesRouter } from '../domains/messages/messages.router.ts';
import { modelMappingRouter } from '../domains/model-mapping/model-mapping.router.ts';
import { modelMetaRouter, vendorsRouter } from '../domains/models/models.router.ts';
import { optionsRouter } from '../domains/options/options.router.ts';
import { passkeysRouter } from '../domains/passkeys/passkeys.router.ts';
import { pricingRouter } from '../domains/pricing/pricing.router.ts';
import { redemptionsRouter } from '../domains/redemptions/redemptions.router.ts';
import { statusRouter } from '../domains/status/status.router.ts';
import { subscriptionAdminRouter, subscriptionsRouter } from '../domains/subscriptions/subscriptions.router.ts';
import { tasksRouter } from '../domains/tasks/tasks.router.ts';
import { tokensRouter } from '../domains/tokens/tokens.router.ts';
import { walletRouter } from '../domains/topup/wallet.router.ts';
import { twoFactorRouter } from '../domains/twofa/twofa.router.ts';
import { userSettingsRouter } from '../domains/user-settings/user-settings.router.ts';
import { groupsRouter, usersRouter } from '../domains/users/users.router.ts';
import { router } from './trpc.ts';

/** The console's API. The client imports only the type. */
export const appRouter = router({
  affiliate: affiliateRouter,
  auth: authRouter,
  channels: channelsRouter,
  checkIn: checkInRouter,
  dashboard: dashboardRouter,
  groups: groupsRouter,
  importer: importerRouter,
  inbox: inboxRouter,
  logs: logsRouter,
  logsCleanup: logsCleanupRouter,
  messages: messagesRouter,
  modelMapping: modelMappingRouter,
  modelMeta: modelMetaRouter,
  options: optionsRouter,
  passkeys: passkeysRouter,
  pricing: pricingRouter,
  redemptions: redemptionsRouter,
  status: statusRouter,
  subscriptionAdmin: subscriptionAdminRouter,
  subscriptions: subscriptionsRouter,
  tasks: tasksRouter,
  tokens: tokensRouter,
  twoFactor: twoFactorRouter,
  users: usersRouter,
  userSettings: userSettingsRouter,
  vendors: vendorsRouter,
  wallet: walletRouter,
});

export type AppRouter = typeof appRouter;
