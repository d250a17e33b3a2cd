import { serverText } from '../../../shared/server-messages.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Db, NewLog } from '../../db/types.ts';
import { insertLogs } from '../logs/insert-logs.repo.ts';
import { addToQuotaData } from '../logs/quota-data.repo.ts';
import {
  addChannelUse,
  chargeSubscription,
  chargeToken,
  chargeTokenIfEnough,
  chargeUser,
  chargeUserIfEnough,
  deleteReservations,
  listSubscriptionPlans,
  listSubscriptionRemains,
  listTokenRemains,
  listUserQuotas,
} from './billing.repo.ts';
import type { Reservation } from './reserve.service.ts';

export interface Settlement {
  /** What was actually charged (the log's quota). */
  charged: number;
  /** Part of the final price that could not be taken because a balance reached zero. */
  shortfall: number;
  /** The user's balance right after this settlement (quota warnings compare it with before). */
  userQuotaAfter: number;
  /** The consume log row built for this settlement, if the caller asked for one. */
  log?: NewLog;
  /** The subscription whose pool paid (issue 32); 0 = the wallet, whose balance did not move then. */
  subscriptionId: number;
}

export interface SettleItem {
  reservation: Reservation;
  finalQuota: number;
  channelId: number;
  /**
   * Builds the request's consume log row from what was charged. The row is written in
   * the settlement's own transaction (when `insertLog`), so a crash can never keep a
   * charge without its log row or a log row without its charge.
   */
  log?: (s: Settlement) => NewLog;
  insertLog?: boolean;
  /** Count the row in the hourly `quota_data` (DataExportEnabled), in the same transaction. */
  countUsage?: boolean;
  /**
   * Writes that stand or fall with this charge, in its transaction (a video job's task row, issue 40):
   * a crash can then never keep the charge without the row or the row without the charge. Run again
   * when the transaction is retried, so it must only write.
   */
  alongside?: (trx: Db) => Promise<void>;
}

/** Settles one queued item on its own (the fallback when its batch failed). */
export async function settleOne(db: Db, item: SettleItem): Promise<Settlement> {
  const [one] = await settleMany(db, [item]);
  return one;
}

class BalanceMoved extends Error {}

/**
 * Settles requests in ONE transaction (group commit: the relay queues the
 * settlements that finish together). For each request the difference between the
 * final price and its reservation goes to the user's and token's balances, the
 * used counters grow by the final charge, the channel's used_quota too, and the
 * reservation row disappears. A final price above the reservation (possible only
 * when the client set no limit, the estimate was short, or no reservation was
 * needed) may take a balance to zero but never below; the rest is the `shortfall`.
 * Writes are summed per user, token and channel, each a conditional update.
 */
export async function settleMany(db: Db, items: SettleItem[]): Promise<Settlement[]> {
  // A lost race on a conditional update (PostgreSQL) aborts the transaction; try again with fresh balances.
  for (let round = 0; ; round++) {
    try {
      return await db.transaction().execute((trx) => settleBatch(trx, items));
    } catch (err) {
      if (!(err instanceof BalanceMoved) || round >= 4) throw err;
    }
  }
}

interface Sum {
  delta: number;
  charged: number;
  count: number;
}

const add = (m: Map<number, Sum>, id: number, delta: number, charged: number) => {
  const s = m.get(id) ?? { delta: 0, charged: 0, count: 0 };
  s.delta += delta;
  s.charged += charged;
  s.count += 1;
  m.set(id, s);
};

