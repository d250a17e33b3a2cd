import SQLite from 'better-sqlite3';
import bcrypt from 'bcryptjs';

/*
 * A new-api (or one-api) SQLite database as gorm creates it, with a few rows of each kind, for the
 * importer's tests. `channels` adds channel rows as new-api stores them.
 */

/** A channel row as new-api stores it (the columns the importer reads). */
export interface NewApiChannel {
  id: number;
  type: number;
  key: string;
  name: string;
  models: string;
  base_url?: string;
  other?: string;
  model_mapping?: string;
  setting?: string;
  /** new-api's comma-separated groups (default: `default`). */
  group?: string;
}

/** The tables of a new-api SQLite database as gorm creates them (relay.md, database section). */
export function createNewApiDatabase(file: string, flavor: 'new-api' | 'one-api', channels: NewApiChannel[] = []) {
  const db = new SQLite(file);
  const tagColumns = flavor === 'new-api' ? ', `tag` text, `setting` text, `param_override` text' : '';
  db.exec(`
    CREATE TABLE users (id integer PRIMARY KEY AUTOINCREMENT, username text UNIQUE, password text NOT NULL, display_name text,
      role integer DEFAULT 1, status integer DEFAULT 1, email text, github_id text, oidc_id text, wechat_id text, telegram_id text,
      linux_do_id text, access_token char(32) UNIQUE, quota integer DEFAULT 0, used_quota integer DEFAULT 0, request_count integer DEFAULT 0,
      "group" varchar(64) DEFAULT 'default', aff_code varchar(32) UNIQUE, aff_count integer DEFAULT 0, aff_quota integer DEFAULT 0,
      aff_history_quota integer DEFAULT 0, inviter_id integer, setting text, deleted_at datetime);
    CREATE TABLE tokens (id integer PRIMARY KEY AUTOINCREMENT, user_id integer, key char(48) UNIQUE, status integer DEFAULT 1, name text,
      created_time bigint, accessed_time bigint, expired_time bigint DEFAULT -1, remain_quota integer DEFAULT 0, unlimited_quota numeric DEFAULT false,
      model_limits_enabled numeric DEFAULT false, model_limits varchar(1024) DEFAULT '', allow_ips text DEFAULT '', used_quota integer DEFAULT 0,
      "group" text DEFAULT '', deleted_at datetime);
    CREATE TABLE channels (id integer PRIMARY KEY AUTOINCREMENT, type integer DEFAULT 0, key text NOT NULL, openai_organization text,
      test_model text, status integer DEFAULT 1, name text, weight integer DEFAULT 0, created_time bigint, test_time bigint,
      response_time integer, base_url text DEFAULT '', other text, balance real, balance_updated_time bigint, models text,
      "group" varchar(64) DEFAULT 'default', used_quota bigint DEFAULT 0, model_mapping text DEFAULT '', status_code_mapping varchar(1024) DEFAULT '',
      priority bigint DEFAULT 0, auto_ban integer DEFAULT 1, other_info text${tagColumns});
    CREATE TABLE abilities ("group" varchar(64), model varchar(255), channel_id integer, enabled numeric, priority bigint DEFAULT 0,
      weight integer DEFAULT 0${flavor === 'new-api' ? ', tag text' : ''}, PRIMARY KEY ("group", model, channel_id));
    CREATE TABLE options (key text PRIMARY KEY, value text);
    CREATE TABLE redemptions (id integer PRIMARY KEY AUTOINCREMENT, user_id integer, key char(32) UNIQUE, status integer DEFAULT 1,
      name text, quota integer DEFAULT 100, created_time bigint, redeemed_time bigint, used_user_id integer, deleted_at datetime);
    CREATE TABLE top_ups (id integer PRIMARY KEY AUTOINCREMENT, user_id integer, amount integer, money real, trade_no text, create_time bigint, status text);
    CREATE TABLE logs (id integer PRIMARY KEY AUTOINCREMENT, user_id integer, created_at bigint, type integer, content text);
    ${flavor === 'new-api' ? 'CREATE TABLE setups (id integer PRIMARY KEY AUTOINCREMENT, version text, initialized_at bigint);' : ''}
  `);
  const hash = bcrypt.hashSync('OldPassword1', 10);
  db.prepare(
    `INSERT INTO users (id, username, password, display_name, role, status, quota, used_quota, "group", aff_code, access_token, setting)
     VALUES (1, 'root', ?, 'Root User', 100, 1, 100000000, 5, 'default', 'ROOT', 'roottoken0123456789abcdefghijkl', '')`,
  ).run(hash);
  db.prepare(
    `INSERT INTO users (id, username, password, display_name, role, status, quota, "group", aff_code, deleted_at)
     VALUES (7, 'alice', ?, 'Alice', 1, 1, 2500000, 'vip', 'ALIC', NULL)`,
  ).run(hash);
  db.prepare(
    `INSERT INTO tokens (id, user_id, key, status, name, created_time, expired_time, remain_quota, unlimited_quota, model_limits_enabled, model_limits, "group")
     VALUES (3, 7, ?, 1, 'alice-key', 1700000000, -1, 400000, 0, 1, 'gpt-4o-mini,gpt-4o', 'vip')`,
  ).run('a'.repeat(24) + 'B'.repeat(24));
  db.prepare(
    `INSERT INTO channels (id, type, key, status, name, weight, models, "group", priority, auto_ban, base_url)
     VALUES (11, ?, 'sk-upstream-secret', 1, 'upstream', 5, 'gpt-4o-mini,gpt-4o', 'default,vip', 2, 1, '')`,
  ).run(flavor === 'one-api' ? 36 : 43);
  db.prepare(
    `INSERT INTO options (key, value) VALUES ('GroupRatio', '{"default":1,"vip":0.8}'), ('SystemName', 'Old Gateway')`,
  ).run();
  db.prepare(
    `INSERT INTO redemptions (id, user_id, key, status, name, quota, created_time) VALUES (2, 1, ?, 1, 'gift', 500000, 1700000000)`,
  ).run('c'.repeat(32));
  db.prepare(
    `INSERT INTO top_ups (id, user_id, amount, money, trade_no, create_time, status) VALUES (1, 7, 10, 73, 'USR7NOabc1231700000000', 1700000000, 'success')`,
  ).run();
  const insert = db.prepare(
    `INSERT INTO channels (id, type, key, status, name, weight, models, "group", priority, auto_ban, base_url, other, model_mapping${flavor === 'new-api' ? ', setting' : ''})
     VALUES (@id, @type, @key, 1, @name, 0, @models, @group, 0, 1, @base_url, @other, @model_mapping${flavor === 'new-api' ? ', @setting' : ''})`,
  );
  for (const c of channels)
    insert.run({
      base_url: '',
      other: '',
      group: 'default',
      model_mapping: '',
      ...(flavor === 'new-api' ? { setting: '' } : {}),
      ...c,
    });
  db.close();
}
