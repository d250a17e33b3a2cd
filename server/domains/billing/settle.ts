import { sql } from 'kysely';
import type { Db } from '../../db/types.ts';
import type { Reservation } from './reserve.ts';

export interface Settlement {
  /** What was actually charged (the log's quota). */
  charged: number;
  /** Part of the final price that could not be taken because a balance reached zero. */
  shortfall: number;
  /** The user's balance right after the settlement (quota warnings compare it with before). */
  userQuotaAfter: number;
}

/**
 * Settles a reservation in one transaction: the difference between the final
 * price and the reserved amount goes to the user's and token's balances, the
 * used counters grow by the final charge, the channel's used_quota too, and the
 * reservation row disappears. A final price above the reservation (possible only
 * when the client set no limit, or the estimate was short) may take a balance to
 * zero but never below; the rest is reported as `shortfall`.
 */
export async function settleReservation(
  db: Db,
  r: Reservation,
  finalQuota: number,
  channelId: number,
): Promise<Settlement> {
  const [one] = await settleMany(db, [{ reservation: r, finalQuota, channelId }]);
  return one;
}

export interface SettleItem {
  reservation: Reservation;
  finalQuota: number;
  channelId: number;
}

/**
 * Settles several requests in ONE transaction (group commit: the relay queues the
 * settlements that finish together). Each keeps its own conditional updates; the
 * channels' used_quota is summed and written once per channel.
 */
export async function settleMany(db: Db, items: SettleItem[]): Promise<Settlement[]> {
  // A lost race on a conditional update (PostgreSQL) aborts the transaction; try again with fresh balances.
  for (let round = 0; ; round++) {
    try {
      return await db.transaction().execute(async (trx) => {
        const out: Settlement[] = [];
        const channelUsed = new Map<number, number>();
        for (const it of items) {
          const s = await settleOnce(trx, it.reservation, it.finalQuota);
          if (it.channelId > 0 && s.charged !== 0)
            channelUsed.set(it.channelId, (channelUsed.get(it.channelId) ?? 0) + s.charged);
          out.push(s);
        }
        for (const [id, used] of channelUsed)
          await trx
            .updateTable('channels')
            .set({ used_quota: sql`used_quota + ${used}` })
            .where('id', '=', id)
            .execute();
        return out;
      });
    } catch (err) {
      if (!(err instanceof BalanceMoved) || round >= 4) throw err;
    }
  }
}

class BalanceMoved extends Error {}

async function settleOnce(trx: Db, r: Reservation, finalQuota: number): Promise<Settlement> {
  const now = Math.floor(Date.now() / 1000);
  const limitedToken = r.tokenId > 0 && !r.unlimitedToken;
  if (r.id !== '') await trx.deleteFrom('quota_reservations').where('id', '=', r.id).execute();
  const extra = finalQuota - r.quota;
  let take = extra;
  if (extra > 0) {
    // Only what both balances can still give is taken; the conditional updates catch a concurrent change.
    const user = await trx.selectFrom('users').select('quota').where('id', '=', r.userId).executeTakeFirst();
    take = Math.min(extra, Math.max(0, Number(user?.quota ?? 0)));
    if (limitedToken) {
      const token = await trx
        .selectFrom('tokens')
        .select('remain_quota')
        .where('id', '=', r.tokenId)
        .executeTakeFirst();
      take = Math.min(take, Math.max(0, Number(token?.remain_quota ?? 0)));
    }
  }
  const charged = r.quota + take;
  const userQuotaAfter = await applyDelta(trx, r, take, charged, limitedToken, now);
  return { charged, shortfall: finalQuota - charged, userQuotaAfter };
}

/** Moves `delta` (positive: take more, conditionally; negative: give back) and adds `charged` to the used counters. */
async function applyDelta(
  trx: Db,
  r: Reservation,
  delta: number,
  charged: number,
  limitedToken: boolean,
  now: number,
): Promise<number> {
  const u = await trx
    .updateTable('users')
    .set({
      quota: sql`quota - ${delta}`,
      used_quota: sql`used_quota + ${charged}`,
      request_count: sql`request_count + 1`,
    })
    .where('id', '=', r.userId)
    .$if(delta > 0, (q) => q.where('quota', '>=', delta))
    .returning('quota')
    .executeTakeFirst();
  if (delta > 0 && !u) throw new BalanceMoved();
  const after = Number(u?.quota ?? 0);
  if (r.tokenId <= 0) return after;
  const t = await trx
    .updateTable('tokens')
    .set({
      ...(limitedToken ? { remain_quota: sql`remain_quota - ${delta}` } : {}),
      used_quota: sql`used_quota + ${charged}`,
      accessed_time: now,
    })
    .where('id', '=', r.tokenId)
    .$if(limitedToken && delta > 0, (q) => q.where('remain_quota', '>=', delta))
    .executeTakeFirst();
  if (limitedToken && delta > 0 && Number(t.numUpdatedRows) !== 1) throw new BalanceMoved();
  return after;
}
