import type { Kysely } from 'kysely';

/**
 * One row per background job (channel tests, balance refresh, log retention).
 * With several instances on one database the row is the lease: an instance runs
 * the job only after a conditional UPDATE made it the holder, so each run
 * happens once per interval across the deployment. Times are unix seconds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('locked_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_started_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_leases').ifExists().execute();
}
