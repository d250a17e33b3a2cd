import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';

/*
 * Kysely table types for the migrations in /migrations — the one place they are written.
 * Booleans are stored as 0/1 integers (portable between SQLite and PostgreSQL).
 */

type Id = Generated<number>;
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface UsersTable {
  id: Id;
  username: string;
  password: string;
  display_name: Defaulted<string>;
  role: Defaulted<number>;
  status: Defaulted<number>;
  email: Defaulted<string>;
  github_id: Defaulted<string>;
  oidc_id: Defaulted<string>;
  wechat_id: Defaulted<string>;
  telegram_id: Defaulted<string>;
  linux_do_id: Defaulted<string>;
  access_token: string | null;
  quota: Defaulted<number>;
  used_quota: Defaulted<number>;
  request_count: Defaulted<number>;
  group: Defaulted<string>;
  aff_code: string | null;
  aff_count: Defaulted<number>;
  aff_quota: Defaulted<number>;
  aff_history_quota: Defaulted<number>;
  inviter_id: Defaulted<number>;
  setting: Defaulted<string>;
  created_at: Defaulted<number>;
  deleted_at: number | null;
}

export interface TokensTable {
  id: Id;
  user_id: number;
  key: string;
  status: Defaulted<number>;
  name: Defaulted<string>;
  created_time: Defaulted<number>;
  accessed_time: Defaulted<number>;
  expired_time: Defaulted<number>;
  remain_quota: Defaulted<number>;
  unlimited_quota: Defaulted<number>;
  used_quota: Defaulted<number>;
  model_limits_enabled: Defaulted<number>;
  model_limits: Defaulted<string>;
  allow_ips: Defaulted<string>;
  group: Defaulted<string>;
  rate_limit_enabled: Defaulted<number>;
  rate_limit_period: Defaulted<number>;
  rate_limit_count: Defaulted<number>;
  rate_limit_success: Defaulted<number>;
  deleted_at: number | null;
}

export interface ChannelsTable {
  id: Id;
  type: Defaulted<number>;
  key: string;
  openai_organization: string | null;
  test_model: string | null;
  status: Defaulted<number>;
  name: Defaulted<string>;
  weight: Defaulted<number>;
  created_time: Defaulted<number>;
  test_time: Defaulted<number>;
  response_time: Defaulted<number>;
  base_url: string | null;
  other: Defaulted<string>;
  balance: Defaulted<number>;
  balance_updated_time: Defaulted<number>;
  models: Defaulted<string>;
  group: Defaulted<string>;
  used_quota: Defaulted<number>;
  model_mapping: string | null;
  status_code_mapping: string | null;
  priority: Defaulted<number>;
  auto_ban: Defaulted<number>;
  other_info: Defaulted<string>;
  tag: string | null;
  setting: string | null;
  param_override: string | null;
  system_prompt: string | null;
  model_prefix: string | null;
  max_input_tokens: Defaulted<number>;
  /** Per-key state of a multi-key channel, new-api's JSON (shared/channel-info.ts); '' for a single key. */
  channel_info: Defaulted<string>;
  /** The last channel test's outcome as JSON (shared/channel-test-result.ts); '' before the first test. */
  test_result: Defaulted<string>;
}

export interface AbilitiesTable {
  group: string;
  model: string;
  channel_id: number;
  enabled: Defaulted<number>;
  priority: Defaulted<number>;
  weight: Defaulted<number>;
  tag: string | null;
}

export interface OptionsTable {
  key: string;
  value: string;
}

export interface LogsTable {
  id: Id;
  user_id: Defaulted<number>;
  created_at: number;
  type: Defaulted<number>;
  content: Defaulted<string>;
  username: Defaulted<string>;
  token_name: Defaulted<string>;
  model_name: Defaulted<string>;
  quota: Defaulted<number>;
  prompt_tokens: Defaulted<number>;
  completion_tokens: Defaulted<number>;
  use_time: Defaulted<number>;
  is_stream: Defaulted<number>;
  channel_id: Defaulted<number>;
  token_id: Defaulted<number>;
  group: Defaulted<string>;
  ip: Defaulted<string>;
  request_id: Defaulted<string>;
  other: Defaulted<string>;
}

