import { c, type Table } from './gorm-ddl.ts';

/*
 * new-api's tables (QuantumNous/new-api, model/*.go), as of upstream main in 2026 and as of the April 2025
 * console. The 2025 shape is the same tables without what came later: multi-key channels (channel_info, v0.8.5),
 * header overrides, remarks, two-factor sign-in, passkeys, model metadata and vendors, prefill groups, check-ins,
 * subscriptions, custom OAuth providers and their bindings.
 */

export type NewApiYear = 2025 | 2026;

const since2026 = <T>(year: NewApiYear, items: T[]): T[] => (year === 2026 ? items : []);

function users(year: NewApiYear): Table {
  return {
    name: 'users',
    columns: [
      c.str('username', { unique: true, index: true }),
      c.str('password', { notNull: true }),
      c.str('display_name', { index: true }),
      c.int('role', { type: 'int', default: '1' }),
      c.int('status', { type: 'int', default: '1' }),
      c.str('email', { index: true }),
      c.str('github_id', { index: true }),
      ...since2026(year, [c.str('discord_id', { index: true })]),
      c.str('oidc_id', { index: true }),
      c.str('wechat_id', { index: true }),
      c.str('telegram_id', { index: true }),
      c.str('access_token', { type: 'char(32)', unique: true }),
      c.int('quota', { type: 'int', default: '0' }),
      c.int('used_quota', { type: 'int', default: '0' }),
      c.int('request_count', { type: 'int', default: '0' }),
      c.str('group', { type: 'varchar(64)', default: "'default'" }),
      c.str('aff_code', { type: 'varchar(32)', unique: true }),
      c.int('aff_count', { type: 'int', default: '0' }),
      c.int('aff_quota', { type: 'int', default: '0' }),
      // AffHistoryQuota's column is aff_history (json name aff_history_quota).
      c.int('aff_history', { type: 'int', default: '0' }),
      c.int('inviter_id', { type: 'int', index: true }),
      ...since2026(year, [c.bool('invite_rebate_eligible', { default: 'false' })]),
      c.deleted(),
      c.str('linux_do_id', { index: true }),
      c.str('setting', { type: 'text' }),
      ...since2026(year, [
        c.str('remark', { type: 'varchar(255)' }),
        c.str('stripe_customer', { type: 'varchar(64)', index: true }),
        c.int64('created_at'),
        c.int64('last_login_at', { default: '0' }),
        c.int64('auth_version', { type: 'bigint', notNull: true, default: '1' }),
      ]),
    ],
  };
}

function tokens(year: NewApiYear): Table {
  return {
    name: 'tokens',
    columns: [
      c.int('user_id', { index: true }),
      c.str('key', { type: 'char(48)', unique: true }),
      c.int('status', { default: '1' }),
      c.str('name', { index: true }),
      c.int64('created_time', { type: 'bigint' }),
      c.int64('accessed_time', { type: 'bigint' }),
      c.int64('expired_time', { type: 'bigint', default: '-1' }),
      c.int('remain_quota', { default: '0' }),
      c.bool('unlimited_quota'),
      c.bool('model_limits_enabled'),
      c.str('model_limits', { type: 'varchar(1024)', default: "''" }),
      c.str('allow_ips', { default: "''" }),
      c.int('used_quota', { default: '0' }),
      c.str('group', { default: "''" }),
      ...since2026(year, [c.bool('cross_group_retry')]),
      c.deleted(),
    ],
  };
}

function channels(year: NewApiYear): Table {
  return {
    name: 'channels',
    columns: [
      c.int('type', { default: '0' }),
      c.str('key', { notNull: true }),
      c.str('openai_organization'),
      c.str('test_model'),
      c.int('status', { default: '1' }),
      c.str('name', { index: true }),
      c.uint('weight', { default: '0' }),
      c.int64('created_time', { type: 'bigint' }),
      c.int64('test_time', { type: 'bigint' }),
      c.int('response_time'),
      c.str('base_url', { default: "''" }),
      c.str('other'),
      c.float('balance'),
      c.int64('balance_updated_time', { type: 'bigint' }),
      c.str('models'),
      c.str('group', { type: 'varchar(64)', default: "'default'" }),
      c.int64('used_quota', { type: 'bigint', default: '0' }),
      c.str('model_mapping', { type: 'text' }),
      c.str('status_code_mapping', { type: 'varchar(1024)', default: "''" }),
      c.int64('priority', { type: 'bigint', default: '0' }),
      c.int('auto_ban', { default: '1' }),
      ...since2026(year, [c.int('need_reconcile', { default: '0' })]),
      c.str('other_info'),
      c.str('tag', { index: true }),
      c.str('setting', { type: 'text' }),
      c.str('param_override', { type: 'text' }),
      ...since2026(year, [
        c.str('header_override', { type: 'text' }),
        c.str('remark', { type: 'varchar(255)' }),
        c.str('channel_info', { type: 'json' }),
        c.str('settings'),
      ]),
    ],
  };
}

