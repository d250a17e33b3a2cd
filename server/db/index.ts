import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, sql, type SqliteDatabase, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrations } from '../../migrations/index.ts';
import type { Config } from '../config.ts';
import type { Database } from './types.ts';

export type DatabaseType = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Kysely<Database>;
  type: DatabaseType;
  /** Frees what the connection caches in native memory (SQLite's page cache); it refills on demand. */
  releaseMemory(): void;
  close(): Promise<void>;
}

/** Opens the configured database. SQLite gets WAL and a busy timeout so readers never block the relay. */
export function openDatabase(config: Pick<Config, 'database'>): DbHandle {
  if (config.database.dialect === 'postgres') {
    const url = config.database.url;
    // The driver loads on first use, so a SQLite install never holds it in memory.
    const pool = async () => {
      const { default: pg } = await import('pg');
      // int8 (bigint) and numeric come back as strings by default; quotas fit in a JS number.
      pg.types.setTypeParser(20, (v) => Number(v));
      pg.types.setTypeParser(1700, (v) => Number(v));
      return new pg.Pool({ connectionString: url, max: 20 });
    };
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, type: 'postgres', releaseMemory: () => {}, close: () => db.destroy() };
  }
  const sqlite = new SQLite(config.database.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return {
    db,
    type: 'sqlite',
    // better-sqlite3 builds SQLite with a 16 MB page cache, which a busy spell fills and keeps.
    releaseMemory: () => void sqlite.pragma('shrink_memory'),
    close: () => db.destroy(),
  };
}

/** The migrator over our static migration list (tests use it to stop at an older version). */
export async function createMigrator(db: Kysely<Database>): Promise<Migrator> {
  // On PostgreSQL keep Kysely's bookkeeping tables in the schema the connection uses (search_path).
  const schema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
      : undefined;
  return new Migrator({
    db,
    migrationTableSchema: schema,
    provider: { getMigrations: async () => migrations },
  });
}

/** Applies pending migrations; a second run is a no-op. Throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = await createMigrator(db);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}

/**
 * better-sqlite3 compiles a statement on every prepare(); the relay runs the same
 * few statements (reserve, settle, log batch) thousands of times, so keep them.
 * Statements run synchronously, so sharing one between callers is safe.
 */
function withStatementCache(sqlite: SQLite.Database, max = 500): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = sqlite.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
        cache.set(sql, stmt);
      }
      return stmt;
    },
    close: () => sqlite.close(),
  };
}