async function settleBatch(trx: Db, items: SettleItem[]): Promise<Settlement[]> {
  const limited = (r: Reservation) => r.tokenId > 0 && !r.unlimitedToken;
  const poolOf = (r: Reservation) => r.subscriptionId ?? 0;
  const short = items.filter((i) => i.finalQuota > i.reservation.quota);
  // Balances are read only where a request needs more than it reserved (what can still be taken).
  const needUsers = new Set(short.filter((i) => poolOf(i.reservation) === 0).map((i) => i.reservation.userId));
  const needPools = new Set(short.map((i) => poolOf(i.reservation)).filter((id) => id > 0));
  const needTokens = new Set(
    items.filter((i) => i.finalQuota > i.reservation.quota && limited(i.reservation)).map((i) => i.reservation.tokenId),
  );
  const userLeft = new Map<number, number>();
  const tokenLeft = new Map<number, number>();
  if (needUsers.size > 0)
    for (const u of await listUserQuotas(trx, [...needUsers])) userLeft.set(Number(u.id), Math.max(0, Number(u.quota)));
  if (needTokens.size > 0)
    for (const t of await listTokenRemains(trx, [...needTokens]))
      tokenLeft.set(Number(t.id), Math.max(0, Number(t.remain_quota)));
  const poolLeft = new Map<number, number>();
  if (needPools.size > 0)
    for (const p of await listSubscriptionRemains(trx, [...needPools])) {
      const total = Number(p.amount_total);
      poolLeft.set(Number(p.id), total === 0 ? Number.MAX_SAFE_INTEGER : Math.max(0, total - Number(p.amount_used)));
    }

  const users = new Map<number, Sum>();
  const tokens = new Map<number, Sum>();
  const channels = new Map<number, Sum>();
  const pools = new Map<number, Sum>();
  const takes: number[] = [];
  const out: Settlement[] = items.map(({ reservation: r, finalQuota, channelId }) => {
    const pool = poolOf(r);
    // The payer's own balance: the user's wallet, or the subscription's pool (issue 32).
    const [left, key] = pool > 0 ? [poolLeft, pool] : [userLeft, r.userId];
    let take = finalQuota - r.quota;
    if (take > 0) {
      take = Math.min(take, left.get(key) ?? 0);
      if (limited(r)) take = Math.min(take, tokenLeft.get(r.tokenId) ?? 0);
    }
    // Refunds earlier in the batch free balance for the requests after them, as if settled one by one.
    if (left.has(key)) left.set(key, left.get(key)! - take);
    if (limited(r) && tokenLeft.has(r.tokenId)) tokenLeft.set(r.tokenId, tokenLeft.get(r.tokenId)! - take);
    const charged = r.quota + take;
    takes.push(pool > 0 ? 0 : take);
    // A pool-paid request still counts in the user's used quota and requests; only the pool's balance moves.
    add(users, r.userId, pool > 0 ? 0 : take, charged);
    if (pool > 0) add(pools, pool, take, charged);
    if (r.tokenId > 0) add(tokens, r.tokenId, limited(r) ? take : 0, charged);
    if (channelId > 0 && charged !== 0) add(channels, channelId, 0, charged);
    return { charged, shortfall: finalQuota - charged, userQuotaAfter: 0, subscriptionId: pool };
  });

  const ids = items.map((i) => i.reservation.id).filter((id) => id !== '');
  for (let i = 0; i < ids.length; i += 200) {
    const chunk = ids.slice(i, i + 200);
    await deleteReservations(trx, chunk, chunk.length);
  }

  const quotaAfter = new Map<number, number>();
  for (const [id, s] of users) {
    const args = [s.delta, s.charged, s.count, id] as const;
    // A take (delta > 0) is conditional on the balance; a refund or exact charge always applies.
    const u = (s.delta > 0 ? await chargeUserIfEnough(trx, args) : await chargeUser(trx, args)).rows[0];
    if (s.delta > 0 && !u) throw new BalanceMoved();
    quotaAfter.set(id, Number(u?.quota ?? 0));
  }
  const now = nowSeconds();
  for (const [id, s] of tokens) {
    const args = [s.delta, s.charged, now, id] as const;
    const t = s.delta > 0 ? await chargeTokenIfEnough(trx, args) : await chargeToken(trx, args);
    if (s.delta > 0 && Number(t.numAffectedRows ?? 0) !== 1) throw new BalanceMoved();
  }
  for (const [id, s] of pools) {
    if (s.delta === 0) continue;
    const p = await chargeSubscription(trx, [s.delta, id]);
    if (s.delta > 0 && Number(p.numAffectedRows ?? 0) !== 1) throw new BalanceMoved();
  }
  for (const [id, s] of channels) await addChannelUse(trx, [s.charged, id]);

  // Each request's own "after": walk the batch backwards from the user's final balance.
  const running = new Map(quotaAfter);
  for (let i = items.length - 1; i >= 0; i--) {
    const uid = items[i].reservation.userId;
    out[i].userQuotaAfter = running.get(uid) ?? 0;
    running.set(uid, (running.get(uid) ?? 0) + takes[i]);
  }
  const logs: NewLog[] = [];
  const counted: NewLog[] = [];
  const paidPools = [
    ...new Set(out.filter((o, i) => o.subscriptionId > 0 && items[i].log).map((o) => o.subscriptionId)),
  ];
  const plans = new Map<number, PoolPlan>();
  if (paidPools.length > 0)
    for (const p of await listSubscriptionPlans(trx, paidPools))
      plans.set(Number(p.id), { id: Number(p.plan_id), title: p.title ?? '' });
  items.forEach((item, i) => {
    if (!item.log) return;
    const pool = out[i].subscriptionId;
    const row = (out[i].log = withPool(item.log(out[i]), pool, plans.get(pool)));
    if (item.insertLog) logs.push(row);
    if (item.countUsage) counted.push(row);
  });
  // With the log page's hourly rollup and the usage statistics, in this transaction.
  await insertLogs(trx, logs);
  if (counted.length > 0) await addToQuotaData(trx, counted);
  for (const item of items) if (item.alongside) await item.alongside(trx);
  return out;
}

interface PoolPlan {
  id: number;
  title: string;
}

/**
 * A pool-paid consume row says so (issue 39: a plan's buyer spends without the wallet moving, which no
 * one notices unless the row says it): in `other` with new-api's fields (billing_source, the
 * subscription and its plan), which new-api's console and ours read, and at the end of `content`.
 */
function withPool(row: NewLog, subscriptionId: number, plan: PoolPlan | undefined): NewLog {
  if (subscriptionId === 0) return row;
  let other: Record<string, unknown> = {};
  try {
    const v: unknown = row.other ? JSON.parse(row.other) : {};
    if (v && typeof v === 'object') other = v as Record<string, unknown>;
  } catch {
    // Not JSON: the row's other text is replaced by the fields below.
  }
  const title = plan?.title ?? '';
  return {
    ...row,
    content: title
      ? serverText('log.paid_from_plan', { line: row.content ?? '', title })
      : serverText('log.paid_from_subscription', { line: row.content ?? '' }),
    other: JSON.stringify({
      ...other,
      billing_source: 'subscription',
      subscription_id: subscriptionId,
      subscription_plan_id: plan?.id ?? 0,
      subscription_plan_title: title,
    }),
  };
}
