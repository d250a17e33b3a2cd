/**
 * What CI's PostgreSQL pass runs (the `postgres` project of vitest.config.ts, defined when TEST_SQL_DSN is set):
 * the suites whose outcome the SQL dialect can change. Everything else already ran once on SQLite, and running it
 * again on PostgreSQL would test the same code with the same answers (issue 43: the second whole pass took ~12 of
 * CI's minutes). A new test file that reads or writes through SQL in a way the dialect could change (a new query,
 * a conditional update, a uniqueness or an ordering, a search, numbers read back from the driver) is added here.
 *
 * Left out, each because its outcome does not depend on the dialect:
 * - server/relay/providers/**, server/relay/front-doors/**, server/relay/count-tokens, test/conformance/**:
 *   conversions between wire formats; the billing and logging they end in is the relay's, run below.
 * - client/**, the i18n project, scripts/**, shared/**, test/lint/**, test/skips/**: no database.
 * - server/compat, server/plugins, server/trpc, server/net-failure, server/demo, server/cache: error wording,
 *   headers, per-IP limits (memory or Redis), network failures; the demo channel's billing is the relay's.
 * - test/security/permissions and web: the role matrix and the cookie/CSRF rules are checked in the services and
 *   the HTTP layer before any query; test/security/fuzz stays (PostgreSQL refuses NUL bytes and out-of-range
 *   integers that SQLite stores).
 * - test/console-2026 settings, passkeys, twofa, not-available, route-coverage: option keys, ceremonies and
 *   routes; their rows are the options/passkeys/twofa domains', run below with server/domains/**.
 * - server/relay/tests: the files that only check the HTTP side (CORS, guards, image token counts, model lists,
 *   in-memory pins, the plugin's hooks) and never a charge, a log row or a channel's status.
 */
export const POSTGRES_SUITES = [
  // Repositories, migrations and the services built on them.
  'server/db/**/*.test.ts',
  'migrations/**/*.test.ts',
  'server/domains/**/*.test.ts',
  'server/ops/health.test.ts',
  'server/ops/jobs/**/*.test.ts',
  // The relay's charges (conditional quota updates), log rows, channel status changes and task rows.
  'server/relay/tests/multi-key-health.test.ts',
  'server/relay/tests/provider-error-rules.test.ts',
  'server/relay/tests/relay-auth.test.ts',
  'server/relay/tests/relay-billing.test.ts',
  'server/relay/tests/relay-concurrency.test.ts',
  'server/relay/tests/relay-error-logs.test.ts',
  'server/relay/tests/relay-failover.test.ts',
  'server/relay/tests/relay-logs.test.ts',
  'server/relay/tests/relay-retry.test.ts',
  'server/relay/tests/relay-status-codes.test.ts',
  'server/relay/tests/relay-stream.test.ts',
  'server/relay/tests/relay-virtual-model.test.ts',
  'server/relay/tests/routing-cache.test.ts',
  'server/relay/tests/session-affinity-redis.test.ts',
  'server/relay/tasks/tests/*.test.ts',
  // Video jobs (issue 40): the lease claims, the settle-once conditional updates, the task rows of the core.
  'server/relay/tasks/video/tests/lifecycle.test.ts',
  'server/relay/tasks/video/tests/instances.test.ts',
  // Several instances on one database, crashes and shutdowns mid-settlement, Redis.
  'test/reliability/**/*.test.ts',
  // Every route with hostile input: PostgreSQL refuses what SQLite stores.
  'test/security/fuzz.test.ts',
  // Go's decoder on every legacy answer (the pg driver reads bigints as strings), and the legacy flows' queries.
  'test/legacy-console/**/*.test.ts',
  // The 2026 console's lists: paging, keyword search (LIKE's case differs), uniqueness, sums, check-in per day.
  'test/console-2026/lists.test.ts',
  'test/console-2026/models.test.ts',
  'test/console-2026/subscriptions.test.ts',
  'test/console-2026/wallet-dashboard.test.ts',
];
