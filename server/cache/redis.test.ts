import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createRedisBus, createRedisRateLimitStore } from './redis.ts';
import { needsRedis } from '../../test/skips/needs.ts';

const url = process.env.TEST_REDIS_URL;

/** Runs when CI (or a developer) provides a Redis server: TEST_REDIS_URL=redis://127.0.0.1:6379. */
describe.runIf(url)(needsRedis.name('Redis shared state between instances'), () => {
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

  describe('two deployments on one Redis (REDIS_KEY_PREFIX)', () => {
    // A fresh pair of prefixes per run, so leftovers of an earlier run never count.
    const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const blue = `blue-${run}:`;
    const green = `green-${run}:`;

    it('keeps rate-limit counts apart', async () => {
      const a = createRedisRateLimitStore(url!, blue);
      const b = createRedisRateLimitStore(url!, green);
      closers.push(
        () => a.close(),
        () => b.close(),
      );
      // Same client key (one IP) on both deployments: blue spends its whole limit...
      for (let i = 0; i < 3; i++) expect((await a.take('ip:10.0.0.1', 3, 60_000)).allowed).toBe(true);
      expect((await a.take('ip:10.0.0.1', 3, 60_000)).allowed).toBe(false);
      // ...and green has not seen a single request.
      expect(await b.peek('ip:10.0.0.1', 60_000)).toBe(0);
      expect((await b.take('ip:10.0.0.1', 3, 60_000)).allowed).toBe(true);
    });

    it('stores every counter under the prefix', async () => {
      const store = createRedisRateLimitStore(url!, blue);
      const raw = new Redis(url!);
      closers.push(
        () => store.close(),
        () => raw.disconnect(),
      );
      await store.add(`ip:${run}`, 60_000);
      const keys = await raw.keys(`*ip:${run}*`);
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.every((k) => k.startsWith(blue))).toBe(true);
    });

    it('keeps cache invalidations apart', async () => {
      const blueA = createRedisBus(url!, blue);
      const blueB = createRedisBus(url!, blue);
      const greenA = createRedisBus(url!, green);
      closers.push(
        () => blueA.close(),
        () => blueB.close(),
        () => greenA.close(),
      );
      await new Promise((r) => setTimeout(r, 200)); // let the subscriptions settle
      const seenBlue: (string | undefined)[] = [];
      const seenGreen: (string | undefined)[] = [];
      blueB.subscribe('channels', (p) => seenBlue.push(p));
      greenA.subscribe('channels', (p) => seenGreen.push(p));
      blueA.publish('channels', '7');
      await new Promise((r) => setTimeout(r, 300));
      expect(seenBlue).toEqual(['7']);
      expect(seenGreen).toEqual([]);
    });
  });
});
