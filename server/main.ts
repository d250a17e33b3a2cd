import './node-version.ts';
import { createMemoryBus } from './cache/bus.ts';
import { createMemoryKv } from './cache/kv.ts';
import { createMemoryRateLimitStore } from './cache/rate-limit.ts';
import { startHeapTrim } from './ops/heap-trim.ts';
import { createMetrics } from './ops/metrics.ts';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { migrateToLatest, openDatabase } from './db/index.ts';
import { createLogger } from './logger.ts';
import { createServices } from './services.ts';

/**
 * With REDIS_URL several instances share cache invalidation and rate limits; without
 * it, memory. The Redis client is loaded only when configured (less memory at home).
 */
async function sharedState(config: Config) {
  if (!config.redisUrl)
    return { bus: createMemoryBus(), rateLimits: createMemoryRateLimitStore(), kv: createMemoryKv() };
  const { createRedisBus, createRedisKv, createRedisRateLimitStore } = await import('./cache/redis.ts');
  return {
    bus: createRedisBus(config.redisUrl, config.redisKeyPrefix),
    rateLimits: createRedisRateLimitStore(config.redisUrl, config.redisKeyPrefix),
    kv: createRedisKv(config.redisUrl, config.redisKeyPrefix),
  };
}

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
    ...(await sharedState(config)),
    metrics: createMetrics(),
    log,
  };
  const services = await createServices(infra);
  const app = await buildApp({ ...infra, services });

  let closing = false;
  /*
   * Graceful stop: app.close() stops accepting connections (requests on kept-alive
   * ones get a 503) and waits for in-flight requests, so running streams end with
   * [DONE] and are billed; then the onClose hooks stop the background jobs and flush
   * settlements and log rows, and the database closes. Streams still open after
   * SHUTDOWN_TIMEOUT_MS are cut: the relay bills what they produced, as when a
   * client hangs up. A flush that hangs after that still cannot keep the process.
   */
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal, timeoutMs: config.shutdownTimeoutMs }, 'shutting down: finishing in-flight requests');
    const cut = setTimeout(() => {
      log.warn('shutdown deadline passed: closing the connections still open');
      app.server.closeAllConnections();
    }, config.shutdownTimeoutMs).unref();
    const hardExit = setTimeout(() => {
      log.error('shutdown did not finish in time: exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 15_000).unref();
    await app.close();
    clearTimeout(cut);
    await infra.bus.close();
    await handle.close();
    clearTimeout(hardExit);
    log.info('shut down');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  log.info(
    { port: config.port, database: handle.type },
    `Switchyard ${config.version} listening on http://localhost:${config.port}`,
  );
  startHeapTrim(
    ({ beforeBytes, afterBytes, ms }) =>
      log.info(
        {
          heapMbBefore: Math.round(beforeBytes / 2 ** 20),
          heapMbAfter: Math.round(afterBytes / 2 ** 20),
          ms: Math.round(ms),
        },
        'quiet: returned the heap a burst left to the OS',
      ),
    handle.releaseMemory,
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
