import pgLib from 'pg';
import { needs } from '../skips/needs.ts';
import type { Executor } from './load.ts';

/*
 * The database servers a fixture is loaded into. Each fixture gets a database of its own on the server (as an
 * operator's new-api has), dropped on close, so test files run in parallel. The servers are found as the suite
 * finds PostgreSQL: by URL in the environment (.ci/run starts both and sets them); a test that needs one skips
 * loudly without it.
 */

/** MariaDB or MySQL, a user allowed to create databases: TEST_MYSQL_DSN=mysql://user:pass@127.0.0.1:3306/db. */
export const mariaDbDsn = process.env.TEST_MYSQL_DSN ?? '';
/** PostgreSQL for new-api's source databases: TEST_PG_DSN, or the suite's TEST_SQL_DSN when it is PostgreSQL. */
export const postgresDsn =
  process.env.TEST_PG_DSN ??
  (/^postgres(ql)?:\/\//.test(process.env.TEST_SQL_DSN ?? '') ? process.env.TEST_SQL_DSN! : '');

export const needsMariaDb = needs('TEST_MYSQL_DSN=mysql://… (MariaDB)', /^mysql:\/\//.test(mariaDbDsn));
export const needsPostgresSource = needs('TEST_PG_DSN=postgres://…', postgresDsn !== '');

export const freshDatabaseName = () => `newapi_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;

/** The URL of another database on the same server. */
export function withDatabase(dsn: string, database: string): string {
  const url = new URL(dsn);
  url.pathname = `/${database}`;
  url.search = '';
  return url.toString();
}

export interface ServerFixture {
  spec: string;
  db: Executor;
  end(): Promise<void>;
  drop(): Promise<void>;
}

/** A fresh PostgreSQL database with one connection to it. */
export async function createPostgresDatabase(): Promise<ServerFixture> {
  if (!postgresDsn) throw new Error('newApiDatabase: PostgreSQL needs TEST_PG_DSN (or TEST_SQL_DSN) set');
  const name = freshDatabaseName();
  const admin = new pgLib.Client({ connectionString: postgresDsn });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const spec = withDatabase(postgresDsn, name);
  const client = new pgLib.Client({ connectionString: spec });
  await client.connect();
  const db: Executor = {
    run: async (sql, params) => void (await client.query(sql, params)),
    transaction: async (fn) => {
      await client.query('BEGIN');
      try {
        await fn();
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK');
        throw e;
      }
    },
  };
  return {
    spec,
    db,
    end: () => client.end(),
    drop: async () => {
      const dropper = new pgLib.Client({ connectionString: postgresDsn });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
