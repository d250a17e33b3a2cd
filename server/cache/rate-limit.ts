/**
 * Rate-limit counters behind one small interface: memory here, Redis when
 * several instances share limits (scale-out work). Windows are sliding,
 * approximated by two fixed windows weighted by overlap (the usual
 * "sliding window counter"), so memory per key is constant.
 */
export interface RateLimitStore {
  /** Counts one hit if the key is under `limit` in the last `windowMs`; tells whether it was allowed. */
  take(key: string, limit: number, windowMs: number): Promise<RateDecision>;
  /** Current estimated count without adding. */
  peek(key: string, windowMs: number): Promise<number>;
  /** Adds one hit unconditionally (e.g. a success counted after the fact). */
  add(key: string, windowMs: number): Promise<void>;
}

export interface RateDecision {
  allowed: boolean;
  /** Milliseconds until one more hit would be allowed (0 when allowed). */
  retryAfterMs: number;
}

interface Counter {
  windowMs: number;
  start: number;
  current: number;
  previous: number;
}

export function createMemoryRateLimitStore(opts: { maxKeys?: number; now?: () => number } = {}): RateLimitStore {
  const maxKeys = opts.maxKeys ?? 100_000;
  const now = opts.now ?? Date.now;
  const counters = new Map<string, Counter>();

  function roll(key: string, windowMs: number): Counter {
    const t = now();
    let c = counters.get(key);
    if (!c || c.windowMs !== windowMs) {
      c = { windowMs, start: t - (t % windowMs), current: 0, previous: 0 };
      if (counters.size >= maxKeys) evict();
      counters.set(key, c);
      return c;
    }
    const elapsedWindows = Math.floor((t - c.start) / windowMs);
    if (elapsedWindows >= 1) {
      c.previous = elapsedWindows === 1 ? c.current : 0;
      c.current = 0;
      c.start += elapsedWindows * windowMs;
    }
    return c;
  }

  function estimate(c: Counter): number {
    const overlap = 1 - (now() - c.start) / c.windowMs;
    return c.previous * Math.max(0, overlap) + c.current;
  }

  // Bounded memory: drop expired counters first, then the oldest inserted.
  function evict() {
    const t = now();
    for (const [k, c] of counters) if (t - c.start >= 2 * c.windowMs) counters.delete(k);
    if (counters.size >= maxKeys) {
      const drop = Math.ceil(maxKeys / 10);
      let i = 0;
      for (const k of counters.keys()) {
        if (i++ >= drop) break;
        counters.delete(k);
      }
    }
  }

  return {
    async take(key, limit, windowMs) {
      const c = roll(key, windowMs);
      if (estimate(c) + 1 > limit) {
        const retryAfterMs = Math.max(1, c.start + windowMs - now());
        return { allowed: false, retryAfterMs };
      }
      c.current += 1;
      return { allowed: true, retryAfterMs: 0 };
    },
    async peek(key, windowMs) {
      return estimate(roll(key, windowMs));
    },
    async add(key, windowMs) {
      roll(key, windowMs).current += 1;
    },
  };
}
