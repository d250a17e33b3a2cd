import { randomUUID } from 'node:crypto';
import type { Infra } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import { claimJobRun, ensureJobRow, readJobRow, releaseJobLease, renewJobLease } from './job-lease.repo.ts';

/** A periodic background job. */
export interface JobDef {
  /** Unique; also the lease row's key, so instances of one deployment agree on it. */
  name: string;
  /** Read at every tick, so a changed option applies without a restart; 0 (or less) = off. */
  intervalMs(): number;
  /** One run. `signal` aborts on shutdown; a long run should stop at its next safe point. */
  run(signal: AbortSignal): Promise<void>;
}

export interface JobScheduler {
  /** Starts the ticker (unref'd: it never keeps the process alive). */
  start(): void;
  /** Runs every job that is due and not running; resolves when the runs it started end. */
  tick(): Promise<void>;
  /** Stops the ticker, aborts running jobs and waits for them, so the database is not closed under them. */
  stop(): Promise<void>;
}

export interface SchedulerOptions {
  /** How often due jobs are looked for; the finest interval a job can have. */
  tickMs?: number;
  /** How long a claimed run holds the lease without renewal: the wait after an instance dies mid-run. */
  leaseMs?: number;
  /** This instance's name in the lease rows. */
  holder?: string;
}

const seconds = (ms: number) => Math.ceil(ms / 1000);

/**
 * Named periodic jobs, at most one run of each at a time across every instance
 * sharing the database: a run starts only after a conditional UPDATE on the
 * job's lease row made this instance its holder and recorded the start (see
 * job-lease.repo.ts). A failing run is logged, never thrown: the next tick tries
 * again. Long runs renew their lease, so a slow run is not taken over.
 */
export function createJobScheduler(
  infra: Pick<Infra, 'db' | 'log'>,
  jobs: JobDef[],
  opts: SchedulerOptions = {},
): JobScheduler {
  const { tickMs = 30_000, leaseMs = 5 * 60_000, holder = randomUUID() } = opts;
  const log = infra.log.child({ component: 'jobs' });
  const running = new Map<string, Promise<void>>();
  /** Last start seen in the database per job: spares a write per tick while a job is not due. */
  const lastSeenStart = new Map<string, number>();
  const rowsReady = new Set<string>();
  let abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function runIfDue(job: JobDef): Promise<void> {
    const intervalMs = job.intervalMs();
    if (intervalMs <= 0 || stopped) return;
    const now = nowSeconds();
    const interval = seconds(intervalMs);
    if (now - (lastSeenStart.get(job.name) ?? 0) < interval) return;
    if (!rowsReady.has(job.name)) {
      await ensureJobRow(infra.db, job.name);
      rowsReady.add(job.name);
    }
    const lease = { name: job.name, holder, now, intervalSeconds: interval, leaseSeconds: seconds(leaseMs) };
    if (!(await claimJobRun(infra.db, lease))) {
      // Another instance ran it (or runs it): remember when, and wait for that interval.
      const row = await readJobRow(infra.db, job.name);
      if (row) lastSeenStart.set(job.name, Number(row.last_started_at));
      return;
    }
    lastSeenStart.set(job.name, now);
    const renew = setInterval(() => {
      renewJobLease(infra.db, job.name, holder, nowSeconds() + seconds(leaseMs))
        .then((held) => {
          if (!held) log.warn({ job: job.name }, 'background job lost its lease while running');
        })
        .catch((err: unknown) => log.warn({ err, job: job.name }, 'background job lease renewal failed'));
    }, leaseMs / 3);
    renew.unref();
    const t0 = performance.now();
    try {
      await job.run(abort.signal);
      log.info({ job: job.name, ms: Math.round(performance.now() - t0) }, 'background job finished');
    } finally {
      clearInterval(renew);
      await releaseJobLease(infra.db, job.name, holder);
    }
  }

  function startIfIdle(job: JobDef): Promise<void> {
    let run = running.get(job.name);
    if (!run) {
      run = runIfDue(job)
        .catch((err: unknown) => log.error({ err, job: job.name }, 'background job failed'))
        .finally(() => running.delete(job.name));
      running.set(job.name, run);
    }
    return run;
  }

  return {
    start() {
      if (timer) clearInterval(timer);
      stopped = false;
      if (abort.signal.aborted) abort = new AbortController();
      timer = setInterval(() => void Promise.all(jobs.map(startIfIdle)), tickMs);
      timer.unref();
    },
    async tick() {
      await Promise.all(jobs.map(startIfIdle));
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      abort.abort();
      await Promise.all(running.values());
    },
  };
}
