import type { Kysely } from 'kysely';

/**
 * channels.test_result: the last channel test's outcome as JSON (`{ok, time_ms, message?, reason?}`:
 * whether it passed, how long it took, and on failure new-api's Chinese words and their registry
 * code and parameters), so the channel list shows a failed test in the row (issue 28). Empty until
 * the channel is tested; test_time and response_time keep new-api's meaning beside it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('channels')
    .addColumn('test_result', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('channels').dropColumn('test_result').execute();
}
