import SQLite from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FixtureDialect } from './gorm-ddl.ts';
import { loadFixture, type Executor } from './load.ts';
import type { FixtureKind, Row } from './seed-rows.ts';
import { createPostgresDatabase, type ServerFixture } from './servers.ts';

/*
 * A new-api (2026 or April 2025) or one-api database, loaded with the rows the running gateway would hold, on
 * SQLite, MariaDB or PostgreSQL, for the importer's tests. `spec` is what an operator gives the import command.
 */

export { NEWAPI_FACTS } from './seed-rows.ts';
export type { FixtureKind, Row } from './seed-rows.ts';
export type { FixtureDialect } from './gorm-ddl.ts';
export { tablesOf } from './load.ts';
export { logRow } from './seed-rows-more.ts';
export { needsMariaDb, needsPostgresSource } from './servers.ts';

export interface NewApiDatabaseOptions {
  kind: FixtureKind;
  dialect: FixtureDialect;
  rows?: {
    /** How many log rows (default 5), written in batches of 1,000: a million is fine. */
    logs?: number;
    /** Rows to write instead of the standard ones of these tables (id included). */
    tables?: Record<string, Row[]>;
    /** Tables ('two_fas') or columns ('channels.key') left out: a damaged or unknown shape the importer refuses. */
    without?: string[];
  };
}

export interface NewApiDatabase {
  kind: FixtureKind;
  dialect: FixtureDialect;
  /** A SQLite file's path, or a mysql:// or postgres:// URL of the fixture's own database. */
  spec: string;
  /** new-api's own SQL_DSN for the same database (MariaDB: user:pass@tcp(host:port)/db?parseTime=true). */
  sqlDsn: string;
  /** Rows written per table. */
  counts: Record<string, number>;
  close(): Promise<void>;
}

function sqliteExecutor(db: SQLite.Database): Executor {
  return {
    run: async (sql, params) => void db.prepare(sql).run(...params),
    transaction: async (fn) => {
      db.exec('BEGIN');
      try {
        await fn();
        db.exec('COMMIT');
      } catch (e) {
        db.exec('ROLLBACK');
        throw e;
      }
    },
  };
}

async function serverFixture(dialect: Exclude<FixtureDialect, 'sqlite'>): Promise<ServerFixture> {
  if (dialect === 'postgres') return createPostgresDatabase();
  const { createMariaDbDatabase } = await import('./mariadb.ts');
  return createMariaDbDatabase();
}

export async function newApiDatabase(opts: NewApiDatabaseOptions): Promise<NewApiDatabase> {
  const load = (db: Executor) =>
    loadFixture(db, opts.dialect, opts.kind, {
      logs: opts.rows?.logs,
      seed: opts.rows?.tables,
      without: opts.rows?.without,
    });
  if (opts.dialect === 'sqlite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'newapi-db-'));
    const file = path.join(dir, `${opts.kind}.db`);
    const db = new SQLite(file);
    try {
      const counts = await load(sqliteExecutor(db));
      return {
        kind: opts.kind,
        dialect: opts.dialect,
        spec: file,
        sqlDsn: file,
        counts,
        close: async () => rmSync(dir, { recursive: true, force: true }),
      };
    } finally {
      db.close();
    }
  }
  const server = await serverFixture(opts.dialect);
  try {
    const counts = await load(server.db);
    await server.end();
    return {
      kind: opts.kind,
      dialect: opts.dialect,
      spec: server.spec,
      sqlDsn: goDsn(server.spec),
      counts,
      close: () => server.drop(),
    };
  } catch (e) {
    await server.end().catch(() => {});
    await server.drop();
    throw e;
  }
}

/** new-api's SQL_DSN: go-sql-driver's form for MySQL (user:pass@tcp(host:port)/db?parseTime=true), the URL for PostgreSQL. */
export function goDsn(spec: string): string {
  if (!spec.startsWith('mysql://')) return spec;
  const u = new URL(spec);
  return `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}@tcp(${u.hostname}:${u.port || 3306})${u.pathname}?parseTime=true`;
}
