/**
 * A small expiring key-value store: memory in one process, Redis (cache/redis.ts) when several
 * instances must see the same entries. The relay keeps what a client cannot echo back between
 * turns here (reasoning signatures keyed by tool-call id: relay/canonical/carry.ts).
 */
export interface KeyValueStore {
  get(key: string): Promise<string | undefined>;
  /** Stores the value for ttlMs; a write that fails is lost, never thrown (callers do not wait for it). */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Live entries whose key starts with the prefix (admin screens; walks the store, never on the hot path). */
  countPrefix?(prefix: string): Promise<number>;
  /** Deletes the entries whose key starts with the prefix; how many went. */
  deletePrefix?(prefix: string): Promise<number>;
}

/** Memory store: insertion-ordered Map, oldest entries evicted past maxKeys, expiry checked on read. */
export function createMemoryKv(opts: { maxKeys?: number; now?: () => number } = {}): KeyValueStore {
  const maxKeys = opts.maxKeys ?? 50_000;
  const now = opts.now ?? Date.now;
  const entries = new Map<string, { value: string; expires: number }>();
  return {
    async get(key) {
      const e = entries.get(key);
      if (!e) return undefined;
      if (e.expires <= now()) {
        entries.delete(key);
        return undefined;
      }
      return e.value;
    },
    async set(key, value, ttlMs) {
      entries.delete(key);
      entries.set(key, { value, expires: now() + ttlMs });
      while (entries.size > maxKeys) entries.delete(entries.keys().next().value as string);
    },
    async countPrefix(prefix) {
      const t = now();
      let n = 0;
      for (const [k, e] of entries) if (k.startsWith(prefix) && e.expires > t) n++;
      return n;
    },
    async deletePrefix(prefix) {
      const t = now();
      let n = 0;
      for (const [k, e] of entries)
        if (k.startsWith(prefix)) {
          entries.delete(k);
          if (e.expires > t) n++;
        }
      return n;
    },
  };
}
