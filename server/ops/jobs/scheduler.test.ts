import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createJobScheduler, type JobDef, type JobScheduler } from './scheduler.ts';

let t: TestApp;
const schedulers: JobScheduler[] = [];

/** A logger whose JSON lines the test can read. */
function capturedLog() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}

/** One gateway instance's scheduler over the shared test database. */
function instance(jobs: JobDef[], holder?: string) {
  const s = createJobScheduler({ db: t.deps.db, log: t.deps.log }, jobs, { holder });
  schedulers.push(s);
  return s;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.deps.db.deleteFrom('job_leases').execute();
});
afterEach(async () => {
  vi.useRealTimers();
  for (const s of schedulers.splice(0)) await s.stop();
});

describe('background job scheduler', () => {
  it('reads the interval at every tick: 0 is off, a value turns the job on without a restart', async () => {
    let minutes = 0;
    let runs = 0;
    const s = instance([{ name: 'probe', intervalMs: () => minutes * 60_000, run: async () => void runs++ }]);
    await s.tick();
    expect(runs).toBe(0);
    minutes = 5;
    await s.tick();
    expect(runs).toBe(1);
    // Not due again within the interval...
    await s.tick();
    expect(runs).toBe(1);
    // ...but once it has passed (only Date is faked: the database and timers run for real).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 5 * 60_000 + 1000);
    await s.tick();
    expect(runs).toBe(2);
    // Turned off again: no more runs, however long it waits.
    minutes = 0;
    vi.setSystemTime(Date.now() + 60 * 60_000);
    await s.tick();
    expect(runs).toBe(2);
  });

  it('never overlaps a run with itself', async () => {
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const s = instance([
      {
        name: 'slow',
        intervalMs: () => 1000,
        async run() {
          runs += 1;
          active += 1;
          maxActive = Math.max(maxActive, active);
          await sleep(200);
          active -= 1;
        },
      },
    ]);
    const first = s.tick();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10_000); // due again, but still running
    await Promise.all([s.tick(), s.tick(), first]);
    expect(runs).toBe(1);
    expect(maxActive).toBe(1);
  });

  it('runs a job on one instance only when several share the database', async () => {
    let runs = 0;
    const job = (): JobDef => ({
      name: 'shared',
      intervalMs: () => 60_000,
      async run() {
        runs += 1;
        await sleep(100);
      },
    });
    const a = instance([job()], 'instance-a');
    const b = instance([job()], 'instance-b');
    const c = instance([job()], 'instance-c');
    await Promise.all([a.tick(), b.tick(), c.tick()]);
    expect(runs).toBe(1);
    // The run is over and the lease free, but the interval counts for every instance.
    await Promise.all([a.tick(), b.tick(), c.tick()]);
    expect(runs).toBe(1);
    const row = await t.deps.db.selectFrom('job_leases').selectAll().where('name', '=', 'shared').executeTakeFirst();
    expect(row).toMatchObject({ locked_until: 0 });
    expect(['instance-a', 'instance-b', 'instance-c']).toContain(row?.holder);
  });

  it('does not take over a run held by an instance that is still running it', async () => {
    let release!: () => void;
    const holding = new Promise<void>((r) => (release = r));
    let runs = 0;
    const job = (): JobDef => ({
      name: 'held',
      intervalMs: () => 1000,
      async run() {
        runs += 1;
        await holding;
      },
    });
    const a = instance([job()], 'a');
    const b = instance([job()], 'b');
    const running = a.tick();
    await sleep(50);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10_000); // due by interval, but a's lease has not expired
    await b.tick();
    expect(runs).toBe(1);
    release();
    await running;
  });

  it('logs a failing run instead of throwing, frees the lease and tries again when due', async () => {
    const { log, lines } = capturedLog();
    let runs = 0;
    const s = createJobScheduler({ db: t.deps.db, log }, [
      {
        name: 'broken',
        intervalMs: () => 1000,
        async run() {
          runs += 1;
          throw new Error('upstream unreachable');
        },
      },
    ]);
    schedulers.push(s);
    await expect(s.tick()).resolves.toBeUndefined();
    const failure = lines.find((l) => l.msg === 'background job failed');
    expect(failure).toMatchObject({ job: 'broken', err: { message: 'upstream unreachable' } });
    const row = await t.deps.db.selectFrom('job_leases').selectAll().where('name', '=', 'broken').executeTakeFirst();
    expect(row?.locked_until).toBe(0);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2000);
    await s.tick();
    expect(runs).toBe(2);
  });

  it('stop() aborts a running job and waits for it to end', async () => {
    let ended = false;
    const s = instance([
      {
        name: 'long',
        intervalMs: () => 60_000,
        async run(signal) {
          while (!signal.aborted) await sleep(10);
          await sleep(50);
          ended = true;
        },
      },
    ]);
    void s.tick();
    await sleep(50);
    await s.stop();
    expect(ended).toBe(true);
    // A stopped scheduler starts nothing.
    await s.tick();
    const row = await t.deps.db.selectFrom('job_leases').selectAll().where('name', '=', 'long').executeTakeFirst();
    expect(row?.locked_until).toBe(0);
  });
});
