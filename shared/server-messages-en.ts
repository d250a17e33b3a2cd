import { affiliateEnglish } from './server-messages-en/affiliate.ts';
import { authEnglish } from './server-messages-en/auth.ts';
import { billingEnglish } from './server-messages-en/billing.ts';
import { channelsEnglish } from './server-messages-en/channels.ts';
import { checkinEnglish } from './server-messages-en/checkin.ts';
import { commonEnglish } from './server-messages-en/common.ts';
import { importerEnglish } from './server-messages-en/importer.ts';
import { logsEnglish } from './server-messages-en/logs.ts';
import { mailEnglish } from './server-messages-en/mail.ts';
import { messagesEnglish } from './server-messages-en/messages.ts';
import { modelMappingEnglish } from './server-messages-en/model-mapping.ts';
import { modelsEnglish } from './server-messages-en/models.ts';
import { netEnglish } from './server-messages-en/net.ts';
import { optionsEnglish } from './server-messages-en/options.ts';
import { passkeysEnglish } from './server-messages-en/passkeys.ts';
import { pricingEnglish } from './server-messages-en/pricing.ts';
import { redemptionsEnglish } from './server-messages-en/redemptions.ts';
import { relayEnglish } from './server-messages-en/relay.ts';
import { subscriptionsEnglish } from './server-messages-en/subscriptions.ts';
import { tokensEnglish } from './server-messages-en/tokens.ts';
import { topupEnglish } from './server-messages-en/topup.ts';
import { twofaEnglish } from './server-messages-en/twofa.ts';
import { unavailableEnglish } from './server-messages-en/unavailable.ts';
import { updatesEnglish } from './server-messages-en/updates.ts';
import { userSettingsEnglish } from './server-messages-en/user-settings.ts';
import { usersEnglish } from './server-messages-en/users.ts';
import type { ServerMessageCode } from './server-messages.ts';

/*
 * Every server message in English, by code: the second language of shared/server-messages.ts, whose
 * texts are Chinese. Written once, here, for both readers: the server answers API callers who prefer
 * English with it (`serverTextIn('en', ...)`: relay errors, REST and tRPC refusals), and the console
 * translates a code with it (client/lib/server-messages.ts builds its Lingui descriptors from these texts;
 * `lingui extract` reads shared/server-messages-en/ through scripts/lingui-server-messages-extractor.ts
 * into the one `server-messages.po` catalog, each entry's context its code).
 *
 * Each area's English is in shared/server-messages-en/<area>.ts, typed by its area's codes in
 * shared/server-messages/<area>.ts: a code missing or extra there fails the type-check.
 */
export const serverMessagesEn: Record<ServerMessageCode, string> = {
  ...commonEnglish,
  ...netEnglish,
  ...authEnglish,
  ...usersEnglish,
  ...mailEnglish,
  ...passkeysEnglish,
  ...twofaEnglish,
  ...channelsEnglish,
  ...tokensEnglish,
  ...billingEnglish,
  ...redemptionsEnglish,
  ...modelsEnglish,
  ...topupEnglish,
  ...subscriptionsEnglish,
  ...unavailableEnglish,
  ...pricingEnglish,
  ...affiliateEnglish,
  ...checkinEnglish,
  ...optionsEnglish,
  ...updatesEnglish,
  ...messagesEnglish,
  ...logsEnglish,
  ...modelMappingEnglish,
  ...userSettingsEnglish,
  ...importerEnglish,
  ...relayEnglish,
};
