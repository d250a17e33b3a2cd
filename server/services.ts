import type { Infra } from './context.ts';
import { createAffiliateService } from './domains/affiliate/affiliate.service.ts';
import { createAuthService } from './domains/auth/auth.service.ts';
import { passwordHasher } from './domains/auth/password.service.ts';
import { createBillingService } from './domains/billing/billing.service.ts';
import { createChannelProbe } from './domains/channels/channel-probe.client.ts';
import { createChannelsService } from './domains/channels/channels.service.ts';
import { createCheckInService } from './domains/checkin/checkin.service.ts';
import { createImportJobsService } from './domains/importer/import-jobs.service.ts';
import { importRunner } from './domains/importer/import-runner.deps.ts';
import { createLogWriter } from './domains/logs/log-writer.service.ts';
import { createLogsService } from './domains/logs/logs.service.ts';
import { createMailService } from './domains/mail/mailer.client.ts';
import { createMessagesService } from './domains/messages/messages.service.ts';
import { createUpdateCheckService } from './domains/updates/update-check.service.ts';
import { createModelMappingService } from './domains/model-mapping/model-mapping.service.ts';
import { createModelCatalogService } from './domains/models/model-catalog.service.ts';
import { createModelMetaService } from './domains/models/model-meta.service.ts';
import { createPrefillGroupsService } from './domains/models/prefill-groups.service.ts';
import { createVendorsService } from './domains/models/vendors.service.ts';
import { createQuotaWarningService } from './domains/notifications/quota-warning.service.ts';
import { createOptionsService } from './domains/options/options.service.ts';
import { passkeyVerifyMethod } from './domains/passkeys/passkeys-flow.service.ts';
import { createPasskeysService } from './domains/passkeys/passkeys.service.ts';
import { createPricingService } from './domains/pricing/pricing.service.ts';
import { createRedemptionsService } from './domains/redemptions/redemptions.service.ts';
import { createStatusService } from './domains/status/status.service.ts';
import { createSubscriptionPool } from './domains/subscriptions/pool.service.ts';
import { createSubscriptionsService } from './domains/subscriptions/subscriptions.service.ts';
import { createTasksService } from './domains/tasks/tasks.service.ts';
import { createTokensService } from './domains/tokens/tokens.service.ts';
import { createTopUpService } from './domains/topup/topup.service.ts';
import { twoFaKeys } from './domains/twofa/secret-box.rules.ts';
import { createSecureVerifyService } from './domains/twofa/secure-verify.service.ts';
import { createTwoFaService } from './domains/twofa/twofa.service.ts';
import { createUserSettingsService } from './domains/user-settings/user-settings.service.ts';
import { createUsersService } from './domains/users/users.service.ts';
import { createAdapterChannelTest } from './relay/channel-test.ts';

/**
 * Builds every domain service once. Services get the infrastructure and the
 * services they depend on; transports (tRPC, REST, relay) only call them.
 */
export async function createServices(infra: Infra) {
  const messages = createMessagesService(infra.db);
  const options = createOptionsService(infra.db, infra.bus);
  await options.load();
  // The relay's index of live subscriptions (issue 32): billing reserves from their pools.
  const subscriptionPool = await createSubscriptionPool(infra, options);
  const billing = await createBillingService(infra, options, subscriptionPool);
  const logWriter = createLogWriter(infra, options.get);
  const redemptions = createRedemptionsService(infra, options);
  const topup = createTopUpService(infra, options);
  const logs = createLogsService(infra.db);
  const modelCatalog = createModelCatalogService(infra.db, infra.bus, options.get);
  const pricing = createPricingService(infra.db, infra.bus, options, modelCatalog);
  const status = createStatusService(infra, options);
  const users = createUsersService(infra, options, status, passwordHasher);
  const affiliate = createAffiliateService(infra, options);
  const checkIn = createCheckInService(infra, options);
  const mail = createMailService(options);
  const auth = createAuthService({ ...infra, options, status, mail, passwords: passwordHasher });
  const modelMapping = createModelMappingService(options);
  const quotaWarnings = createQuotaWarningService(infra, options, mail.sendMail);
  const userSettings = createUserSettingsService(infra, options);
  const twoFactor = createTwoFaService({ db: infra.db, options, keys: twoFaKeys(infra.config.sessionSecret) });
  // POST /api/verify's methods: '2fa' here; the passkeys domain registers 'passkey'.
  const secureVerify = createSecureVerifyService(infra);
  secureVerify.registerMethod('2fa', ({ user, code }) => twoFactor.verify(user.id, code));
  const passkeys = createPasskeysService(infra, options);
  secureVerify.registerMethod('passkey', passkeyVerifyMethod(passkeys));
  return {
    affiliate,
    auth,
    billing,
    channels: createChannelsService(
      infra,
      options,
      messages,
      createChannelProbe(createAdapterChannelTest(options.get)),
    ),
    checkIn,
    importJobs: createImportJobsService(infra, importRunner),
    logs,
    logWriter,
    mail,
    messages,
    modelCatalog,
    modelMapping,
    modelMeta: createModelMetaService(infra.db, infra.bus, modelCatalog),
    options,
    passkeys,
    prefillGroups: createPrefillGroupsService(infra.db),
    pricing,
    quotaWarnings,
    redemptions,
    secureVerify,
    status,
    subscriptions: createSubscriptionsService(infra, options, topup, subscriptionPool),
    tasks: createTasksService(infra, options),
    tokens: createTokensService(infra, options),
    topup,
    twoFactor,
    updates: createUpdateCheckService(infra, options, messages),
    users,
    userSettings,
    vendors: createVendorsService(infra.db, infra.bus),
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
