import type { OptionReader } from '../../../shared/options.ts';
import type { Infra } from '../../context.ts';
import type { NewLog } from './logs.table.ts';
import { insertLogs } from './insert-logs.repo.ts';
import { addToQuotaData } from './quota-data.repo.ts';

export interface LogWriter {
  /** Queues one log row; never waits for the database. */
  write(row: NewLog): void;
  /** Writes everything queued so far (tests, shutdown). */
  flush(): Promise<void>;
  /** Flushes and stops the timer; later writes are flushed at once. */
  close(): Promise<void>;
}

const FLUSH_AFTER_MS = 50;
const FLUSH_AT_ROWS = 200;

/**
 * Log rows that are not written with a settlement (errors, system and task-poll rows)
 * must never delay a relay response, and one transaction per row would serialise the
 * relay on SQLite's writer. They are queued in memory and written in batches (group
 * commit) every 50 ms or 200 rows, in one transaction with their hourly `quota_data`.
 * A clean shutdown flushes the queue (the relay registers `close` on the app's onClose
 * hook). Consume rows of relayed requests are not queued here: they, and their
 * `quota_data`, are written in their settlement's transaction (billing).
 */
export function createLogWriter(infra: Pick<Infra, 'db' | 'log'>, opt: OptionReader): LogWriter {
  let queue: NewLog[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let closed = false;

  function schedule() {
    if (queue.length >= FLUSH_AT_ROWS || closed) void flush();
    else if (!timer) timer = setTimeout(() => void flush(), FLUSH_AFTER_MS);
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = queue;
    queue = [];
    // Batches are written one after another so that a slow flush never overlaps the next.
    running = running.then(() => (batch.length > 0 ? writeBatch(batch) : undefined));
    return running;
  }

  async function writeBatch(batch: NewLog[]) {
    const logs = opt('LogConsumeEnabled') ? batch : batch.filter((r) => r.type !== 2);
    try {
      await infra.db.transaction().execute(async (trx) => {
        await insertLogs(trx, logs);
        if (opt('DataExportEnabled')) await addToQuotaData(trx, batch);
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
    flush,
    async close() {
      closed = true;
      await flush();
    },
  };
}
