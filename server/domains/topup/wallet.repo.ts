import { LogType, TopUpStatus } from '../../../shared/constants.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Db, NewLog } from '../../db/types.ts';
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

export async function listTopUps(db: Db, userId: number, offset: number, limit: number) {
  const base = db.selectFrom('top_ups').where('user_id', '=', userId);
  const [items, total] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(total.n) };
}
