import { createMemoryBus } from './cache/bus.ts';
import { createMemoryRateLimitStore } from './cache/rate-limit.ts';
import { createRedisBus, createRedisRateLimitStore } from './cache/redis.ts';
import { createMetrics } from './ops/metrics.ts';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { migrateToLatest, openDatabase } from './db/index.ts';
import { createLogger } from './logger.ts';
import { createServices } from './services.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  const handle = openDatabase(config);
  await migrateToLatest(handle.db);
  const infra = {
    config,
    db: handle.db,
    dbType: handle.type,
    // With REDIS_URL several instances share cache invalidation and rate limits.
    bus: config.redisUrl ? createRedisBus(config.redisUrl, config.redisKeyPrefix) : createMemoryBus(),
    rateLimits: config.redisUrl
      ? createRedisRateLimitStore(config.redisUrl, config.redisKeyPrefix)
      : createMemoryRateLimitStore(),
    metrics: createMetrics(),
    log,
  };
  const services = await createServices(infra);
  const app = await buildApp({ ...infra, services });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => process.exit(1), 30_000).unref();
    await app.close();
    await infra.bus.close();
    await handle.close();
    clearTimeout(deadline);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  log.info(
    { port: config.port, database: handle.type },
    `Switchyard ${config.version} listening on http://localhost:${config.port}`,
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
