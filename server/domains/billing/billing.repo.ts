import { type Insertable, sql } from 'kysely';
import { prepared, preparedInsert } from '../../db/prepared.ts';
import type { Database, Db } from '../../db/types.ts';

/*
 * Billing's SQL: reservation rows and the balance changes of reserve, settle and refund. The
 * statements the relay runs for every request are prepared once (db/prepared.ts); each balance
 * change is a conditional update, never a read-then-write. No rules here (reserve.service.ts, settle.service.ts).
 */

// Reserve (reserve.service.ts), alone or batched: [sum, id]; a result's numAffectedRows is 0 when the balance is short.
export const takeUserQuota = prepared<[number, number]>((db, [sum, id]) =>
  db
    .updateTable('users')
    .set({ quota: sql`quota - ${sum}` })
    .where('id', '=', id)
    .where('quota', '>=', sum),
);
export const takeTokenQuota = prepared<[number, number]>((db, [sum, id]) =>
  db
    .updateTable('tokens')
    .set({ remain_quota: sql`remain_quota - ${sum}` })
    .where('id', '=', id)
    .where('remain_quota', '>=', sum),
);
export const insertReservations = preparedInsert<
  Required<Omit<Insertable<Database['quota_reservations']>, 'subscription_id'>>
>(
  (db, rows) => db.insertInto('quota_reservations').values(rows),
  ['id', 'user_id', 'token_id', 'quota', 'unlimited_token', 'created_at'],
);

// Subscription pools (issue 32): the same conditional updates on user_subscriptions.amount_used, where
// amount_total 0 is unlimited and a pool counts only while active, not ended and not due for its reset.
/** [n, id, now]; numAffectedRows is 0 when the pool is short, ended or due for a reset. */
export const takeSubscriptionQuota = prepared<[number, number, number]>((db, [n, id, now]) =>
  db
    .updateTable('user_subscriptions')
    .set({ amount_used: sql`amount_used + ${n}` })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .where('end_time', '>', now)
    .where((eb) => eb.or([eb('next_reset_time', '=', 0), eb('next_reset_time', '>', now)]))
    .where((eb) => eb.or([eb('amount_total', '=', 0), eb(sql`amount_used + ${n}`, '<=', eb.ref('amount_total'))])),
);
export const insertPoolReservations = preparedInsert<Required<Insertable<Database['quota_reservations']>>>(
  (db, rows) => db.insertInto('quota_reservations').values(rows),
  ['id', 'user_id', 'token_id', 'quota', 'unlimited_token', 'created_at', 'subscription_id'],
);
/** Gives quota back to a pool, never below empty (a reset may have emptied it since). */
export const giveSubscriptionQuota = (db: Db, id: number, quota: number) =>
  db
    .updateTable('user_subscriptions')
    .set({ amount_used: sql`case when amount_used > ${quota} then amount_used - ${quota} else 0 end` })
    .where('id', '=', id)
    .execute();
/** Pools a batch may charge beyond their reservations: what is left in each (null total = unlimited). */
export const listSubscriptionRemains = (db: Db, ids: number[]) =>
  db.selectFrom('user_subscriptions').select(['id', 'amount_total', 'amount_used']).where('id', 'in', ids).execute();
/** The plan behind each pool, for the log rows of calls it paid (issue 39); only pool-paid batches ask. */
export const listSubscriptionPlans = (db: Db, ids: number[]) =>
  db
    .selectFrom('user_subscriptions as s')
    .leftJoin('subscription_plans as p', 'p.id', 's.plan_id')
    .select(['s.id', 's.plan_id', 'p.title'])
    .where('s.id', 'in', ids)
    .execute();
/** [delta, id]: a take (delta > 0) only while it fits; a refund (delta < 0) never below empty. */
export const chargeSubscription = prepared<readonly [number, number]>((db, [delta, id]) =>
  db
    .updateTable('user_subscriptions')
    .set({ amount_used: sql`case when amount_used + ${delta} < 0 then 0 else amount_used + ${delta} end` })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('amount_total', '=', 0), eb(sql`amount_used + ${delta}`, '<=', eb.ref('amount_total'))])),
);

// Refund (a whole reservation back).
export const findReservation = (db: Db, id: string) =>
  db.selectFrom('quota_reservations').selectAll().where('id', '=', id).executeTakeFirst();

/** True when this call deleted the row (a concurrent refund or reconcile may have won). */
export const deleteReservation = async (db: Db, id: string) =>
  Number((await db.deleteFrom('quota_reservations').where('id', '=', id).executeTakeFirst()).numDeletedRows) === 1;

export const giveUserQuota = (db: Db, userId: number, quota: number) =>
  db
    .updateTable('users')
    .set({ quota: sql`quota + ${quota}` })
    .where('id', '=', userId)
    .execute();

export const giveTokenQuota = (db: Db, tokenId: number, quota: number) =>
  db
    .updateTable('tokens')
    .set({ remain_quota: sql`remain_quota + ${quota}` })
    .where('id', '=', tokenId)
    .execute();

/** Reservations taken before `cutoff` (unix seconds): what a crash may have left behind. */
export const listReservationIdsBefore = (db: Db, cutoff: number) =>
  db.selectFrom('quota_reservations').select('id').where('created_at', '<', cutoff).execute();

// Settle (settle.service.ts), per batch: reservation rows gone, charges summed per user, token and channel.
/** Deletes `count` reservation rows by id (one compiled statement per count). */
export const deleteReservations = prepared<string[]>((db, ids, count) =>
  db.deleteFrom('quota_reservations').where(
    'id',
    'in',
    Array.from({ length: count }, (_, i) => ids[i]),
  ),
);
const chargeUserQuery = (enough: boolean) =>
  prepared<readonly [number, number, number, number], { quota: number }>((db, [delta, charged, count, id]) => {
    const q = db
      .updateTable('users')
      .set({
        quota: sql`quota - ${delta}`,
        used_quota: sql`used_quota + ${charged}`,
        request_count: sql`request_count + ${count}`,
      })
      .where('id', '=', id);
    return (enough ? q.where('quota', '>=', delta) : q).returning('quota');
  });
/** [delta, charged, count, id] -> the user's quota after; `IfEnough` takes nothing (no row) when short. */
export const chargeUser = chargeUserQuery(false);
export const chargeUserIfEnough = chargeUserQuery(true);
const chargeTokenQuery = (enough: boolean) =>
  prepared<readonly [number, number, number, number]>((db, [delta, charged, now, id]) => {
    const q = db
      .updateTable('tokens')
      .set({
        remain_quota: sql`remain_quota - ${delta}`,
        used_quota: sql`used_quota + ${charged}`,
        accessed_time: now,
      })
      .where('id', '=', id);
    return enough ? q.where('remain_quota', '>=', delta) : q;
  });
/** [delta, charged, now, id]; `IfEnough` changes no row when the token is short. */
export const chargeToken = chargeTokenQuery(false);
export const chargeTokenIfEnough = chargeTokenQuery(true);
/** [charged, id] */
export const addChannelUse = prepared<readonly [number, number]>((db, [charged, id]) =>
  db
    .updateTable('channels')
    .set({ used_quota: sql`used_quota + ${charged}` })
    .where('id', '=', id),
);

/** Balances of the users a batch may charge beyond their reservations. */
export const listUserQuotas = (db: Db, ids: number[]) =>
  db.selectFrom('users').select(['id', 'quota']).where('id', 'in', ids).execute();

export const listTokenRemains = (db: Db, ids: number[]) =>
  db.selectFrom('tokens').select(['id', 'remain_quota']).where('id', 'in', ids).execute();
