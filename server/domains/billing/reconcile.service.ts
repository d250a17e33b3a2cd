import type { Db } from '../../db/types.ts';
import type { DatabaseType } from '../../db/index.ts';
import { listReservationIdsBefore } from './billing.repo.ts';
import { refundReservation } from './reserve.service.ts';

/**
 * Refunds reservations left behind by a crash (relay.md §5). With SQLite only this
 * process uses the file, so every leftover row is stale. With PostgreSQL other live
 * instances may hold reservations for running requests, so only rows older than an
 * hour (longer than any relay request may run) are refunded.
 */
export async function reconcileReservations(db: Db, dbType: DatabaseType, now = Date.now()): Promise<number> {
  const cutoff = dbType === 'sqlite' ? Number.MAX_SAFE_INTEGER : Math.floor(now / 1000) - 3600;
  const rows = await listReservationIdsBefore(db, cutoff);
  for (const row of rows) await refundReservation(db, row);
  return rows.length;
}
