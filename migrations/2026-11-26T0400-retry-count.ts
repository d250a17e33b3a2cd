import type { Kysely } from 'kysely';

/**
 * One retry count (issue 28): the relay now tries `RetryTimes` other channels whatever the status rule,
 * and `global.auto_retry_count` became that count's legacy name. A database whose operator had turned on
 * automatic retry with its own count, and never set `RetryTimes`, keeps the count that was in effect.
 * A `RetryTimes` the operator did set is kept as it is; nothing is deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const d = db as unknown as Kysely<{ options: { key: string; value: string } }>;
  const rows = await d
    .selectFrom('options')
    .select(['key', 'value'])
    .where('key', 'in', ['RetryTimes', 'global.auto_retry_enabled', 'global.auto_retry_count'])
    .execute();
  const value = (key: string) => rows.find((r) => r.key === key)?.value;
  const count = value('global.auto_retry_count');
  if (value('RetryTimes') !== undefined || value('global.auto_retry_enabled') !== 'true' || count === undefined) return;
  await d.insertInto('options').values({ key: 'RetryTimes', value: count }).execute();
}

export async function down(): Promise<void> {
  // The copied count is a valid RetryTimes; leaving it in place loses nothing.
}
