import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { ChangeBus } from './cache/bus.ts';
import type { KeyValueStore } from './cache/kv.ts';
import type { RateLimitStore } from './cache/rate-limit.ts';
import type { Config } from './config.ts';
import type { DatabaseType } from './db/index.ts';
import type { Database } from './db/types.ts';
import type { Metrics } from './ops/metrics.ts';
import type { Services } from './services.ts';

/** The things every layer below the transport is built from; created once in main.ts (or by tests). */
export interface Infra {
  config: Config;
  db: Kysely<Database>;
  dbType: DatabaseType;
  bus: ChangeBus;
  /** Shared rate-limit counters (memory, or Redis with several instances). */
  rateLimits: RateLimitStore;
  /** Short-lived shared entries (memory, or Redis with several instances): the relay's turn carry-over. */
  kv: KeyValueStore;
  metrics: Metrics;
  log: Logger;
}

export interface AppDeps extends Infra {
  services: Services;
}

/** The signed-in user as the transports see it; role and status are re-read on every request. */
export interface AuthUser {
  id: number;
  username: string;
  role: number;
  status: number;
  group: string;
}
