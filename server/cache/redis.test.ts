import { afterAll, describe, expect, it } from 'vitest';
import { createRedisBus, createRedisRateLimitStore } from './redis.ts';

const url = process.env.TEST_REDIS_URL;

/** Runs when CI (or a developer) provides a Redis server: TEST_REDIS_URL=redis://127.0.0.1:6379. */
describe.runIf(url)('Redis shared state between instances', () => {
  const closers: (() => unknown)[] = [];
  afterAll(async () => {
    for (const c of closers) await c();
  });

  it('delivers a change published on one instance to the other, not back to itself twice', async () => {
    const a = createRedisBus(url!);
    const b = createRedisBus(url!);
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    await new Promise((r) => setTimeout(r, 200)); // let both subscriptions settle
    const seenA: (string | undefined)[] = [];
    const seenB: (string | undefined)[] = [];
    a.subscribe('channels', (p) => seenA.push(p));
    b.subscribe('channels', (p) => seenB.push(p));
    a.publish('channels', '42');
    await new Promise((r) => setTimeout(r, 300));
    expect(seenA).toEqual(['42']);
    expect(seenB).toEqual(['42']);
  });

  it('shares one limit between two stores', async () => {
    const a = createRedisRateLimitStore(url!);
    const b = createRedisRateLimitStore(url!);
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    const key = `test-${Date.now()}-${Math.random()}`;
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).take(key, 6, 60_000)));
    expect(results.filter((r) => r.allowed)).toHaveLength(6);
    expect(await a.peek(key, 60_000)).toBe(6);
  });
});
