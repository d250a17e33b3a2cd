import type { Kysely, Transaction } from 'kysely';
import type { UsersTable, SetupsTable } from '../domains/users/users.table.ts';
import type { TokensTable } from '../domains/tokens/tokens.table.ts';
import type { ChannelsTable, AbilitiesTable } from '../domains/channels/channels.table.ts';
import type { ChannelCallsTable } from '../domains/channels/channel-calls.table.ts';
import type { OptionsTable } from '../domains/options/options.table.ts';
import type { LogsTable, LogHourlyTable, QuotaDataTable } from '../domains/logs/logs.table.ts';
import type { RedemptionsTable, RedemptionUsesTable } from '../domains/redemptions/redemptions.table.ts';
import type { TopUpsTable } from '../domains/topup/topup.table.ts';
import type { MessagesTable, MessageRecipientsTable } from '../domains/messages/messages.table.ts';
import type { MidjourneysTable, TasksTable } from '../domains/tasks/tasks.table.ts';
import type { CheckInsTable } from '../domains/checkin/checkin.table.ts';
import type { QuotaReservationsTable } from '../domains/billing/billing.table.ts';
import type { VerificationCodesTable, SessionsTable } from '../domains/auth/auth.table.ts';
import type { JobLeasesTable } from '../ops/jobs/job-leases.table.ts';
import type { VendorsTable, ModelsTable, PrefillGroupsTable } from '../domains/models/models.table.ts';
import type { PasskeyCredentialsTable, PasskeyChallengesTable } from '../domains/passkeys/passkeys.table.ts';
import type {
  SubscriptionPlansTable,
  SubscriptionOrdersTable,
  UserSubscriptionsTable,
} from '../domains/subscriptions/subscriptions.table.ts';
import type {
  TwoFaTable,
  TwoFaBackupCodesTable,
  TwoFaPendingLoginsTable,
  SessionVerificationsTable,
} from '../domains/twofa/twofa.table.ts';

/*
 * The database as Kysely sees it: every table of the migrations in /migrations, each row type written beside the
 * domain whose repositories own it (`<area>.table.ts`, CONTRIBUTING "Where a new table type goes").
 */
export interface Database {
  users: UsersTable;
  tokens: TokensTable;
  channels: ChannelsTable;
  abilities: AbilitiesTable;
  channel_calls: ChannelCallsTable;
  options: OptionsTable;
  logs: LogsTable;
  log_hourly: LogHourlyTable;
  redemptions: RedemptionsTable;
  redemption_uses: RedemptionUsesTable;
  top_ups: TopUpsTable;
  messages: MessagesTable;
  message_recipients: MessageRecipientsTable;
  midjourneys: MidjourneysTable;
  tasks: TasksTable;
  check_ins: CheckInsTable;
  quota_data: QuotaDataTable;
  quota_reservations: QuotaReservationsTable;
  verification_codes: VerificationCodesTable;
  setups: SetupsTable;
  sessions: SessionsTable;
  job_leases: JobLeasesTable;
  vendors: VendorsTable;
  models: ModelsTable;
  prefill_groups: PrefillGroupsTable;
  subscription_plans: SubscriptionPlansTable;
  subscription_orders: SubscriptionOrdersTable;
  user_subscriptions: UserSubscriptionsTable;
  passkey_credentials: PasskeyCredentialsTable;
  passkey_challenges: PasskeyChallengesTable;
  two_fa: TwoFaTable;
  two_fa_backup_codes: TwoFaBackupCodesTable;
  two_fa_pending_logins: TwoFaPendingLoginsTable;
  session_verifications: SessionVerificationsTable;
}

/** A database handle or an open transaction: repositories accept either. */
export type Db = Kysely<Database> | Transaction<Database>;

/* Row aliases, re-exported for code outside the owning domain (the relay, other domains, tests). */
export type { UserRow, NewUser, UserUpdate } from '../domains/users/users.table.ts';
export type { TokenRow } from '../domains/tokens/tokens.table.ts';
export type { ChannelRow, AbilityRow } from '../domains/channels/channels.table.ts';
export type { LogRow, NewLog } from '../domains/logs/logs.table.ts';
export type { RedemptionRow } from '../domains/redemptions/redemptions.table.ts';
export type { TopUpRow } from '../domains/topup/topup.table.ts';
export type { MessageRow } from '../domains/messages/messages.table.ts';
export type { MidjourneyRow, TaskRow } from '../domains/tasks/tasks.table.ts';
