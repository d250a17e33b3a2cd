import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, PostgresAdapter } from 'kysely';

/*
 * The whole data model in one dialect-neutral migration (SQLite and PostgreSQL).
 * Conventions: unix seconds for times, integers 0/1 for booleans (portable),
 * bigint for quota and counters, JSON kept as text (new-api compatible).
 * Frozen in time: never import application code here.
 */

type Col = (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
const req: Col = (c) => c.notNull();
const zero: Col = (c) => c.notNull().defaultTo(0);
const empty: Col = (c) => c.notNull().defaultTo('');

function withId<T extends string>(db: Kysely<unknown>, table: T): CreateTableBuilder<T, 'id'> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return pg
    ? db.schema.createTable(table).addColumn('id', 'bigserial', (c) => c.primaryKey())
    : db.schema.createTable(table).addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, 'users')
    .addColumn('username', 'text', req)
    .addColumn('password', 'text', req)
    .addColumn('display_name', 'text', empty)
    .addColumn('role', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('email', 'text', empty)
    .addColumn('github_id', 'text', empty)
    .addColumn('oidc_id', 'text', empty)
    .addColumn('wechat_id', 'text', empty)
    .addColumn('telegram_id', 'text', empty)
    .addColumn('linux_do_id', 'text', empty)
    .addColumn('access_token', 'text')
    .addColumn('quota', 'bigint', zero)
    .addColumn('used_quota', 'bigint', zero)
    .addColumn('request_count', 'bigint', zero)
    .addColumn('group', 'text', (c) => c.notNull().defaultTo('default'))
    .addColumn('aff_code', 'text')
    .addColumn('aff_count', 'integer', zero)
    .addColumn('aff_quota', 'bigint', zero)
    .addColumn('aff_history_quota', 'bigint', zero)
    .addColumn('inviter_id', 'bigint', zero)
    .addColumn('setting', 'text', empty)
    .addColumn('created_at', 'bigint', zero)
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('users_username_uq').on('users').column('username').unique().execute();
  await db.schema.createIndex('users_access_token_uq').on('users').column('access_token').unique().execute();
  await db.schema.createIndex('users_aff_code_uq').on('users').column('aff_code').unique().execute();
  await db.schema.createIndex('users_email_idx').on('users').column('email').execute();

  await withId(db, 'tokens')
    .addColumn('user_id', 'bigint', req)
    .addColumn('key', 'text', req)
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name', 'text', empty)
    .addColumn('created_time', 'bigint', zero)
    .addColumn('accessed_time', 'bigint', zero)
    .addColumn('expired_time', 'bigint', (c) => c.notNull().defaultTo(-1))
    .addColumn('remain_quota', 'bigint', zero)
    .addColumn('unlimited_quota', 'integer', zero)
    .addColumn('used_quota', 'bigint', zero)
    .addColumn('model_limits_enabled', 'integer', zero)
    .addColumn('model_limits', 'text', empty)
    .addColumn('allow_ips', 'text', empty)
    .addColumn('group', 'text', empty)
    .addColumn('rate_limit_enabled', 'integer', zero)
    .addColumn('rate_limit_period', 'integer', (c) => c.notNull().defaultTo(60))
    .addColumn('rate_limit_count', 'integer', (c) => c.notNull().defaultTo(1000))
    .addColumn('rate_limit_success', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('tokens_key_uq').on('tokens').column('key').unique().execute();
  await db.schema.createIndex('tokens_user_idx').on('tokens').columns(['user_id', 'id']).execute();

  await withId(db, 'channels')
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('key', 'text', req)
    .addColumn('openai_organization', 'text')
    .addColumn('test_model', 'text')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name', 'text', empty)
    .addColumn('weight', 'integer', zero)
    .addColumn('created_time', 'bigint', zero)
    .addColumn('test_time', 'bigint', zero)
    .addColumn('response_time', 'integer', zero)
    .addColumn('base_url', 'text')
    .addColumn('other', 'text', empty)
    .addColumn('balance', 'double precision', zero)
    .addColumn('balance_updated_time', 'bigint', zero)
    .addColumn('models', 'text', empty)
    .addColumn('group', 'text', (c) => c.notNull().defaultTo('default'))
    .addColumn('used_quota', 'bigint', zero)
    .addColumn('model_mapping', 'text')
    .addColumn('status_code_mapping', 'text')
    .addColumn('priority', 'bigint', zero)
    .addColumn('auto_ban', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('other_info', 'text', empty)
    .addColumn('tag', 'text')
    .addColumn('setting', 'text')
    .addColumn('param_override', 'text')
    .addColumn('system_prompt', 'text')
    .addColumn('model_prefix', 'text')
    .addColumn('max_input_tokens', 'integer', zero)
    .execute();
  await db.schema.createIndex('channels_tag_idx').on('channels').column('tag').execute();

  await db.schema
    .createTable('abilities')
    .addColumn('group', 'text', req)
    .addColumn('model', 'text', req)
    .addColumn('channel_id', 'bigint', req)
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('priority', 'bigint', zero)
    .addColumn('weight', 'integer', zero)
    .addColumn('tag', 'text')
    .addPrimaryKeyConstraint('abilities_pk', ['group', 'model', 'channel_id'])
    .execute();
  await db.schema.createIndex('abilities_channel_idx').on('abilities').column('channel_id').execute();

  await db.schema
    .createTable('options')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', empty)
    .execute();

  await withId(db, 'logs')
    .addColumn('user_id', 'bigint', zero)
    .addColumn('created_at', 'bigint', req)
    .addColumn('type', 'integer', zero)
    .addColumn('content', 'text', empty)
    .addColumn('username', 'text', empty)
    .addColumn('token_name', 'text', empty)
    .addColumn('model_name', 'text', empty)
    .addColumn('quota', 'bigint', zero)
    .addColumn('prompt_tokens', 'integer', zero)
    .addColumn('completion_tokens', 'integer', zero)
    .addColumn('use_time', 'integer', zero)
    .addColumn('is_stream', 'integer', zero)
    .addColumn('channel_id', 'bigint', zero)
    .addColumn('token_id', 'bigint', zero)
    .addColumn('group', 'text', empty)
    .addColumn('ip', 'text', empty)
    .addColumn('request_id', 'text', empty)
    .addColumn('other', 'text', empty)
    .execute();
  await db.schema.createIndex('logs_created_idx').on('logs').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('logs_user_created_idx').on('logs').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('logs_type_created_idx').on('logs').columns(['type', 'created_at']).execute();
  await db.schema.createIndex('logs_channel_idx').on('logs').column('channel_id').execute();
  await db.schema.createIndex('logs_token_idx').on('logs').column('token_id').execute();

  await withId(db, 'redemptions')
    .addColumn('user_id', 'bigint', zero)
    .addColumn('key', 'text', req)
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name', 'text', empty)
    .addColumn('quota', 'bigint', zero)
    .addColumn('created_time', 'bigint', zero)
    .addColumn('redeemed_time', 'bigint', zero)
    .addColumn('used_user_id', 'bigint', zero)
    .addColumn('is_gift', 'integer', zero)
    .addColumn('max_uses', 'integer', (c) => c.notNull().defaultTo(-1))
    .addColumn('used_count', 'integer', zero)
    .addColumn('valid_from', 'bigint', zero)
    .addColumn('valid_until', 'bigint', zero)
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('redemptions_key_uq').on('redemptions').column('key').unique().execute();
  await db.schema.createIndex('redemptions_name_idx').on('redemptions').column('name').execute();

  await withId(db, 'redemption_uses')
    .addColumn('redemption_id', 'bigint', req)
    .addColumn('user_id', 'bigint', req)
    .addColumn('quota', 'bigint', zero)
    .addColumn('created_time', 'bigint', zero)
    .execute();
  await db.schema
    .createIndex('redemption_uses_uq')
    .on('redemption_uses')
    .columns(['redemption_id', 'user_id'])
    .unique()
    .execute();

  await withId(db, 'top_ups')
    .addColumn('user_id', 'bigint', req)
    .addColumn('amount', 'bigint', zero)
    .addColumn('money', 'double precision', zero)
    .addColumn('trade_no', 'text', req)
    .addColumn('payment_method', 'text', empty)
    .addColumn('create_time', 'bigint', zero)
    .addColumn('complete_time', 'bigint', zero)
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .execute();
  await db.schema.createIndex('top_ups_trade_no_uq').on('top_ups').column('trade_no').unique().execute();
  await db.schema.createIndex('top_ups_user_idx').on('top_ups').column('user_id').execute();

  await withId(db, 'messages')
    .addColumn('title', 'text', req)
    .addColumn('content', 'text', empty)
    .addColumn('format', 'text', (c) => c.notNull().defaultTo('markdown'))
    .addColumn('created_by', 'bigint', zero)
    .addColumn('created_at', 'bigint', zero)
    .addColumn('updated_at', 'bigint', zero)
    .execute();
  await db.schema.createIndex('messages_created_idx').on('messages').column('created_at').execute();

  await withId(db, 'message_recipients')
    .addColumn('message_id', 'bigint', req)
    .addColumn('user_id', 'bigint', req)
    .addColumn('read_at', 'bigint')
    .addColumn('created_at', 'bigint', zero)
    .execute();
  await db.schema
    .createIndex('message_recipients_uq')
    .on('message_recipients')
    .columns(['message_id', 'user_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('message_recipients_user_idx')
    .on('message_recipients')
    .columns(['user_id', 'read_at'])
    .execute();

  await withId(db, 'midjourneys')
    .addColumn('code', 'integer', zero)
    .addColumn('user_id', 'bigint', zero)
    .addColumn('action', 'text', empty)
    .addColumn('mj_id', 'text', empty)
    .addColumn('prompt', 'text', empty)
    .addColumn('prompt_en', 'text', empty)
    .addColumn('description', 'text', empty)
    .addColumn('state', 'text', empty)
    .addColumn('submit_time', 'bigint', zero)
    .addColumn('start_time', 'bigint', zero)
    .addColumn('finish_time', 'bigint', zero)
    .addColumn('image_url', 'text', empty)
    .addColumn('status', 'text', empty)
    .addColumn('progress', 'text', empty)
    .addColumn('fail_reason', 'text', empty)
    .addColumn('channel_id', 'bigint', zero)
    .addColumn('quota', 'bigint', zero)
    .addColumn('buttons', 'text', empty)
    .addColumn('properties', 'text', empty)
    .execute();
  await db.schema.createIndex('midjourneys_user_idx').on('midjourneys').columns(['user_id', 'submit_time']).execute();
  await db.schema.createIndex('midjourneys_mj_id_idx').on('midjourneys').column('mj_id').execute();
  await db.schema.createIndex('midjourneys_status_idx').on('midjourneys').column('status').execute();

  await withId(db, 'tasks')
    .addColumn('created_at', 'bigint', zero)
    .addColumn('updated_at', 'bigint', zero)
    .addColumn('task_id', 'text', empty)
    .addColumn('platform', 'text', empty)
    .addColumn('user_id', 'bigint', zero)
    .addColumn('channel_id', 'bigint', zero)
    .addColumn('quota', 'bigint', zero)
    .addColumn('action', 'text', empty)
    .addColumn('status', 'text', empty)
    .addColumn('fail_reason', 'text', empty)
    .addColumn('submit_time', 'bigint', zero)
    .addColumn('start_time', 'bigint', zero)
    .addColumn('finish_time', 'bigint', zero)
    .addColumn('progress', 'text', empty)
    .addColumn('properties', 'text', empty)
    .addColumn('data', 'text', empty)
    .execute();
  await db.schema.createIndex('tasks_user_idx').on('tasks').columns(['user_id', 'submit_time']).execute();
  await db.schema.createIndex('tasks_task_id_idx').on('tasks').column('task_id').execute();
  await db.schema.createIndex('tasks_status_idx').on('tasks').column('status').execute();

  await withId(db, 'check_ins')
    .addColumn('user_id', 'bigint', req)
    .addColumn('day', 'text', req)
    .addColumn('quota', 'bigint', zero)
    .addColumn('created_at', 'bigint', zero)
    .execute();
  await db.schema.createIndex('check_ins_user_day_uq').on('check_ins').columns(['user_id', 'day']).unique().execute();

  await withId(db, 'quota_data')
    .addColumn('user_id', 'bigint', zero)
    .addColumn('username', 'text', empty)
    .addColumn('model_name', 'text', empty)
    .addColumn('created_at', 'bigint', req)
    .addColumn('token_used', 'bigint', zero)
    .addColumn('count', 'bigint', zero)
    .addColumn('quota', 'bigint', zero)
    .execute();
  await db.schema
    .createIndex('quota_data_bucket_uq')
    .on('quota_data')
    .columns(['user_id', 'model_name', 'created_at'])
    .unique()
    .execute();
  await db.schema.createIndex('quota_data_created_idx').on('quota_data').column('created_at').execute();

  // Relay pre-consumption held while a request runs; leftovers after a crash are refunded at start.
  await db.schema
    .createTable('quota_reservations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', req)
    .addColumn('token_id', 'bigint', zero)
    .addColumn('quota', 'bigint', req)
    .addColumn('unlimited_token', 'integer', zero)
    .addColumn('created_at', 'bigint', req)
    .execute();

  // E-mail codes, password-reset tokens, messaging-app codes: short-lived and single-use.
  await withId(db, 'verification_codes')
    .addColumn('purpose', 'text', req)
    .addColumn('target', 'text', req)
    .addColumn('code', 'text', req)
    .addColumn('created_at', 'bigint', req)
    .addColumn('expires_at', 'bigint', req)
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('verification_codes_lookup_idx')
    .on('verification_codes')
    .columns(['purpose', 'target'])
    .execute();

  await withId(db, 'setups').addColumn('version', 'text', empty).addColumn('initialized_at', 'bigint', zero).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const tables = [
    'setups',
    'verification_codes',
    'quota_reservations',
    'quota_data',
    'check_ins',
    'tasks',
    'midjourneys',
    'message_recipients',
    'messages',
    'top_ups',
    'redemption_uses',
    'redemptions',
    'logs',
    'options',
    'abilities',
    'channels',
    'tokens',
    'users',
  ];
  for (const t of tables) await db.schema.dropTable(t).ifExists().execute();
}
