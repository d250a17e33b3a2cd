import { sql } from 'kysely';
import { LogType, TopUpStatus } from '../../../shared/constants.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Db, NewLog } from '../../db/types.ts';
import { likePattern } from '../channels/channels.repo.ts';
import { insertLogs } from '../logs/insert-logs.repo.ts';

/* Kysely queries on a user's balance, top-up orders and top-up log lines. No rules here. */

export const findWalletUser = (db: Db, userId: number) =>
  db
    .selectFrom('users')
    .select(['id', 'username', 'quota', 'used_quota', 'request_count', 'group'])
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

/** Adds quota in one statement (never read-then-write); false when the user is gone. */
export async function creditQuota(db: Db, userId: number, quota: number) {
  const r = await db
    .updateTable('users')
    .set((eb) => ({ quota: eb('quota', '+', quota) }))
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertTopUpLog(
  db: Db,
  user: { id: number; username: string },
  quota: number,
  text: Pick<NewLog, 'content' | 'other'>,
) {
  await insertLogs(db, [
    {
      user_id: user.id,
      username: user.username,
      created_at: nowSeconds(),
      type: LogType.TopUp,
      quota,
      ...text,
    },
  ]);
}

export const insertTopUp = (
  db: Db,
  row: {
    user_id: number;
    amount: number;
    money: number;
    trade_no: string;
    payment_method: string;
    create_time: number;
  },
) =>
  db
    .insertInto('top_ups')
    .values({ ...row, status: TopUpStatus.Pending })
    .execute();

export const findTopUpByTradeNo = (db: Db, tradeNo: string) =>
  db.selectFrom('top_ups').selectAll().where('trade_no', '=', tradeNo).executeTakeFirst();

/** Only the delivery that flips pending to success credits the user: repeated notifications change nothing. */
export async function completeTopUp(db: Db, id: number, now: number) {
  const r = await db
    .updateTable('top_ups')
    .set({ status: TopUpStatus.Success, complete_time: now })
    .where('id', '=', id)
    .where('status', '=', TopUpStatus.Pending)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Filters of the order lists: one user's (wallet) or everyone's (admin), by order number, status and creation time. */
export interface TopUpFilter {
  userId?: number;
  /** Part of the order number. */
  keyword?: string;
  status?: string;
  from?: number;
  to?: number;
}

/** A page of orders, newest first, and how many match. */
export async function listTopUps(db: Db, f: TopUpFilter, offset: number, limit: number) {
  let base = db.selectFrom('top_ups');
  if (f.userId !== undefined) base = base.where('user_id', '=', f.userId);
  if (f.keyword) base = base.where(sql<boolean>`trade_no like ${likePattern(f.keyword)} escape '\\'`);
  if (f.status) base = base.where('status', '=', f.status);
  if (f.from) base = base.where('create_time', '>=', f.from);
  if (f.to) base = base.where('create_time', '<=', f.to);
  const [items, total] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(total.n) };
}
