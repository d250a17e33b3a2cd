import { randomUUID } from 'node:crypto';
import { nowSeconds } from '../../db/time.ts';
import type { Db } from '../../db/types.ts';
import { AppError } from '../../errors.ts';
import {
  deleteReservation,
  findReservation,
  giveTokenQuota,
  giveSubscriptionQuota,
  giveUserQuota,
  insertPoolReservations,
  insertReservations,
  listTokenRemains,
  listUserQuotas,
  takeSubscriptionQuota,
  takeTokenQuota,
  takeUserQuota,
} from './billing.repo.ts';

/** Who pays: the user always; the token too unless unlimited (the playground has none: id 0). */
export interface Payer {
  userId: number;
  tokenId: number;
  unlimitedToken: boolean;
}

/** A held pre-consumption, settled or refunded when the request ends. */
export interface Reservation extends Payer {
  id: string;
  quota: number;
  /** The subscription whose pool paid (issue 32); absent or 0 = the wallet. */
  subscriptionId?: number;
}

export const insufficientUserQuota = () =>
  new AppError('FORBIDDEN', 'billing.user_quota_insufficient', {}, { detail: 'insufficient_user_quota' });
export const tokenQuotaExhausted = () =>
  new AppError('FORBIDDEN', 'billing.token_quota_exhausted', {}, { detail: 'token_quota_exhausted' });
/**
 * A reservation larger than the balance that remains (issue 28): not an empty balance, so it says
 * how much the request needs (`need`) and how much is left (`remain`), in quota units. The relay
 * words them in the site's display unit (relay/errors.ts, quotaShortfall).
 */
export const requestExceedsQuota = (who: 'user' | 'token', need: number, remain: number) =>
  new AppError(
    'FORBIDDEN',
    who === 'user' ? 'billing.request_exceeds_user_quota' : 'billing.request_exceeds_token_quota',
    { need, remain },
    { detail: 'insufficient_quota_for_request' },
  );

/** The refusal of a reservation that did not fit; the balance is read after the refusal, for the words only. */
async function notEnough(db: Db, payer: Payer, quota: number, who: 'user' | 'token') {
  const remain =
    who === 'user'
      ? Number((await listUserQuotas(db, [payer.userId]))[0]?.quota ?? 0)
      : Number((await listTokenRemains(db, [payer.tokenId]))[0]?.remain_quota ?? 0);
  if (remain > 0 && remain < quota) return requestExceedsQuota(who, quota, remain);
  return who === 'user' ? insufficientUserQuota() : tokenQuotaExhausted();
}

/** Thrown inside the transaction so that both balances roll back together. */
class NotEnough extends Error {
  constructor(readonly who: 'user' | 'token' | 'subscription') {
    super(who);
  }
}

const updated = (r: { numAffectedRows?: bigint }) => Number(r.numAffectedRows ?? 0);
const reservationRow = (r: Reservation, createdAt: number) => ({
  id: r.id,
  user_id: r.userId,
  token_id: r.tokenId,
  quota: r.quota,
  unlimited_token: r.unlimitedToken ? 1 : 0,
  created_at: createdAt,
});

/**
 * Reserves `quota` in ONE transaction of conditional updates (`quota >= n`), plus
 * the reservation row that a restart would refund. Parallel requests therefore can
 * never take a balance below zero: the database arbitrates, not a read in our code.
 * A zero reservation still writes its row, so settle/refund has one code path.
 */
export async function reserveQuota(db: Db, payer: Payer, quota: number): Promise<Reservation> {
  const reservation = { ...payer, id: randomUUID(), quota };
  try {
    await db.transaction().execute(async (trx) => {
      if (quota > 0) {
        if (updated(await takeUserQuota(trx, [quota, payer.userId])) !== 1) throw new NotEnough('user');
        if (payer.tokenId > 0 && !payer.unlimitedToken)
          if (updated(await takeTokenQuota(trx, [quota, payer.tokenId])) !== 1) throw new NotEnough('token');
      }
      await insertReservations(trx, [reservationRow(reservation, nowSeconds())]);
    });
  } catch (err) {
    if (err instanceof NotEnough) throw await notEnough(db, payer, quota, err.who === 'token' ? 'token' : 'user');
    throw err;
  }
  return reservation;
}

