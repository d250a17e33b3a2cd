import type { Kysely } from 'kysely';

/**
 * Midjourney drawings join the one task lifecycle (issue 40): like `tasks` (2026-11-29T0000-task-leases),
 * `lease_until` is an instance's poll claim (a conditional UPDATE moves it into the future, so two
 * instances never ask the upstream about one drawing at once) and `next_poll_at` the backoff. Both unix
 * seconds (the row's own times stay milliseconds, as the Midjourney-proxy protocol has them); 0 = free /
 * due now, so drawings submitted before are picked up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('midjourneys')
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('midjourneys')
    .addColumn('next_poll_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('midjourneys_next_poll_idx')
    .on('midjourneys')
    .columns(['status', 'next_poll_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('midjourneys_next_poll_idx').ifExists().execute();
  await db.schema.alterTable('midjourneys').dropColumn('next_poll_at').execute();
  await db.schema.alterTable('midjourneys').dropColumn('lease_until').execute();
}
