import { type CreateTableBuilder, type Kysely, PostgresAdapter } from 'kysely';

/*
 * Passkeys (WebAuthn) for sign-in (issue 32). `passkey_credentials`: one row per registered credential,
 * like new-api's table of the same name (credential id and COSE public key as base64url, the signature
 * counter, transports as a JSON array, timestamps in unix seconds). `passkey_challenges`: the challenge of
 * a ceremony in progress, kept server-side for two minutes, keyed by the browser's flow cookie and the
 * purpose, deleted when used. Frozen in time: never import application code here.
 */

function withId<T extends string>(db: Kysely<unknown>, table: T): CreateTableBuilder<T, 'id'> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return pg
    ? db.schema.createTable(table).addColumn('id', 'bigserial', (c) => c.primaryKey())
    : db.schema.createTable(table).addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, 'passkey_credentials')
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('credential_id', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('sign_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('attachment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('aaguid', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('backup_eligible', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('backup_state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('passkey_credentials_credential_uq')
    .on('passkey_credentials')
    .column('credential_id')
    .unique()
    .execute();
  await db.schema.createIndex('passkey_credentials_user_idx').on('passkey_credentials').column('user_id').execute();

  await db.schema
    .createTable('passkey_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('challenge', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('passkey_challenges_expiry_idx').on('passkey_challenges').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('passkey_challenges').execute();
  await db.schema.dropTable('passkey_credentials').execute();
}