/**
 * Reserves `quota` from one subscription's pool instead of the wallet (issue 32): the same one
 * transaction of conditional updates, the pool's in place of the user's balance, and a reservation row
 * that names the pool so a refund or a restart gives it back there. Null when the pool cannot pay
 * (spent, ended, or due for its reset); a limited token that is short still refuses as on the wallet path.
 */
export async function reserveFromSubscription(
  db: Db,
  payer: Payer,
  subscriptionId: number,
  quota: number,
  now: number,
): Promise<Reservation | null> {
  const reservation = { ...payer, id: randomUUID(), quota, subscriptionId };
  try {
    await db.transaction().execute(async (trx) => {
      // Rows are locked in the settlement's order (users, tokens, then pools: settle.service.ts), token before
      // pool: the opposite order deadlocked on PostgreSQL against the previous call's settlement.
      if (quota > 0 && payer.tokenId > 0 && !payer.unlimitedToken)
        if (updated(await takeTokenQuota(trx, [quota, payer.tokenId])) !== 1) throw new NotEnough('token');
      if (updated(await takeSubscriptionQuota(trx, [quota, subscriptionId, now])) !== 1)
        throw new NotEnough('subscription');
      await insertPoolReservations(trx, [{ ...reservationRow(reservation, now), subscription_id: subscriptionId }]);
    });
  } catch (err) {
    if (err instanceof NotEnough && err.who === 'subscription') return null;
    if (err instanceof NotEnough) throw await notEnough(db, payer, quota, 'token');
    throw err;
  }
  return reservation;
}

class BatchDoesNotFit extends Error {}

/**
 * Reserves several requests in ONE transaction (the reserve queue's group commit):
 * one conditional update per user and per limited token for the batch's sum, and
 * one insert for all the reservation rows. When a sum does not fit (a balance close
 * to zero), nothing of the batch is kept and the caller reserves one by one, so each
 * request still gets its own yes or no.
 */
export async function reserveMany(db: Db, items: { payer: Payer; quota: number }[]): Promise<Reservation[] | null> {
  const users = new Map<number, number>();
  const tokens = new Map<number, number>();
  for (const { payer, quota } of items) {
    if (quota <= 0) continue;
    users.set(payer.userId, (users.get(payer.userId) ?? 0) + quota);
    if (payer.tokenId > 0 && !payer.unlimitedToken) tokens.set(payer.tokenId, (tokens.get(payer.tokenId) ?? 0) + quota);
  }
  const now = nowSeconds();
  const out = items.map(({ payer, quota }) => ({ ...payer, id: randomUUID(), quota }));
  try {
    await db.transaction().execute(async (trx) => {
      for (const [id, sum] of users)
        if (updated(await takeUserQuota(trx, [sum, id])) !== 1) throw new BatchDoesNotFit();
      for (const [id, sum] of tokens)
        if (updated(await takeTokenQuota(trx, [sum, id])) !== 1) throw new BatchDoesNotFit();
      for (let i = 0; i < out.length; i += 100)
        await insertReservations(
          trx,
          out.slice(i, i + 100).map((r) => reservationRow(r, now)),
        );
    });
  } catch (err) {
    if (err instanceof BatchDoesNotFit) return null;
    throw err;
  }
  return out;
}

/** Gives a whole reservation back (upstream failure, crash leftovers). Idempotent: the row is the guard. */
export async function refundReservation(db: Db, r: Pick<Reservation, 'id'>): Promise<void> {
  // An empty id is a skipped reservation (unlimited token of a rich user): nothing was held.
  if (r.id === '') return;
  await db.transaction().execute(async (trx) => {
    const row = await findReservation(trx, r.id);
    if (!row) return;
    // Only the transaction that deleted the row refunds it (a concurrent reconcile may race us).
    if (!(await deleteReservation(trx, r.id))) return;
    const quota = Number(row.quota);
    if (quota <= 0) return;
    const pool = Number(row.subscription_id ?? 0);
    if (pool > 0) await giveSubscriptionQuota(trx, pool, quota);
    else await giveUserQuota(trx, row.user_id, quota);
    if (Number(row.token_id) > 0 && row.unlimited_token !== 1) await giveTokenQuota(trx, row.token_id, quota);
  });
}
