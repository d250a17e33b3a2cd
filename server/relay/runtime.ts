import type { AppDeps } from '../context.ts';
import { setAzureDefaultApiVersion } from './providers/azure/adapter.ts';
import { createRoutingCache, type RoutingCache } from './routing-cache.ts';
import { createTokenAuth, type TokenAuth } from './token-auth.ts';

/** The relay's in-memory state: caches and the post-response work still running. */
export interface RelayRuntime {
  deps: AppDeps;
  tokenAuth: TokenAuth;
  routing: RoutingCache;
  /** Timeouts; tests shorten them. */
  tuning: { streamIdleMs: number; upstreamHeadersMs: number };
  /** Registers settle/log work that runs after the response was sent. */
  track(work: Promise<unknown>): void;
  /** Waits for tracked work and flushes the log queue (shutdown, tests). */
  drain(): Promise<void>;
  close(): Promise<void>;
}

const runtimes = new WeakMap<AppDeps, RelayRuntime>();

/** The runtime built for these deps by registerRelayRoutes (tests use it to wait for settlements). */
export const relayRuntimeOf = (deps: AppDeps): RelayRuntime | undefined => runtimes.get(deps);

export function createRelayRuntime(deps: AppDeps): RelayRuntime {
  const inflight = new Set<Promise<unknown>>();
  setAzureDefaultApiVersion(deps.config.azureDefaultApiVersion);
  const tokenAuth = createTokenAuth(deps);
  const routing = createRoutingCache(deps);

  async function drain() {
    while (inflight.size > 0) await Promise.allSettled([...inflight]);
    await Promise.all([deps.services.logWriter.flush(), deps.services.channels.calls.flush()]);
  }

  const rt: RelayRuntime = {
    deps,
    tokenAuth,
    routing,
    // A stream silent this long is cut with an error event (relay.md §7).
    // An upstream that sends no headers for this long is a 504 (undici's default; long non-stream answers need it).
    tuning: { streamIdleMs: 120_000, upstreamHeadersMs: 300_000 },
    track(work) {
      const p = work
        .catch((err) => deps.log.error({ err }, 'relay settlement failed'))
        .finally(() => inflight.delete(p));
      inflight.add(p);
    },
    drain,
    async close() {
      await drain();
      await deps.services.logWriter.close();
      await deps.services.channels.calls.close();
      tokenAuth.close();
      routing.close();
    },
  };
  runtimes.set(deps, rt);
  return rt;
}
