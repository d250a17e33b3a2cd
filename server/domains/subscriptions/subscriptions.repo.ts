import { type Insertable, sql, type Updateable } from 'kysely';
import { TopUpStatus } from '../../../shared/constants.ts';
import type { Database, Db } from '../../db/types.ts';

/* Kysely queries on subscription plans, orders and users' subscriptions. No rules here. */

type NewPlan = Insertable<Database['subscription_plans']>;
type PlanPatch = Updateable<Database['subscription_plans']>;
const affected = (r: { numUpdatedRows?: bigint; numDeletedRows?: bigint }) =>
  Number(r.numUpdatedRows ?? r.numDeletedRows ?? 0);

// ---- plans ----

/** new-api's order: sort_order descending, then newest first. */
export const listPlans = (db: Db, enabledOnly: boolean) => {
  const q = db.selectFrom('subscription_plans').selectAll();
  return (enabledOnly ? q.where('enabled', '=', 1) : q).orderBy('sort_order', 'desc').orderBy('id', 'desc').execute();
};

export const findPlan = (db: Db, id: number) =>
  db.selectFrom('subscription_plans').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertPlan(db: Db, row: NewPlan): Promise<number> {
  const r = await db.insertInto('subscription_plans').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function updatePlan(db: Db, id: number, patch: PlanPatch): Promise<boolean> {
  return affected(await db.updateTable('subscription_plans').set(patch).where('id', '=', id).executeTakeFirst()) === 1;
}

// ---- orders ----

export const insertOrder = (db: Db, row: Insertable<Database['subscription_orders']>) =>
  db.insertInto('subscription_orders').values(row).execute();

export const findOrderByTradeNo = (db: Db, tradeNo: string) =>
  db.selectFrom('subscription_orders').selectAll().where('trade_no', '=', tradeNo).executeTakeFirst();

/** Only the delivery that flips pending to success goes on: repeated notices change nothing. */
export async function completeOrder(db: Db, id: number, now: number, payload: string) {
  const r = await db
    .updateTable('subscription_orders')
    .set({ status: TopUpStatus.Success, complete_time: now, provider_payload: payload })
    .where('id', '=', id)
    .where('status', '=', TopUpStatus.Pending)
    .executeTakeFirst();
  return affected(r) === 1;
}

/** The paid order in the user's top-up history too (new-api does the same: amount 0, the money paid). */
export const insertPaidTopUp = (
  db: Db,
  row: { user_id: number; money: number; trade_no: string; payment_method: string; create_time: number; now: number },
) =>
  db
    .insertInto('top_ups')
    .values({
      user_id: row.user_id,
      amount: 0,
      money: row.money,
      trade_no: row.trade_no,
      payment_method: row.payment_method,
      create_time: row.create_time,
      complete_time: row.now,
      status: TopUpStatus.Success,
    })
    .execute();

// ---- users' subscriptions ----

export async function insertUserSubscription(db: Db, row: Insertable<Database['user_subscriptions']>) {
  const r = await db.insertInto('user_subscriptions').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

/** A user's subscriptions, latest ending first (new-api's order). */
export const listUserSubscriptions = (db: Db, userId: number) =>
  db
    .selectFrom('user_subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('end_time', 'desc')
    .orderBy('id', 'desc')
    .execute();

export const findUserSubscription = (db: Db, id: number) =>
  db.selectFrom('user_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();

export async function countPurchases(db: Db, userId: number, planId: number): Promise<number> {
  const r = await db
    .selectFrom('user_subscriptions')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .where('plan_id', '=', planId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** What the relay's in-memory pool index holds: active and not yet ended (one user, or everyone at start). */
export function listLiveSubscriptions(db: Db, now: number, userId?: number) {
  let q = db
    .selectFrom('user_subscriptions')
    .select(['id', 'user_id', 'end_time', 'next_reset_time'])
    .where('status', '=', 'active')
    .where('end_time', '>', now);
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  return q.execute();
}

/** Ends an active subscription now; false when it was not active (already ended, or another admin won). */
export async function cancelSubscription(db: Db, id: number, now: number): Promise<boolean> {
  const r = await db
    .updateTable('user_subscriptions')
    .set({ status: 'cancelled', end_time: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return affected(r) === 1;
}

export async function deleteUserSubscription(db: Db, id: number): Promise<boolean> {
  return affected(await db.deleteFrom('user_subscriptions').where('id', '=', id).executeTakeFirst()) === 1;
}

/**
 * Starts a new period: the pool back to empty, exactly once per period whichever instance (request,
 * timer) comes first, because the row must still hold the reset time the caller saw.
 */
export async function resetPeriod(db: Db, id: number, seenNext: number, now: number, next: number) {
  const r = await db
    .updateTable('user_subscriptions')
    .set({ amount_used: 0, last_reset_time: now, next_reset_time: next, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .where('next_reset_time', '=', seenNext)
    .where('next_reset_time', '>', 0)
    .where('next_reset_time', '<=', now)
    .where('end_time', '>', now)
    .executeTakeFirst();
  return affected(r) === 1;
}

export const listDueResets = (db: Db, now: number, limit: number) =>
  db
    .selectFrom('user_subscriptions')
    .selectAll()
    .where('status', '=', 'active')
    .where('next_reset_time', '>', 0)
    .where('next_reset_time', '<=', now)
    .where('end_time', '>', now)
    .orderBy('next_reset_time')
    .limit(limit)
    .execute();

export const listEnded = (db: Db, now: number, limit: number) =>
  db
    .selectFrom('user_subscriptions')
    .selectAll()
    .where('status', '=', 'active')
    .where('end_time', '<=', now)
    .orderBy('end_time')
    .limit(limit)
    .execute();

/** Marks an ended subscription expired; false when another instance (or an admin) got there first. */
export async function expireSubscription(db: Db, id: number, now: number): Promise<boolean> {
  const r = await db
    .updateTable('user_subscriptions')
    .set({ status: 'expired', updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .where('end_time', '<=', now)
    .executeTakeFirst();
  return affected(r) === 1;
}

/** Another live subscription of the user that moved them to a group (it keeps the group). */
export const otherUpgradedSubscription = (db: Db, userId: number, exceptId: number, now: number) =>
  db
    .selectFrom('user_subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .where('end_time', '>', now)
    .where('id', '<>', exceptId)
    .where('upgrade_group', '<>', '')
    .executeTakeFirst();

export const findSubscriber = (db: Db, userId: number) =>
  db
    .selectFrom('users')
    .select(['id', 'username', 'role', 'group', 'quota'])
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

/** Moves the user to `to` only while they are still in `from` (an admin's later change wins). */
export async function moveUserGroup(db: Db, userId: number, from: string, to: string): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ group: to })
    .where('id', '=', userId)
    .where('group', '=', from)
    .executeTakeFirst();
  return affected(r) === 1;
}

/** Takes `quota` from the wallet only if it is there (pay for a plan from the balance). */
export async function takeWalletQuota(db: Db, userId: number, quota: number): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({ quota: sql`quota - ${quota}` })
    .where('id', '=', userId)
    .where('quota', '>=', quota)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return affected(r) === 1;
}
