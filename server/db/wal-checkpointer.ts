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
