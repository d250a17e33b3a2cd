import { type CreateTableBuilder, type Kysely, PostgresAdapter } from 'kysely';

/*
 * Two-factor sign-in with TOTP and backup codes (issue 32), like new-api's `two_fas` and
 * `two_fa_backup_codes` tables, plus the two short-lived states the server keeps for it:
 * - `two_fa`: one row per user who started setup; the TOTP secret sealed with the server's key,
 *   whether it is on, the wrong-code count and lock, and the last time step a code was accepted
 *   for (a code works once).
 * - `two_fa_backup_codes`: hashed single-use recovery codes (`used_at` set when spent).
 * - `two_fa_pending_logins`: a password that was right, waiting for the second step (minutes).
 * - `session_verifications`: a session that passed a fresh check (POST /api/verify), for minutes.
 * Times are unix seconds. Frozen in time: never import application code here.
 */

function withId<T extends string>(db: Kysely<unknown>, table: T): CreateTableBuilder<T, 'id'> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return pg
    ? db.schema.createTable(table).addColumn('id', 'bigserial', (c) => c.primaryKey())
    : db.schema.createTable(table).addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('two_fa')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('is_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await withId(db, 'two_fa_backup_codes')
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('two_fa_backup_codes_user_idx').on('two_fa_backup_codes').column('user_id').execute();

  await db.schema
    .createTable('two_fa_pending_logins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('two_fa_pending_logins_expiry_idx')
    .on('two_fa_pending_logins')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('session_verifications')
    .addColumn('session_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('session_verifications_expiry_idx')
    .on('session_verifications')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('session_verifications').execute();
  await db.schema.dropTable('two_fa_pending_logins').execute();
  await db.schema.dropTable('two_fa_backup_codes').execute();
  await db.schema.dropTable('two_fa').execute();
}
