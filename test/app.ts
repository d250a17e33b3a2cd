import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app.ts';
import { createMemoryBus } from '../server/cache/bus.ts';
import { createMemoryRateLimitStore } from '../server/cache/rate-limit.ts';
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
  const config: Config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      SESSION_SECRET: 'test-session-secret-0123456789',
      LOG_LEVEL: 'silent',
      SQL_DSN: process.env.TEST_SQL_DSN,
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
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
