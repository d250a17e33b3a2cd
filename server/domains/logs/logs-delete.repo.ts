import type { Db } from '../../db/types.ts';

/**
 * Deletes up to `limit` of the oldest rows created before `target`; answers how
 * many went. One bounded statement, so a big cleanup is many short write
 * transactions instead of one that holds SQLite's single writer (and with it
 * every relay settlement) for seconds. Dialect-neutral: DELETE ... WHERE id IN
 * (SELECT ... LIMIT n) runs on SQLite and PostgreSQL alike.
 */
export async function deleteLogsBeforeBatch(db: Db, target: number, limit: number): Promise<number> {
  const oldest = db
    .selectFrom('logs')
    .select('id')
    .where('created_at', '<', target)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit);
  const r = await db.deleteFrom('logs').where('id', 'in', oldest).executeTakeFirst();
  return Number(r.numDeletedRows);
}
