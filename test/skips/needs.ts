/**
 * Suites that need something `npm test` does not start (a Redis server, a PostgreSQL database, a
 * system package). Their names end with "[needs …]", which the end-of-run summary
 * (test/skips/summary-reporter.ts) reads to say loudly what was skipped and what would run it.
 */
export interface Need {
  /** True when what the suite needs is there. */
  ok: boolean;
  /** The suite's title with its need appended, the same whether it runs or not. */
  name(title: string): string;
}

export const NEEDS_TAG = /\[needs ([^\]]+)\]/;

export function needs(what: string, ok: boolean): Need {
  return { ok, name: (title) => `${title} [needs ${what}]` };
}

const redisUrl = process.env.TEST_REDIS_URL ?? '';
const sqlDsn = process.env.TEST_SQL_DSN ?? '';

/** A Redis server: TEST_REDIS_URL=redis://127.0.0.1:6379. */
export const needsRedis = needs('TEST_REDIS_URL=redis://…', redisUrl !== '');

/** PostgreSQL and Redis together (several instances on one database). */
export const needsPostgresAndRedis = needs(
  'TEST_SQL_DSN=postgres://… and TEST_REDIS_URL=redis://…',
  /^postgres(ql)?:\/\//.test(sqlDsn) && redisUrl !== '',
);