/**
 * Log rows counted (and quota summed) per hour and type at a few levels of detail,
 * kept exact in the transactions that insert or delete logs
 * (server/domains/logs/log-hourly.repo.ts). Columns a level does not keep hold 0 / ''.
 */
export interface LogHourlyTable {
  level: number;
  /** Start of the hour, unix seconds. */
  hour: number;
  type: number;
  user_id: Defaulted<number>;
  username: Defaulted<string>;
  token_name: Defaulted<string>;
  model_name: Defaulted<string>;
  channel_id: Defaulted<number>;
  group: Defaulted<string>;
  count: Defaulted<number>;
  quota: Defaulted<number>;
  /** Prompt plus completion tokens. */
  tokens: Defaulted<number>;
  /** Prompt tokens alone, and the part of them read from upstream prompt caches (other.cache_tokens). */
  prompt_tokens: Defaulted<number>;
  cache_tokens: Defaulted<number>;
}

export interface RedemptionsTable {
  id: Id;
  user_id: Defaulted<number>;
  key: string;
  status: Defaulted<number>;
  name: Defaulted<string>;
  quota: Defaulted<number>;
  created_time: Defaulted<number>;
  redeemed_time: Defaulted<number>;
  used_user_id: Defaulted<number>;
  is_gift: Defaulted<number>;
  max_uses: Defaulted<number>;
  used_count: Defaulted<number>;
  valid_from: Defaulted<number>;
  valid_until: Defaulted<number>;
  deleted_at: number | null;
}

export interface RedemptionUsesTable {
  id: Id;
  redemption_id: number;
  user_id: number;
  quota: Defaulted<number>;
  created_time: Defaulted<number>;
}

export interface TopUpsTable {
  id: Id;
  user_id: number;
  amount: Defaulted<number>;
  money: Defaulted<number>;
  trade_no: string;
  payment_method: Defaulted<string>;
  create_time: Defaulted<number>;
  complete_time: Defaulted<number>;
  status: Defaulted<string>;
}

export interface MessagesTable {
  id: Id;
  title: string;
  content: Defaulted<string>;
  format: Defaulted<string>;
  created_by: Defaulted<number>;
  created_at: Defaulted<number>;
  updated_at: Defaulted<number>;
  /** The registry message of a notice the server wrote (JSON, shared/stored-message.ts); '' otherwise. */
  notice: Defaulted<string>;
}

export interface MessageRecipientsTable {
  id: Id;
  message_id: number;
  user_id: number;
  read_at: number | null;
  created_at: Defaulted<number>;
}

export interface MidjourneysTable {
  id: Id;
  code: Defaulted<number>;
  user_id: Defaulted<number>;
  action: Defaulted<string>;
  mj_id: Defaulted<string>;
  prompt: Defaulted<string>;
  prompt_en: Defaulted<string>;
  description: Defaulted<string>;
  state: Defaulted<string>;
  submit_time: Defaulted<number>;
  start_time: Defaulted<number>;
  finish_time: Defaulted<number>;
  image_url: Defaulted<string>;
  status: Defaulted<string>;
  progress: Defaulted<string>;
  fail_reason: Defaulted<string>;
  channel_id: Defaulted<number>;
  quota: Defaulted<number>;
  buttons: Defaulted<string>;
  properties: Defaulted<string>;
}

export interface TasksTable {
  id: Id;
  created_at: Defaulted<number>;
  updated_at: Defaulted<number>;
  task_id: Defaulted<string>;
  platform: Defaulted<string>;
  user_id: Defaulted<number>;
  channel_id: Defaulted<number>;
  quota: Defaulted<number>;
  action: Defaulted<string>;
  status: Defaulted<string>;
  fail_reason: Defaulted<string>;
  submit_time: Defaulted<number>;
  start_time: Defaulted<number>;
  finish_time: Defaulted<number>;
  progress: Defaulted<string>;
  properties: Defaulted<string>;
  data: Defaulted<string>;
}

