import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pgLib from 'pg';
import { buildApp } from '../server/app.ts';
import { createMemoryBus } from '../server/cache/bus.ts';
import { createMemoryRateLimitStore } from '../server/cache/rate-limit.ts';
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
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-test-'));
  const pg = process.env.TEST_SQL_DSN ? await createPgSchema(process.env.TEST_SQL_DSN) : undefined;
  const config: Config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      SESSION_SECRET: 'test-session-secret-0123456789',
      LOG_LEVEL: 'silent',
      SQL_DSN: pg?.url,
    }),
    clientDist: path.join(dataDir, 'no-client'),
    ...overrides,
  };
  const handle = openDatabase(config);
  await migrateToLatest(handle.db);
  const infra = {
    config,
    db: handle.db,
    dbType: handle.type,
    bus: createMemoryBus(),
    rateLimits: createMemoryRateLimitStore(),
    metrics: createMetrics(),
    log: createLogger('silent'),
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
      await handle.close();
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Each test app on PostgreSQL gets its own schema, so test files can run in parallel. */
async function createPgSchema(dsn: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pgLib.Client({ connectionString: dsn });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(dsn);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const c = new pgLib.Client({ connectionString: dsn });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}
