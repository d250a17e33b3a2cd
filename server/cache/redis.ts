import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { ChangeBus, Topic } from './bus.ts';
import { createMemoryBus } from './bus.ts';
import type { KeyValueStore } from './kv.ts';
import type { RateDecision, RateLimitStore } from './rate-limit.ts';

/*
 * Redis-backed shared state for several gateway instances: change notifications
 * over pub/sub (each instance drops or reloads its caches) and rate-limit
 * counters every instance sees.
 *
 * Every key and pub/sub channel starts with the deployment's prefix
 * (REDIS_KEY_PREFIX), so two deployments sharing one Redis neither count each
 * other's requests nor drop each other's caches.
 */

export const DEFAULT_REDIS_KEY_PREFIX = 'switchyard:';

/** The pub/sub channel carrying change notifications for one deployment. */
export const changesChannel = (prefix: string) => `${prefix}changes`;

/** Local listeners fire at once; other instances hear it through Redis within milliseconds. */
export function createRedisBus(url: string, prefix = DEFAULT_REDIS_KEY_PREFIX): ChangeBus {
  const instance = randomUUID();
  const local = createMemoryBus();
  const channel = changesChannel(prefix);
  const pub = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
  const sub = new Redis(url, { lazyConnect: false });
  void sub.subscribe(channel);
  sub.on('message', (heardOn: string, message: string) => {
    if (heardOn !== channel) return;
    try {
      const m = JSON.parse(message) as { from: string; topic: Topic; payload?: string };
      if (m.from !== instance) local.publish(m.topic, m.payload);
    } catch {
      // A foreign message on our channel is ignored rather than crashing the subscriber.
    }
  });
  return {
    publish(topic, payload) {
      local.publish(topic, payload);
      void pub.publish(channel, JSON.stringify({ from: instance, topic, payload })).catch(() => undefined);
    },
    subscribe: local.subscribe,
    async close() {
      await local.close();
      sub.disconnect();
      pub.disconnect();
    },
  };
}

// Sliding-window counter in one round trip: KEYS[1] current window, KEYS[2] previous window.
// ARGV: limit (or -1 to add unconditionally, -2 to peek), window ms, elapsed fraction of the window.
const script = `
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
local prev = tonumber(redis.call('GET', KEYS[2]) or '0')
local limit = tonumber(ARGV[1])
local est = prev * (1 - tonumber(ARGV[3])) + cur
if limit == -2 then return tostring(est) end
if limit >= 0 and est + 1 > limit then return '-1' end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return tostring(est + 1)
`;

export function createRedisRateLimitStore(
  url: string,
  prefix = DEFAULT_REDIS_KEY_PREFIX,
): RateLimitStore & { close(): void } {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  redis.defineCommand('slidingWindow', { numberOfKeys: 2, lua: script });
  const run = (key: string, limit: number, windowMs: number) => {
    const now = Date.now();
    const start = now - (now % windowMs);
    const base = `${prefix}rl:${key}:${windowMs}`;
    const keys = [`${base}:${start}`, `${base}:${start - windowMs}`];
    const fraction = (now - start) / windowMs;
    return (redis as unknown as { slidingWindow(...args: (string | number)[]): Promise<string> })
      .slidingWindow(keys[0], keys[1], limit, windowMs, fraction)
      .then((v) => ({ value: Number(v), start }));
  };
  return {
    async take(key, limit, windowMs): Promise<RateDecision> {
      const { value, start } = await run(key, limit, windowMs);
      if (value < 0) return { allowed: false, retryAfterMs: Math.max(1, start + windowMs - Date.now()) };
      return { allowed: true, retryAfterMs: 0 };
    },
    async peek(key, windowMs) {
      return (await run(key, -2, windowMs)).value;
    },
    async add(key, windowMs) {
      await run(key, -1, windowMs);
    },
    close() {
      redis.disconnect();
    },
  };
}

/** The expiring key-value store on Redis (keys under the deployment's prefix). */
export function createRedisKv(url: string, prefix = DEFAULT_REDIS_KEY_PREFIX): KeyValueStore & { close(): void } {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  return {
    async get(key) {
      return (await redis.get(`${prefix}kv:${key}`).catch(() => null)) ?? undefined;
    },
    async set(key, value, ttlMs) {
      await redis.set(`${prefix}kv:${key}`, value, 'PX', ttlMs).catch(() => undefined);
    },
    async countPrefix(p) {
      let n = 0;
      for await (const keys of scanKeys(redis, `${prefix}kv:${p}`)) n += keys.length;
      return n;
    },
    async deletePrefix(p) {
      let n = 0;
      for await (const keys of scanKeys(redis, `${prefix}kv:${p}`))
        if (keys.length > 0) n += await redis.unlink(...keys);
      return n;
    },
    close() {
      redis.disconnect();
    },
  };
}

/** The keys under a prefix, a batch at a time (SCAN: never blocks Redis like KEYS would). */
async function* scanKeys(redis: Redis, prefix: string): AsyncGenerator<string[]> {
  const glob = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', glob, 'COUNT', 1000);
    cursor = next;
    yield keys;
  } while (cursor !== '0');
}