export interface CheckInsTable {
  id: Id;
  user_id: number;
  /** Calendar day in server time, YYYY-MM-DD. */
  day: string;
  quota: Defaulted<number>;
  created_at: Defaulted<number>;
}

export interface QuotaDataTable {
  id: Id;
  user_id: Defaulted<number>;
  username: Defaulted<string>;
  model_name: Defaulted<string>;
  /** Hour bucket, unix seconds. */
  created_at: number;
  token_used: Defaulted<number>;
  count: Defaulted<number>;
  quota: Defaulted<number>;
}

export interface QuotaReservationsTable {
  id: string;
  user_id: number;
  token_id: Defaulted<number>;
  quota: number;
  unlimited_token: Defaulted<number>;
  created_at: number;
  /** The subscription the quota was taken from; 0 = the wallet. */
  subscription_id: Defaulted<number>;
}

export interface VerificationCodesTable {
  id: Id;
  purpose: string;
  target: string;
  code: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}

/** A background job's lease and last start (server/ops/jobs). */
export interface JobLeasesTable {
  name: string;
  holder: Defaulted<string>;
  locked_until: Defaulted<number>;
  last_started_at: Defaulted<number>;
}

export interface SetupsTable {
  id: Id;
  version: Defaulted<string>;
  initialized_at: Defaulted<number>;
}

/** A model's maker as the marketplace shows it (migration 2026-11-27T0500). */
export interface VendorsTable {
  id: Id;
  name: string;
  description: Defaulted<string>;
  icon: Defaulted<string>;
  status: Defaulted<number>;
  created_time: Defaulted<number>;
  updated_time: Defaulted<number>;
}

/** What the marketplace says about a model (or every model a name rule matches). */
export interface ModelsTable {
  id: Id;
  model_name: string;
  description: Defaulted<string>;
  icon: Defaulted<string>;
  /** Comma-separated. */
  tags: Defaulted<string>;
  /** 0: none. */
  vendor_id: Defaulted<number>;
  /** JSON text (endpoint types, or type -> {path, method}); '' when not set. */
  endpoints: Defaulted<string>;
  /** 0 exact, 1 prefix, 2 contains, 3 suffix (new-api's NameRule). */
  name_rule: Defaulted<number>;
  status: Defaulted<number>;
  sync_official: Defaulted<number>;
  created_time: Defaulted<number>;
  updated_time: Defaulted<number>;
}

/** A named list of models, tags or endpoints the admin forms fill in with one click. */
export interface PrefillGroupsTable {
  id: Id;
  name: string;
  type: string;
  /** JSON text: an array of names, or (endpoint groups) whatever JSON the console sent. */
  items: Defaulted<string>;
  description: Defaulted<string>;
  created_time: Defaulted<number>;
  updated_time: Defaulted<number>;
}

/** A registered passkey (migration 2026-11-27T0300); ids and key as base64url. */
export interface PasskeyCredentialsTable {
  id: Id;
  user_id: number;
  credential_id: string;
  /** The COSE public key. */
  public_key: string;
  sign_count: Defaulted<number>;
  /** JSON array of the authenticator's transports ('internal', 'usb', 'hybrid'...). */
  transports: Defaulted<string>;
  attachment: Defaulted<string>;
  aaguid: Defaulted<string>;
  backup_eligible: Defaulted<number>;
  backup_state: Defaulted<number>;
  created_at: number;
  last_used_at: number | null;
}

/** A WebAuthn ceremony in progress: its challenge, bound to one browser's flow cookie and purpose. */
export interface PasskeyChallengesTable {
  /** `<flow cookie>:<purpose>`. */
  id: string;
  /** The signed-in user the ceremony is for; 0 for sign-in. */
  user_id: Defaulted<number>;
  challenge: string;
  expires_at: number;
}

