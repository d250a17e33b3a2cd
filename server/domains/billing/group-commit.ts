const MAX_BATCH = 256;

interface Pending<I, R> {
  item: I;
  resolve(r: R): void;
  reject(err: unknown): void;
}

/**
 * Group commit: the items queued together go to the database together (`many`, one
 * transaction), which keeps SQLite's single writer from committing once per request
 * under load. With `delayMs` 0 a batch is what the same event-loop turn queued (for
 * work a client waits on); with a delay, what the next `delayMs` queue (for work done
 * after the answer: it then runs while requests wait on their upstreams instead of
 * right when the client's next request arrives). A lone item, and every item of a
 * batch that `many` declined (null) or failed, takes `one`, so each caller gets
 * exactly the answer it would have got alone.
 */
export function createGroupCommit<I, R>(
  many: (items: I[]) => Promise<R[] | null>,
  one: (item: I) => Promise<R>,
  delayMs = 0,
) {
  let pending: Pending<I, R>[] = [];
  let scheduled = false;
  let timer: NodeJS.Timeout | undefined;

  const alone = (p: Pending<I, R>) => one(p.item).then(p.resolve, p.reject);

  async function flush() {
    scheduled = false;
    timer = undefined;
    const batch = pending.slice(0, MAX_BATCH);
    pending = pending.slice(MAX_BATCH);
    if (pending.length > 0) schedule();
    if (batch.length === 0) return;
    if (batch.length === 1) return alone(batch[0]);
    const results = await many(batch.map((p) => p.item)).catch(() => null);
    if (results) batch.forEach((p, i) => p.resolve(results[i]));
    else for (const p of batch) await alone(p);
  }

  function schedule() {
    // A full batch does not wait out the delay.
    if (pending.length >= MAX_BATCH && timer) {
      clearTimeout(timer);
      timer = undefined;
      scheduled = false;
    }
    if (scheduled) return;
    scheduled = true;
    if (delayMs > 0 && pending.length < MAX_BATCH) timer = setTimeout(() => void flush(), delayMs);
    else setImmediate(() => void flush());
  }

  return (item: I): Promise<R> =>
    new Promise((resolve, reject) => {
      pending.push({ item, resolve, reject });
      schedule();
    });
}
