import { sql } from 'kysely';
import type { Db } from '../../db/types.ts';

/*
 * Hourly usage buckets (quota_data, written by the relay's log-writer). Reads are
 * bounded by time so quota_data_created_idx (or the per-user unique index) is used.
 */

export interface QuotaDataRow {
  id: number;
  user_id: number;
  username: string;
  model_name: string;
  created_at: number;
  token_used: number;
  count: number;
  quota: number;
}

const toRow = (r: {
  id: number | string;
  user_id: number | string;
  username: string;
  model_name: string;
  created_at: number | string;
  token_used: number | string | null;
  count: number | string | null;
  quota: number | string | null;
}): QuotaDataRow => ({
  id: Number(r.id),
  user_id: Number(r.user_id),
  username: r.username,
  model_name: r.model_name,
  created_at: Number(r.created_at),
  token_used: Number(r.token_used ?? 0),
  count: Number(r.count ?? 0),
  quota: Number(r.quota ?? 0),
});

/** One user's buckets (by id, or by username for the admin filter), oldest first. */
export async function listUserQuotaData(
  db: Db,
  who: { userId: number } | { username: string },
  start: number,
  end: number,
): Promise<QuotaDataRow[]> {
  let q = db.selectFrom('quota_data').selectAll().where('created_at', '>=', start).where('created_at', '<=', end);
  q = 'userId' in who ? q.where('user_id', '=', who.userId) : q.where('username', '=', who.username);
  const rows = await q.orderBy('created_at').orderBy('model_name').execute();
  return rows.map(toRow);
}

/** Every user's buckets summed per model and hour (id and user fields zero, as new-api sends them). */
export async function listAllQuotaData(db: Db, start: number, end: number): Promise<QuotaDataRow[]> {
  const rows = await db
    .selectFrom('quota_data')
    .select([
      'model_name',
      'created_at',
      sql<number | string | null>`sum(token_used)`.as('token_used'),
      sql<number | string | null>`sum(count)`.as('count'),
      sql<number | string | null>`sum(quota)`.as('quota'),
    ])
    .where('created_at', '>=', start)
    .where('created_at', '<=', end)
    .groupBy(['model_name', 'created_at'])
    .orderBy('created_at')
    .orderBy('model_name')
    .execute();
  return rows.map((r) => toRow({ ...r, id: 0, user_id: 0, username: '' }));
}