/** A plan an admin sells (migration 2026-11-27T0400): a price, a duration and quota per period. */
export interface SubscriptionPlansTable {
  id: Id;
  title: string;
  subtitle: Defaulted<string>;
  price_amount: Defaulted<number>;
  currency: Defaulted<string>;
  duration_unit: Defaulted<string>;
  duration_value: Defaulted<number>;
  custom_seconds: Defaulted<number>;
  enabled: Defaulted<number>;
  sort_order: Defaulted<number>;
  max_purchase_per_user: Defaulted<number>;
  upgrade_group: Defaulted<string>;
  /** Quota units per period; 0 = unlimited. */
  total_amount: Defaulted<number>;
  quota_reset_period: Defaulted<string>;
  quota_reset_custom_seconds: Defaulted<number>;
  stripe_price_id: Defaulted<string>;
  creem_product_id: Defaulted<string>;
  created_at: Defaulted<number>;
  updated_at: Defaulted<number>;
}

/** A plan's payment under way; the gateway's signed notice completes it once. */
export interface SubscriptionOrdersTable {
  id: Id;
  user_id: number;
  plan_id: number;
  money: Defaulted<number>;
  trade_no: string;
  payment_method: Defaulted<string>;
  status: Defaulted<string>;
  create_time: Defaulted<number>;
  complete_time: Defaulted<number>;
  provider_payload: Defaulted<string>;
}

/** A user's plan: the current period's pool (`amount_used` of `amount_total`, 0 = unlimited). */
export interface UserSubscriptionsTable {
  id: Id;
  user_id: number;
  plan_id: number;
  amount_total: Defaulted<number>;
  amount_used: Defaulted<number>;
  start_time: Defaulted<number>;
  end_time: Defaulted<number>;
  /** active, expired or cancelled. */
  status: Defaulted<string>;
  /** order, balance or admin. */
  source: Defaulted<string>;
  quota_reset_period: Defaulted<string>;
  quota_reset_custom_seconds: Defaulted<number>;
  last_reset_time: Defaulted<number>;
  next_reset_time: Defaulted<number>;
  upgrade_group: Defaulted<string>;
  prev_user_group: Defaulted<string>;
  created_at: Defaulted<number>;
  updated_at: Defaulted<number>;
}

/** A user's TOTP setup (migration 2026-11-27T0200); the secret sealed with the server key (twofa/secret-box.rules.ts). */
export interface TwoFaTable {
  user_id: number;
  secret: string;
  is_enabled: Defaulted<number>;
  failed_attempts: Defaulted<number>;
  /** Unix seconds; 0 = not locked. */
  locked_until: Defaulted<number>;
  /** The TOTP time step last accepted: a code of that step or an earlier one is refused (replay). */
  last_step: Defaulted<number>;
  last_used_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A single-use recovery code, as a keyed hash (HMAC-SHA256 with the server key). */
export interface TwoFaBackupCodesTable {
  id: Id;
  user_id: number;
  code_hash: string;
  used_at: number | null;
  created_at: number;
}

/** A right password waiting for its second step; the id is the signed cookie's value. */
export interface TwoFaPendingLoginsTable {
  id: string;
  user_id: number;
  expires_at: number;
}

/** A session that passed a fresh check (POST /api/verify) until `expires_at`. */
export interface SessionVerificationsTable {
  session_id: string;
  user_id: number;
  /** '2fa' or 'passkey'. */
  method: string;
  expires_at: number;
}

export interface Database {
  users: UsersTable;
  tokens: TokensTable;
  channels: ChannelsTable;
  abilities: AbilitiesTable;
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

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type TokenRow = Selectable<TokensTable>;
export type ChannelRow = Selectable<ChannelsTable>;
export type AbilityRow = Selectable<AbilitiesTable>;
export type LogRow = Selectable<LogsTable>;
export type NewLog = Insertable<LogsTable>;
export type RedemptionRow = Selectable<RedemptionsTable>;
export type TopUpRow = Selectable<TopUpsTable>;
export type MessageRow = Selectable<MessagesTable>;
export type MidjourneyRow = Selectable<MidjourneysTable>;
export type TaskRow = Selectable<TasksTable>;
