import type { Infra } from '../../context.ts';

/** One platform's poll: fetches its unfinished tasks upstream and stores what changed. */
export type PollJob = () => Promise<void>;

export interface TaskPoller {
  /** Runs every job once (a run already going is awaited instead of overlapped). */
  pollOnce(): Promise<void>;
  /** (Re)starts the timer; tests use a short interval. */
  start(intervalMs?: number): void;
  /** Stops the timer and waits for a running poll, so the database is not closed under it. */
  stop(): Promise<void>;
}

export const DEFAULT_POLL_INTERVAL_MS = 15_000;

/**
 * Background polling of unfinished drawing and music tasks. Runs never overlap
 * (a slow upstream would otherwise stack polls on the same rows), one failing
 * job never stops the others, and `stop` lets the app close cleanly.
 */
export function createTaskPoller(infra: Pick<Infra, 'log'>, jobs: PollJob[]): TaskPoller {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let stopped = false;

  async function runAll() {
    for (const job of jobs) {
      try {
        await job();
      } catch (err) {
        infra.log.warn({ err }, 'task poll failed');
      }
    }
  }

  function pollOnce(): Promise<void> {
    running ??= runAll().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    pollOnce,
    start(intervalMs = DEFAULT_POLL_INTERVAL_MS) {
      if (timer) clearInterval(timer);
      stopped = false;
      timer = setInterval(() => {
        if (!stopped) void pollOnce();
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      if (running) await running;
    },
  };
}