const abilities: Table = {
  name: 'abilities',
  columns: [
    c.str('group', { type: 'varchar(64)', primaryKey: true }),
    c.str('model', { type: 'varchar(255)', primaryKey: true }),
    c.int('channel_id', { primaryKey: true, index: true }),
    c.bool('enabled'),
    c.int64('priority', { type: 'bigint', default: '0', index: true }),
    c.uint('weight', { default: '0', index: true }),
    c.str('tag', { index: true }),
  ],
};

const options: Table = { name: 'options', columns: [c.str('key', { primaryKey: true }), c.str('value')] };

function redemptions(year: NewApiYear): Table {
  return {
    name: 'redemptions',
    columns: [
      c.int('user_id'),
      c.str('key', { type: 'char(32)', unique: true }),
      c.int('status', { default: '1' }),
      c.str('name', { index: true }),
      c.int('quota', { default: '100' }),
      c.int64('created_time', { type: 'bigint' }),
      c.int64('redeemed_time', { type: 'bigint' }),
      c.int('used_user_id'),
      c.deleted(),
      ...since2026(year, [c.int64('expired_time', { type: 'bigint' })]),
    ],
  };
}

const topUps: Table = {
  name: 'top_ups',
  columns: [
    c.int('user_id', { index: true }),
    c.int64('amount'),
    c.float('money'),
    c.str('trade_no', { type: 'varchar(255)', unique: true }),
    c.str('payment_method', { type: 'varchar(50)' }),
    c.int64('create_time'),
    c.int64('complete_time'),
    c.str('status'),
  ],
};

export const newApiLogs: Table = {
  name: 'logs',
  columns: [
    c.int('user_id', { index: true }),
    c.int64('created_at', { type: 'bigint', index: true }),
    c.int('type', { index: true }),
    c.str('content'),
    c.str('username', { default: "''", index: true }),
    c.str('token_name', { default: "''", index: true }),
    c.str('model_name', { default: "''", index: true }),
    c.int('quota', { default: '0' }),
    c.int('prompt_tokens', { default: '0' }),
    c.int('completion_tokens', { default: '0' }),
    c.int('use_time', { default: '0' }),
    c.bool('is_stream'),
    c.int('channel_id', { index: true }),
    c.int('token_id', { default: '0', index: true }),
    c.str('group', { index: true }),
    c.str('ip', { default: "''", index: true }),
    c.str('other'),
  ],
};

function midjourneys(year: NewApiYear): Table {
  return {
    name: 'midjourneys',
    columns: [
      c.int('code'),
      c.int('user_id', { index: true }),
      c.str('action', { type: 'varchar(40)', index: true }),
      c.str('mj_id', { index: true }),
      c.str('prompt'),
      c.str('prompt_en'),
      c.str('description'),
      c.str('state'),
      c.int64('submit_time', { index: true }),
      c.int64('start_time', { index: true }),
      c.int64('finish_time', { index: true }),
      c.str('image_url'),
      ...since2026(year, [c.str('video_url'), c.str('video_urls')]),
      c.str('status', { type: 'varchar(20)', index: true }),
      c.str('progress', { type: 'varchar(30)', index: true }),
      c.str('fail_reason'),
      c.int('channel_id'),
      c.int('quota'),
      c.str('buttons'),
      c.str('properties'),
    ],
  };
}

function tasks(year: NewApiYear): Table {
  return {
    name: 'tasks',
    columns: [
      c.int64('created_at', { index: true }),
      c.int64('updated_at'),
      c.str('task_id', { type: 'varchar(191)', index: true }),
      c.str('platform', { type: 'varchar(30)', index: true }),
      c.int('user_id', { index: true }),
      ...since2026(year, [c.str('group', { type: 'varchar(50)' })]),
      c.int('channel_id', { index: true }),
      c.int('quota'),
      c.str('action', { type: 'varchar(40)', index: true }),
      c.str('status', { type: 'varchar(20)', index: true }),
      c.str('fail_reason'),
      c.int64('submit_time', { index: true }),
      c.int64('start_time', { index: true }),
      c.int64('finish_time', { index: true }),
      c.str('progress', { type: 'varchar(20)', index: true }),
      c.str('properties', { type: 'json' }),
      ...since2026(year, [c.str('private_data', { type: 'json' })]),
      c.str('data', { type: 'json' }),
    ],
  };
}

const setups: Table = {
  name: 'setups',
  columns: [
    c.str('version', { type: 'varchar(50)', notNull: true }),
    c.int64('initialized_at', { type: 'bigint', notNull: true }),
  ],
};

const quotaData: Table = {
  name: 'quota_data',
  columns: [
    c.int('user_id', { index: true }),
    c.str('username', { type: 'varchar(64)', index: true, default: "''" }),
    c.str('model_name', { type: 'varchar(64)', index: true, default: "''" }),
    c.int64('created_at', { type: 'bigint', index: true }),
    c.int('token_used', { default: '0' }),
    c.int('count', { default: '0' }),
    c.int('quota', { default: '0' }),
  ],
};

/** Every table of new-api's database of that year, in the order AutoMigrate creates them. */
export function newApiTables(year: NewApiYear, extra: Table[] = []): Table[] {
  return [
    users(year),
    options,
    tokens(year),
    channels(year),
    abilities,
    redemptions(year),
    topUps,
    newApiLogs,
    midjourneys(year),
    tasks(year),
    setups,
    quotaData,
    ...extra,
  ];
}
