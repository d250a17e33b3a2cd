import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { ParsedSource } from './dsn.rules.ts';
import { type AnyKysely, kyselySource } from './kysely-source.repo.ts';
import type { ImportSource } from './source.repo.ts';

/* new-api on PostgreSQL, read through Kysely's PostgresDialect over `pg` (its own small pool, closed after). */
export async function openPostgresSource(spec: Extract<ParsedSource, { dialect: 'postgres' }>): Promise<ImportSource> {
  const pool = new pg.Pool({ connectionString: spec.connectionString, max: 2 });
  try {
    const client = await pool.connect();
    client.release();
  } catch (err) {
    await pool.end();
    throw new Error(`cannot connect to ${spec.label}: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
  const db: AnyKysely = new Kysely({ dialect: new PostgresDialect({ pool }) });
  return kyselySource(db, 'postgres', spec.label);
}
