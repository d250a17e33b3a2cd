import { describe, expect, it } from 'vitest';
import { createMemoryRateLimitStore } from './rate-limit.ts';

describe('memory rate-limit store', () => {
  it('allows up to the limit in a window, then refuses with a retry time', async () => {
    let t = 1_000_000;
    const store = createMemoryRateLimitStore({ now: () => t });
    for (let i = 0; i < 3; i++) expect((await store.take('k', 3, 60_000)).allowed).toBe(true);
    const refused = await store.take('k', 3, 60_000);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    t += 2 * 60_000;
    expect((await store.take('k', 3, 60_000)).allowed).toBe(true);
  });

  it('slides: hits of the previous window still count in proportion', async () => {
    let t = 0;
    const store = createMemoryRateLimitStore({ now: () => t });
    for (let i = 0; i < 10; i++) await store.take('k', 10, 1000);
    t = 1500; // half of the previous window still overlaps: about 5 hits remain counted
    expect(await store.peek('k', 1000)).toBeCloseTo(5, 5);
    let allowed = 0;
    for (let i = 0; i < 10; i++) if ((await store.take('k', 10, 1000)).allowed) allowed++;
    expect(allowed).toBe(5);
  });

  it('keeps memory bounded by evicting keys past the cap', async () => {
    const store = createMemoryRateLimitStore({ maxKeys: 100 });
    for (let i = 0; i < 1000; i++) await store.take(`k${i}`, 1, 60_000);
    // the most recent key is still tracked and limited
    expect((await store.take('k999', 1, 60_000)).allowed).toBe(false);
  });
});
