import { Kysely, MysqlDialect } from 'kysely';
import { createPool } from 'mysql2';
import type { ParsedSource } from './dsn.rules.ts';
import { type AnyKysely, kyselySource } from './kysely-source.repo.ts';
import type { ImportSource } from './source.repo.ts';

/*
 * new-api on MySQL or MariaDB (its most common production database), read through Kysely's MysqlDialect over
 * `mysql2`. GORM writes datetimes in UTC (new-api's DSNs carry parseTime=true without loc), so they are read as
 * UTC; DECIMAL stays text, as the contract wants.
 */
export async function openMysqlSource(spec: Extract<ParsedSource, { dialect: 'mysql' }>): Promise<ImportSource> {
  const pool = createPool({
    ...(spec.socketPath ? { socketPath: spec.socketPath } : { host: spec.host, port: spec.port }),
    user: spec.user,
    password: spec.password,
    database: spec.database,
    timezone: 'Z',
    connectionLimit: 2,
    charset: 'utf8mb4',
  });
  try {
    await pool.promise().query('select 1');
  } catch (err) {
    await pool.promise().end();
    throw new Error(`cannot connect to ${spec.label}: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
  const db: AnyKysely = new Kysely({ dialect: new MysqlDialect({ pool }) });
  return kyselySource(db, 'mysql', spec.label, spec.database);
}
