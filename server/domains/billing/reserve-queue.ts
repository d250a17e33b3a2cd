import type { Db } from '../../db/types.ts';
import { type Payer, type Reservation, reserveMany, reserveQuota } from './reserve.ts';

interface Pending {
  payer: Payer;
  quota: number;
  resolve(r: Reservation): void;
  reject(err: unknown): void;
}

const MAX_BATCH = 256;

/**
 * Group commit for reservations: the requests that reach their reservation in the
 * same event-loop turn are reserved in one transaction (reserveMany), which keeps
 * SQLite's single writer from committing once per request under load. A lone
 * request takes the plain path. A batch that does not fit, or fails, is reserved
 * one request at a time, so every request gets exactly the answer it would alone.
 */
export function createReserveQueue(db: Db) {
  let pending: Pending[] = [];
  let scheduled = false;

  const one = (p: Pending) => reserveQuota(db, p.payer, p.quota).then(p.resolve, p.reject);

  async function flush() {
    scheduled = false;
    const batch = pending.slice(0, MAX_BATCH);
    pending = pending.slice(MAX_BATCH);
    if (pending.length > 0) schedule();
    if (batch.length === 1) return one(batch[0]);
    let reserved: Reservation[] | null = null;
    try {
      reserved = await reserveMany(db, batch);
    } catch {
      reserved = null;
    }
    if (reserved) batch.forEach((p, i) => p.resolve(reserved[i]));
    else for (const p of batch) await one(p);
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => void flush());
  }

  return {
    reserve(payer: Payer, quota: number): Promise<Reservation> {
      return new Promise((resolve, reject) => {
        pending.push({ payer, quota, resolve, reject });
        schedule();
      });
    },
  };
}
