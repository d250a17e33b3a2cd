import type { BillingPreference } from '../../../shared/schemas/subscriptions.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Db } from '../../db/types.ts';
import { AppError, isAppError } from '../../errors.ts';
import type { PoolEntry, SubscriptionPool } from '../subscriptions/pool.service.ts';
import { type Payer, type Reservation, reserveFromSubscription } from './reserve.service.ts';

/** A payer with the user's billing preference (new-api's user setting; default subscription_first). */
export interface PoolPayer extends Payer {
  preference?: BillingPreference;
}

export const subscriptionQuotaInsufficient = () =>
  new AppError('FORBIDDEN', 'billing.subscription_quota_insufficient', {}, { detail: 'insufficient_user_quota' });

/** Wallet refusals a subscription may still cover (a short token is not the wallet's to cover). */
const walletShort = (err: unknown) =>
  isAppError(err) &&
  (err.messageCode === 'billing.user_quota_insufficient' || err.messageCode === 'billing.request_exceeds_user_quota');

/**
 * Chooses the pool a reservation comes from (issue 32). Most users have no live subscription: one map
 * lookup, then the wallet's batched path unchanged. Otherwise the preference orders the pools:
 * subscription_first tries each live subscription (soonest-ending first), then the wallet;
 * wallet_first the reverse; subscription_only refuses when every pool is spent (with no live
 * subscription at all the wallet pays, as new-api's console says); wallet_only never uses one.
 * A period due for its reset is reset here first (once per period, conditional: see `resetDue`).
 */
export async function reserveWithPools(
  db: Db,
  pool: SubscriptionPool,
  payer: PoolPayer,
  quota: number,
  fromWallet: (p: Payer) => Promise<Reservation>,
): Promise<Reservation> {
  const preference = payer.preference ?? 'subscription_first';
  const now = nowSeconds();
  const live = preference === 'wallet_only' ? [] : pool.live(payer.userId, now);
  const wallet = { userId: payer.userId, tokenId: payer.tokenId, unlimitedToken: payer.unlimitedToken };
  if (live.length === 0) return fromWallet(wallet);
  if (preference === 'wallet_first') {
    try {
      return await fromWallet(wallet);
    } catch (err) {
      if (!walletShort(err)) throw err;
      return (await fromPools(db, pool, wallet, live, quota, now)) ?? Promise.reject(err);
    }
  }
  const r = await fromPools(db, pool, wallet, live, quota, now);
  if (r) return r;
  if (preference === 'subscription_only') throw subscriptionQuotaInsufficient();
  return fromWallet(wallet);
}

async function fromPools(
  db: Db,
  pool: SubscriptionPool,
  payer: Payer,
  live: PoolEntry[],
  quota: number,
  now: number,
): Promise<Reservation | null> {
  for (const entry of live) {
    if (entry.nextResetTime > 0 && entry.nextResetTime <= now) await pool.resetDue(entry, now);
    const r = await reserveFromSubscription(db, payer, entry.id, quota, now);
    if (r) return r;
  }
  return null;
}
