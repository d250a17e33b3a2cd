import type { Kysely } from 'kysely';

/**
 * Video jobs are polled by every instance on one database (issue 40): `lease_until` is the claim (an
 * instance polls a row only after a conditional UPDATE moved it into the future, so two instances
 * never poll the same job at once) and `next_poll_at` the backoff (a few seconds for a new job, up to a
 * minute for a long one). Both unix seconds; 0 = free / due now, so the rows of before are picked up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tasks')
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('tasks')
    .addColumn('next_poll_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('tasks_next_poll_idx').on('tasks').columns(['status', 'next_poll_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('tasks_next_poll_idx').ifExists().execute();
  await db.schema.alterTable('tasks').dropColumn('next_poll_at').execute();
  await db.schema.alterTable('tasks').dropColumn('lease_until').execute();
}
