const MAX_BATCH = 256;

interface Pending<I, R> {
  item: I;
  resolve(r: R): void;
  reject(err: unknown): void;
}

/**
 * Group commit: the items queued in the same event-loop turn go to the database
 * together (`many`, one transaction), which keeps SQLite's single writer from
 * committing once per request under load. A lone item, and every item of a batch
 * that `many` declined (null) or failed, takes `one`, so each caller gets exactly
 * the answer it would have got alone.
 */
export function createGroupCommit<I, R>(many: (items: I[]) => Promise<R[] | null>, one: (item: I) => Promise<R>) {
  let pending: Pending<I, R>[] = [];
  let scheduled = false;

  const alone = (p: Pending<I, R>) => one(p.item).then(p.resolve, p.reject);

  async function flush() {
    scheduled = false;
    const batch = pending.slice(0, MAX_BATCH);
    pending = pending.slice(MAX_BATCH);
    if (pending.length > 0) schedule();
    if (batch.length === 1) return alone(batch[0]);
    const results = await many(batch.map((p) => p.item)).catch(() => null);
    if (results) batch.forEach((p, i) => p.resolve(results[i]));
    else for (const p of batch) await alone(p);
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => void flush());
  }

  return (item: I): Promise<R> =>
    new Promise((resolve, reject) => {
      pending.push({ item, resolve, reject });
      schedule();
    });
}
