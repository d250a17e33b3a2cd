import type { Infra } from '../../context.ts';
import type { OptionsService } from '../options/options.service.ts';
import { type PriceResolution, resolvePrice } from './pricing.rules.ts';
import { reconcileReservations } from './reconcile.service.ts';
import type { NewLog } from '../../db/types.ts';
import { createGroupCommit } from './group-commit.ts';
import type { SubscriptionPool } from '../subscriptions/pool.service.ts';
import { type PoolPayer, reserveWithPools } from './pool-reserve.service.ts';
import { type Payer, refundReservation, type Reservation, reserveMany, reserveQuota } from './reserve.service.ts';
import { type SettleItem, type Settlement, settleMany, settleOne } from './settle.service.ts';

/**
 * Settlements (with their log rows) commit at most this long after the answer: the
 * crash-loss bound (test/reliability/crash.test.ts allows 100 ms), traded for bigger
 * batches and for not competing with the client's next request.
 */
const SETTLE_WINDOW_MS = 10;

export type BillingService = Awaited<ReturnType<typeof createBillingService>>;

/**
 * Quota accounting for the relay: price lookup (memory only), atomic reservation,
 * settlement and refunds. Reservations left by a crash are refunded when the
 * service is created, i.e. at every start.
 */
export async function createBillingService(
  infra: Pick<Infra, 'db' | 'dbType' | 'log'>,
  options: OptionsService,
  pool: SubscriptionPool,
) {
  const refunded = await reconcileReservations(infra.db, infra.dbType);
  if (refunded > 0) infra.log.warn({ refunded }, 'refunded quota reservations left by an unclean stop');
  const { db } = infra;
  // Prices change only with the options: resolved once per model, group and flag until then
  // (the relay asks on every request; the answers are read-only).
  const prices = new Map<string, PriceResolution>();
  options.onChange(() => prices.clear());
  // Reservations and settlements made in the same event-loop turn share one transaction each.
  const reserve = createGroupCommit(
    (items: { payer: Payer; quota: number }[]) => reserveMany(db, items),
    (i) => reserveQuota(db, i.payer, i.quota),
  );
  const settle = createGroupCommit(
    (items: SettleItem[]) => settleMany(db, items),
    (i) => settleOne(db, i),
    SETTLE_WINDOW_MS,
  );
  return {
    resolvePrice(model: string, group: string, acceptUnset: boolean): PriceResolution {
      const key = `${acceptUnset ? 1 : 0}${group}\u0000${model}`;
      let r = prices.get(key);
      if (!r) {
        r = resolvePrice(options.get, model, group, acceptUnset);
        // Model names come from clients: bounded, so made-up names cannot grow it without end.
        if (prices.size >= 10_000) prices.clear();
        prices.set(key, r);
      }
      return r;
    },
    /**
     * Atomic reservation; batched with the reservations made at the same time. A user with a live
     * subscription pays from its pool or the wallet as their billing preference says (pool-reserve.service.ts).
     */
    reserve: (payer: PoolPayer, quota: number) =>
      reserveWithPools(db, pool, payer, quota, (p: Payer) => reserve({ payer: p, quota })),
    /** Whether a call of this user may be paid by a subscription (memory only): no wallet shortcut then. */
    paysFromPool: (payer: PoolPayer) => payer.preference !== 'wallet_only' && pool.has(payer.userId),
    /**
     * Settles after the response; batched with the settlements finishing at the same
     * time. `log` builds the consume row, written in the same transaction when
     * LogConsumeEnabled and counted in `quota_data` when DataExportEnabled (the row
     * comes back on the settlement either way). `alongside` writes what must stand or fall
     * with the charge (a video job's task row) in that transaction.
     */
    settle: (
      r: Reservation,
      finalQuota: number,
      channelId: number,
      log?: (s: Settlement) => NewLog,
      alongside?: SettleItem['alongside'],
    ) =>
      settle({
        reservation: r,
        finalQuota,
        channelId,
        log,
        alongside,
        insertLog: log !== undefined && options.get('LogConsumeEnabled'),
        countUsage: log !== undefined && options.get('DataExportEnabled'),
      }),
    refund: (r: Reservation) => refundReservation(infra.db, r),
    reconcile: () => reconcileReservations(infra.db, infra.dbType),
  };
}
