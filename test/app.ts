import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pgLib from 'pg';
import type { DestinationStream } from 'pino';
import { buildApp } from '../server/app.ts';
import { createMemoryBus } from '../server/cache/bus.ts';
import { createMemoryRateLimitStore } from '../server/cache/rate-limit.ts';
import { createMemoryKv } from '../server/cache/kv.ts';
import { createRedisBus, createRedisKv, createRedisRateLimitStore } from '../server/cache/redis.ts';
import { createMetrics } from '../server/ops/metrics.ts';
import { type Config, loadConfig } from '../server/config.ts';
import type { AppDeps } from '../server/context.ts';
import { migrateToLatest, openDatabase } from '../server/db/index.ts';
import { createLogger } from '../server/logger.ts';
import { createServices } from '../server/services.ts';

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A whole gateway on a fresh SQLite file in a temp folder, real migrations, no
 * listening socket (use app.inject, or app.listen({port: 0}) for real HTTP).
 * Set TEST_SQL_DSN=postgres://... to run the same suite on PostgreSQL.
 */
export interface TestAppOptions {
  /**
   * Use this folder (and its SQLite file) instead of a fresh temp folder; it is kept on close. On PostgreSQL it
   * does not keep the database (each app gets a fresh schema): restart an install with createKeptDatabase().
   */
  dataDir?: string;
  /** Use this database URL as is (e.g. a PostgreSQL schema shared by two instances); never dropped on close. */
  sqlDsn?: string;
  /** Share cache invalidation and rate limits through this Redis (as production does with REDIS_URL). */
  redisUrl?: string;
  /** Write the server log (level info) here, e.g. to assert what an operator would read. */
  logTo?: DestinationStream;
}

export async function createTestApp(overrides: Partial<Config> = {}, opts: TestAppOptions = {}): Promise<TestApp> {
  // A second app on the same folder would find a fresh schema on PostgreSQL, not the first app's rows: a restart
  // test would then pass or fail on SQLite alone (seen in CI). createKeptDatabase() keeps either database.
  if (opts.dataDir !== undefined && opts.sqlDsn === undefined && process.env.TEST_SQL_DSN)
    throw new Error('createTestApp: with TEST_SQL_DSN, dataDir alone keeps no database; use createKeptDatabase()');
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'switchyard-test-'));
  const pg =
    opts.sqlDsn === undefined && process.env.TEST_SQL_DSN ? await createPgSchema(process.env.TEST_SQL_DSN) : undefined;
  const config: Config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      SESSION_SECRET: 'test-session-secret-0123456789',
      LOG_LEVEL: 'silent',
      SQL_DSN: opts.sqlDsn ?? pg?.url,
    }),
    clientDist: path.join(dataDir, 'no-client'),
    // Tests send many requests from one address; the per-IP limits have their own test.
    ipRateLimits: { api: { count: 0, windowSeconds: 60 }, relay: { count: 0, windowSeconds: 60 } },
    ...overrides,
  };
  const handle = openDatabase(config);
  const adminDsn = process.env.TEST_SQL_DSN;
  if (adminDsn && handle.type === 'postgres')
    await withSchemaLock(adminDsn, 'shared', () => migrateToLatest(handle.db));
  else await migrateToLatest(handle.db);
  const redisLimits = opts.redisUrl ? createRedisRateLimitStore(opts.redisUrl, config.redisKeyPrefix) : undefined;
  const redisKv = opts.redisUrl ? createRedisKv(opts.redisUrl, config.redisKeyPrefix) : undefined;
  const infra = {
    config,
    db: handle.db,
    dbType: handle.type,
    bus: opts.redisUrl ? createRedisBus(opts.redisUrl, config.redisKeyPrefix) : createMemoryBus(),
    rateLimits: redisLimits ?? createMemoryRateLimitStore(),
    kv: redisKv ?? createMemoryKv(),
    metrics: createMetrics(),
    // TEST_LOG_LEVEL=error shows the server's own errors while debugging a test.
    log: opts.logTo
      ? createLogger('info', opts.logTo)
      : createLogger((process.env.TEST_LOG_LEVEL as 'silent' | undefined) ?? 'silent'),
  };
  const services = await createServices(infra);
  const deps: AppDeps = { ...infra, services };
  const app = await buildApp(deps);
  await app.ready();
  return {
    app,
    deps,
    dataDir,
    async close() {
      await app.close();
      if (opts.redisUrl) await infra.bus.close();
      redisLimits?.close();
      redisKv?.close();
      await handle.close();
      await pg?.drop();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One install's database kept across restarts (close an app, start another on it) on either dialect: the SQLite
 * file of a temp folder, or with TEST_SQL_DSN one PostgreSQL schema. Give `opts` to each createTestApp of the
 * install; `remove()` deletes the folder and the schema once its last app is closed.
 */
export async function createKeptDatabase(): Promise<{ opts: TestAppOptions; remove(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-kept-'));
  const pg = process.env.TEST_SQL_DSN ? await createPgSchema(process.env.TEST_SQL_DSN) : undefined;
  return {
    opts: { dataDir, sqlDsn: pg?.url },
    async remove() {
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Each test app on PostgreSQL gets its own schema, so test files can run in parallel. */
export async function createPgSchema(dsn: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pgLib.Client({ connectionString: dsn });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(dsn);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: async () => {
      await withSchemaLock(dsn, 'exclusive', (c) => c.query(`DROP SCHEMA ${schema} CASCADE`));
    },
  };
}

/** Any number of migrations at once, or one schema drop (the key is arbitrary, the same in every worker). */
const SCHEMA_LOCK_KEY = 7_031_994;

/*
 * Kysely's migrator looks for its bookkeeping table by introspecting every table of the database, and
 * PostgreSQL resolves each table's schema by name as it goes (pg_get_serial_sequence): a schema another
 * test file drops at that moment can fail the migration with "schema t_... does not exist" (seen in CI). So
 * migrations hold this advisory lock shared and drops hold it alone; a drop waits for running migrations
 * and a migration for a running drop.
 */
async function withSchemaLock<T>(
  dsn: string,
  mode: 'shared' | 'exclusive',
  fn: (client: pgLib.Client) => Promise<T>,
): Promise<T> {
  const c = new pgLib.Client({ connectionString: dsn });
  await c.connect();
  const suffix = mode === 'shared' ? '_shared' : '';
  try {
    await c.query(`SELECT pg_advisory_lock${suffix}($1)`, [SCHEMA_LOCK_KEY]);
    return await fn(c);
  } finally {
    await c.query(`SELECT pg_advisory_unlock${suffix}($1)`, [SCHEMA_LOCK_KEY]).catch(() => undefined);
    await c.end();
  }
}
