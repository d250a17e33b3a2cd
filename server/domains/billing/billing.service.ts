import type { Infra } from '../../context.ts';
import type { OptionsService } from '../options/options.service.ts';
import { resolvePrice } from './pricing.ts';
import { reconcileReservations } from './reconcile.ts';
import { type Payer, refundReservation, type Reservation } from './reserve.ts';
import { createReserveQueue } from './reserve-queue.ts';
import type { NewLog } from '../../db/types.ts';
import type { Settlement } from './settle.ts';
import { createSettleQueue } from './settle-queue.ts';

export type BillingService = Awaited<ReturnType<typeof createBillingService>>;

/**
 * Quota accounting for the relay: price lookup (memory only), atomic reservation,
 * settlement and refunds. Reservations left by a crash are refunded when the
 * service is created, i.e. at every start.
 */
export async function createBillingService(infra: Pick<Infra, 'db' | 'dbType' | 'log'>, options: OptionsService) {
  const refunded = await reconcileReservations(infra.db, infra.dbType);
  if (refunded > 0) infra.log.warn({ refunded }, 'refunded quota reservations left by an unclean stop');
  const reservations = createReserveQueue(infra.db);
  const settlements = createSettleQueue(infra.db);
  return {
    resolvePrice: (model: string, group: string, acceptUnset: boolean) =>
      resolvePrice(options.get, model, group, acceptUnset),
    /** Atomic reservation; batched with the reservations made at the same time. */
    reserve: (payer: Payer, quota: number) => reservations.reserve(payer, quota),
    /**
     * Settles after the response; batched with the settlements finishing at the same
     * time. `log` builds the consume row, written in the same transaction when
     * LogConsumeEnabled (the row comes back on the settlement either way).
     */
    settle: (r: Reservation, finalQuota: number, channelId: number, log?: (s: Settlement) => NewLog) =>
      settlements.settle({
        reservation: r,
        finalQuota,
        channelId,
        log,
        insertLog: log !== undefined && options.get('LogConsumeEnabled'),
      }),
    refund: (r: Reservation) => refundReservation(infra.db, r),
    reconcile: () => reconcileReservations(infra.db, infra.dbType),
  };
}
