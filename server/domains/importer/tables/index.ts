import { channelsImporter } from './channels.repo.ts';
import { checkInsImporter } from './check-ins.repo.ts';
import { logsImporter } from './logs.repo.ts';
import { modelsImporter, prefillGroupsImporter, vendorsImporter } from './model-meta.repo.ts';
import { customOAuthProvidersImporter, oauthBindingsImporter } from './oauth-bindings.rules.ts';
import { optionsImporter } from './options.repo.ts';
import { passkeysImporter } from './passkeys.repo.ts';
import { redemptionsImporter } from './redemptions.repo.ts';
import { subscriptionOrdersImporter } from './subscription-orders.repo.ts';
import { subscriptionPlansImporter } from './subscription-plans.repo.ts';
import { midjourneysImporter, tasksImporter } from './tasks.repo.ts';
import { tokensImporter } from './tokens.repo.ts';
import { topUpsImporter } from './top-ups.repo.ts';
import { twoFaBackupCodesImporter } from './two-fa-backup-codes.repo.ts';
import { twoFaImporter } from './two-fa.repo.ts';
import type { TableImporter } from './types.ts';
import { userSubscriptionsImporter } from './user-subscriptions.repo.ts';
import { usersImporter } from './users.repo.ts';

/*
 * Every table an import copies, in the order they must land: a row's owner before the row (users before tokens,
 * plans before subscriptions, vendors before models), options first so the rest reads the imported settings.
 * Add a table here, one line, where its dependencies are met.
 */
export const tableImporters: TableImporter[] = [
  optionsImporter,
  usersImporter,
  tokensImporter,
  channelsImporter,
  redemptionsImporter,
  topUpsImporter,
  twoFaImporter,
  twoFaBackupCodesImporter,
  passkeysImporter,
  subscriptionPlansImporter,
  userSubscriptionsImporter,
  subscriptionOrdersImporter,
  vendorsImporter,
  modelsImporter,
  prefillGroupsImporter,
  checkInsImporter,
  customOAuthProvidersImporter,
  oauthBindingsImporter,
  tasksImporter,
  midjourneysImporter,
  logsImporter,
];
