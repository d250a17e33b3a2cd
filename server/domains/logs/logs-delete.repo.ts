import { inTransaction } from '../../db/in-transaction.ts';
import type { Db } from '../../db/types.ts';
import { ROLLUP_SOURCE_COLUMNS, subtractFromLogHourly } from './log-hourly.repo.ts';

/**
 * Deletes up to `limit` of the oldest rows created before `target`; answers how
 * many went. One bounded transaction, so a big cleanup is many short write
 * transactions instead of one that holds SQLite's single writer (and with it
 * every relay settlement) for seconds. The deleted rows leave the hourly rollup in
 * the same transaction, so page totals and the stat box stay exact (a bucket that
 * straddles the target keeps the rows that stay). Dialect-neutral:
 * DELETE ... WHERE id IN (SELECT ... LIMIT n) RETURNING runs on SQLite and PostgreSQL alike.
 */
export async function deleteLogsBeforeBatch(db: Db, target: number, limit: number): Promise<number> {
  const run = async (trx: Db) => {
    const oldest = trx
      .selectFrom('logs')
      .select('id')
      .where('created_at', '<', target)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit);
    const gone = await trx.deleteFrom('logs').where('id', 'in', oldest).returning(ROLLUP_SOURCE_COLUMNS).execute();
    await subtractFromLogHourly(trx, gone);
    return gone.length;
  };
  return inTransaction(db, run);
}
