import { sql } from 'kysely';
import type { Db } from '../../db/types.ts';
import type { NewLog } from './logs.table.ts';

/*
 * Hourly usage buckets (quota_data): written with the consume rows they count (in a
 * relayed request's settlement, or with the log writer's batch), read by time so
 * quota_data_created_idx (or the per-user unique index) is used.
 */

/** Consume rows (type 2) summed per (user, model, hour): one upsert per bucket. */
function buckets(rows: readonly NewLog[]): Bucket[] {
  const map = new Map<string, Bucket>();
  for (const r of rows) {
    if (r.type !== 2) continue;
    const hour = r.created_at - (r.created_at % 3600);
    const key = `${r.user_id}\u0000${r.model_name}\u0000${hour}`;
    let b = map.get(key);
    if (!b) {
      b = {
        user_id: r.user_id ?? 0,
        username: r.username ?? '',
        model_name: r.model_name ?? '',
        created_at: hour,
        token_used: 0,
        count: 0,
        quota: 0,
      };
      map.set(key, b);
    }
    b.token_used += (r.prompt_tokens ?? 0) + (r.completion_tokens ?? 0);
    b.count += 1;
    b.quota += r.quota ?? 0;
  }
  return [...map.values()];
}

/** Adds consume rows to their hourly buckets; call it in the transaction that writes (or settles) them. */
export async function addToQuotaData(db: Db, rows: readonly NewLog[]): Promise<void> {
  for (const b of buckets(rows))
    await db
      .insertInto('quota_data')
      .values(b)
      .onConflict((oc) =>
        oc.columns(['user_id', 'model_name', 'created_at']).doUpdateSet({
          token_used: sql`quota_data.token_used + ${b.token_used}`,
          count: sql`quota_data.count + ${b.count}`,
          quota: sql`quota_data.quota + ${b.quota}`,
          username: b.username,
        }),
      )
      .execute();
}

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

/** A row to add: QuotaDataRow's counters for one (user, model, hour). */
type Bucket = Omit<QuotaDataRow, 'id'>;

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

/**
 * Every user's buckets summed per hour and per model (the dashboard's charts) or per user (its user
 * ranking); the other fields are left zero or empty, as new-api sends them.
 */
async function sumQuotaData(db: Db, start: number, end: number, per: 'model_name' | 'username') {
  const rows = await db
    .selectFrom('quota_data')
    .select([
      per,
      'created_at',
      sql<number | string | null>`sum(token_used)`.as('token_used'),
      sql<number | string | null>`sum(count)`.as('count'),
      sql<number | string | null>`sum(quota)`.as('quota'),
    ])
    .where('created_at', '>=', start)
    .where('created_at', '<=', end)
    .groupBy([per, 'created_at'])
    .orderBy('created_at')
    .orderBy(per)
    .execute();
  const blank = { id: 0, user_id: 0, username: '', model_name: '' };
  return rows.map((r) => toRow({ ...blank, ...r }));
}

export const listAllQuotaData = (db: Db, start: number, end: number): Promise<QuotaDataRow[]> =>
  sumQuotaData(db, start, end, 'model_name');

export const listQuotaDataByUser = (db: Db, start: number, end: number): Promise<QuotaDataRow[]> =>
  sumQuotaData(db, start, end, 'username');
