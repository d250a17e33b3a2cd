import type { Kysely } from 'kysely';

/**
 * How each channel's latest relayed calls went (issue 45): the channel list shows the later of its last
 * test and its latest call, so a channel whose one test failed but that serves calls is not shown as
 * failing. One row per channel, written in batches by the relay (channel-calls.service.ts), never per
 * request; several instances merge by keeping the later time. Times are unix seconds, 0 = never.
 * `failure` is the latest failed call's reason as JSON ({status, message, zh?}).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('channel_calls')
    .addColumn('channel_id', 'integer', (c) => c.primaryKey())
    .addColumn('ok_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('failure', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('channel_calls').ifExists().execute();
}
