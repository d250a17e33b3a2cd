import mysql from 'mysql2/promise';
import type { Executor } from './load.ts';
import { freshDatabaseName, mariaDbDsn, withDatabase, type ServerFixture } from './servers.ts';

/* A fresh MariaDB (or MySQL) database with one connection to it, as new-api's GORM MySQL driver sees it. */

/** Times are written as UTC wall clock, as new-api running with TZ=UTC writes them. */
const connect = (uri: string) => mysql.createConnection({ uri, timezone: 'Z', charset: 'utf8mb4' });

export async function createMariaDbDatabase(): Promise<ServerFixture> {
  if (!mariaDbDsn) throw new Error('newApiDatabase: MariaDB needs TEST_MYSQL_DSN set (.ci/run starts one)');
  const name = freshDatabaseName();
  const admin = await connect(mariaDbDsn);
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`);
  await admin.end();
  const spec = withDatabase(mariaDbDsn, name);
  const conn = await connect(spec);
  const db: Executor = {
    run: async (sql, params) => void (await conn.query(sql, params)),
    transaction: async (fn) => {
      await conn.beginTransaction();
      try {
        await fn();
        await conn.commit();
      } catch (e) {
        await conn.rollback();
        throw e;
      }
    },
  };
  return {
    spec,
    db,
    end: () => conn.end(),
    drop: async () => {
      const dropper = await connect(mariaDbDsn);
      await dropper.query(`DROP DATABASE IF EXISTS ${name}`);
      await dropper.end();
    },
  };
}

/** A plain reader for tests that check what a fixture holds (rows as mysql2 hands them back). */
export async function mariaDbQuery(spec: string) {
  const conn = await connect(spec);
  return {
    all: async (sql: string) => (await conn.query(sql))[0] as Record<string, unknown>[],
    end: () => conn.end(),
  };
}
