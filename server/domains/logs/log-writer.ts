import { sql } from 'kysely';
import type { Infra } from '../../context.ts';
import type { NewLog } from '../../db/types.ts';
import type { OptionReader } from '../billing/pricing.ts';
import { insertLogs } from './insert-logs.ts';

export interface LogWriter {
  /** Queues one log row; never waits for the database. */
  write(row: NewLog): void;
  /** Counts a consume row already written elsewhere (with its settlement) in the hourly `quota_data`. */
  countUsage(row: NewLog): void;
  /** Writes everything queued so far (tests, shutdown). */
  flush(): Promise<void>;
  /** Flushes and stops the timer; later writes are flushed at once. */
  close(): Promise<void>;
}

const FLUSH_AFTER_MS = 50;
const FLUSH_AT_ROWS = 200;

/**
 * Log rows that are not written with a settlement (errors, system and task-poll rows),
 * and the hourly `quota_data` statistics, must never delay a relay response, and one
 * transaction per row would serialise the relay on SQLite's writer. They are queued in
 * memory and written in batches (group commit) every 50 ms or 200 rows, in one
 * transaction. A clean shutdown flushes the queue (the relay registers `close` on the
 * app's onClose hook). Consume rows of relayed requests are not queued here: they are
 * written in their settlement's transaction (billing), and only counted here.
 */
export function createLogWriter(infra: Pick<Infra, 'db' | 'log'>, opt: OptionReader): LogWriter {
  let queue: NewLog[] = [];
  // quota_data sums of consume rows written elsewhere (with their settlement), added up as they
  // come: holding the rows themselves until the flush kept every request's row alive for 50 ms.
  let counted = new Map<string, Bucket>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let closed = false;

  function schedule() {
    if (queue.length + counted.size >= FLUSH_AT_ROWS || closed) void flush();
    else if (!timer) timer = setTimeout(() => void flush(), FLUSH_AFTER_MS);
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = queue;
    const countOnly = counted;
    queue = [];
    counted = new Map();
    // Batches are written one after another so that a slow flush never overlaps the next.
    running = running.then(() => (batch.length + countOnly.size > 0 ? writeBatch(batch, countOnly) : undefined));
    return running;
  }

  async function writeBatch(batch: NewLog[], countOnly: Map<string, Bucket>) {
    const logs = opt('LogConsumeEnabled') ? batch : batch.filter((r) => r.type !== 2);
    if (opt('DataExportEnabled')) for (const r of batch) addToBucket(countOnly, r);
    const buckets = opt('DataExportEnabled') ? [...countOnly.values()] : [];
    try {
      await infra.db.transaction().execute(async (trx) => {
        await insertLogs(trx, logs);
        for (const b of buckets)
          await trx
            .insertInto('quota_data')
            .values(b)
            .onConflict((oc) =>
              oc.columns(['user_id', 'model_name', 'created_at']).doUpdateSet({
                token_used: sql`quota_data.token_used + ${b.token_used}`,
                count: sql`quota_data.count + ${b.count}`,
                quota: sql`quota_data.quota + ${b.quota}`,
                username: b.username,
              }),
            )
            .execute();
      });
    } catch (err) {
      infra.log.error({ err, rows: batch.length }, 'writing consume logs failed');
    }
  }

  return {
    write(row) {
      queue.push(row);
      schedule();
    },
    countUsage(row) {
      if (!opt('DataExportEnabled')) return;
      addToBucket(counted, row);
      schedule();
    },
    flush,
    async close() {
      closed = true;
      await flush();
    },
  };
}

interface Bucket {
  user_id: number;
  username: string;
  model_name: string;
  created_at: number;
  token_used: number;
  count: number;
  quota: number;
}

/** Adds a consume row to its (user, model, hour) bucket, so one batch makes one upsert per bucket. */
function addToBucket(map: Map<string, Bucket>, r: NewLog): void {
  if (r.type !== 2) return;
  const hour = r.created_at - (r.created_at % 3600);
  const key = `${r.user_id}\u0000${r.model_name}\u0000${hour}`;
  let b = map.get(key);
  if (!b) {
    b = {
      user_id: r.user_id ?? 0,
      username: r.username ?? '',
      model_name: r.model_name ?? '',
      created_at: hour,
      token_used: 0,
      count: 0,
      quota: 0,
    };
    map.set(key, b);
  }
  b.token_used += (r.prompt_tokens ?? 0) + (r.completion_tokens ?? 0);
  b.count += 1;
  b.quota += r.quota ?? 0;
}
