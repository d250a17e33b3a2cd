import { Worker } from 'node:worker_threads';

/*
 * SQLite in WAL mode with synchronous=NORMAL never fsyncs on commit; it fsyncs when
 * it checkpoints (copies the WAL back into the database file), and by default the
 * connection that commits past 1,000 WAL pages does that inside its commit. For the
 * gateway that is the event loop: 4-8 ms of copying and fsync a few times a second
 * under load, which every request waiting at that moment pays. So the relay's
 * connection turns automatic checkpoints off and a worker thread, with a connection
 * of its own, checkpoints in the background instead. PASSIVE never waits for (or
 * blocks) the readers and the writer; the writer rewinds the WAL once a checkpoint
 * has caught up, so the file stays small.
 *
 * The thread costs ~8 MB (a V8 isolate), so it runs only while the database is busy
 * (`manageWalCheckpoints`): a quiet server checkpoints as SQLite does by default,
 * rarely, and gives the memory back.
 *
 * The worker's code is a string evaluated in the thread so that the same code runs
 * from source (tsx, Vitest) and from the bundle without a separate build entry;
 * `createRequire` resolves better-sqlite3 from this module's location in both.
 */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('node:module').createRequire(workerData.from)('better-sqlite3');
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try { checkpoint.get(); } catch { /* busy or closing: the next tick tries again */ }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointer {
  /** Stops the thread and closes its connection (before the main connection closes). */
  stop(): Promise<void>;
}

/**
 * Starts checkpointing `file` every `everyMs` from a worker thread; the caller turns
 * wal_autocheckpoint off, and `onLost` turns it back on if the thread fails or dies.
 */
export function startWalCheckpointer(file: string, onLost: (err?: Error) => void, everyMs = 100): WalCheckpointer {
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: { file, everyMs, from: import.meta.url },
    // The thread only copies pages: keep its heap small.
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 },
  });
  worker.unref();
  let stopping = false;
  worker.on('error', (err) => onLost(err));
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (!stopping) onLost();
      resolve();
    }),
  );
  return {
    async stop() {
      stopping = true;
      worker.postMessage('stop');
      await exited;
    },
  };
}

/** SQLite's own automatic checkpoint threshold (pages), restored while no thread checkpoints. */
const SQLITE_AUTO_CHECKPOINT_PAGES = 1000;

export interface WalCheckpointOptions {
  /** How often the write rate is read. */
  checkMs: number;
  /** Rows written per second from which checkpoints move to the thread. */
  busyRowsPerSecond: number;
  /** Quiet checks in a row after which the thread stops. */
  quietChecks: number;
}

const defaults: WalCheckpointOptions = { checkMs: 2_000, busyRowsPerSecond: 200, quietChecks: 10 };

/**
 * Moves checkpoints to the thread when the database is written fast (the relay under
 * load: every request reserves, settles and logs) and back to SQLite's automatic
 * checkpoint once the writes have been slow for `quietChecks` checks (20 s by default).
 * `rowsWritten` is the connection's running count of changed rows (total_changes()).
 */
export function manageWalCheckpoints(
  conn: { file: string; rowsWritten(): number; setAutoCheckpoint(pages: number): void },
  options: Partial<WalCheckpointOptions> = {},
): { stop(): Promise<void> } {
  const o = { ...defaults, ...options };
  let thread: WalCheckpointer | undefined;
  let quiet = 0;
  let last = conn.rowsWritten();

  const stopThread = async () => {
    const t = thread;
    thread = undefined;
    conn.setAutoCheckpoint(SQLITE_AUTO_CHECKPOINT_PAGES);
    await t?.stop();
  };
  const check = () => {
    const now = conn.rowsWritten();
    const busy = ((now - last) * 1000) / o.checkMs >= o.busyRowsPerSecond;
    last = now;
    if (busy && !thread) {
      quiet = 0;
      const started = startWalCheckpointer(conn.file, () => {
        // Failed or died: SQLite checkpoints by itself again; the next busy check may retry.
        if (thread === started) void stopThread();
      });
      thread = started;
      conn.setAutoCheckpoint(0);
    } else if (busy) quiet = 0;
    else if (thread && ++quiet >= o.quietChecks) void stopThread();
  };
  const timer = setInterval(check, o.checkMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await stopThread();
    },
  };
}
