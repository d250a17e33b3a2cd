import type { Db } from '../../db/types.ts';
import { type SettleItem, type Settlement, settleMany, settleOne } from './settle.ts';

interface Pending extends SettleItem {
  resolve(s: Settlement): void;
  reject(err: unknown): void;
}

const MAX_BATCH = 256;

/**
 * Group commit for settlements: the ones requested in the same event-loop turn
 * are written in one transaction (settlements run after the response was sent,
 * so the few microseconds of waiting cost the client nothing, and one commit per
 * batch instead of per request keeps SQLite's single writer free). A batch that
 * fails is retried one settlement at a time, so one bad row cannot fail the others.
 */
export function createSettleQueue(db: Db) {
  let pending: Pending[] = [];
  let scheduled = false;

  async function flush() {
    scheduled = false;
    const batch = pending.slice(0, MAX_BATCH);
    pending = pending.slice(MAX_BATCH);
    if (pending.length > 0) schedule();
    try {
      const results = await settleMany(db, batch);
      batch.forEach((p, i) => p.resolve(results[i]));
    } catch {
      for (const p of batch) await settleOne(db, p).then(p.resolve, p.reject);
    }
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => void flush());
  }

  return {
    settle(item: SettleItem): Promise<Settlement> {
      return new Promise((resolve, reject) => {
        pending.push({ ...item, resolve, reject });
        schedule();
      });
    },
  };
}
