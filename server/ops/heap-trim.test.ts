import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHeapTrimmer, HEAP_TRIM_DEFAULTS, type HeapTrimProbe } from './heap-trim.ts';

const MB = 2 ** 20;

/** A probe whose loop utilization and committed heap the test sets; counts the GCs asked for. */
function fakeProbe(heapMb: number) {
  const state = { utilization: 0, heapMb, afterGcMb: 40, gcs: 0 };
  const probe: HeapTrimProbe = {
    utilization: () => state.utilization,
    committedHeapBytes: () => state.heapMb * MB,
    trim() {
      state.gcs++;
      state.heapMb = state.afterGcMb;
    },
  };
  return { state, probe };
}

describe('heap trim decision', () => {
  it('trims only after the loop stayed quiet for the configured checks and the heap grew', () => {
    const { state, probe } = fakeProbe(50);
    const trimmer = createHeapTrimmer(probe);
    // A burst: busy loop, heap grows to 130 MB; no trim while busy.
    state.utilization = 0.9;
    state.heapMb = 130;
    expect(trimmer.check()).toBeUndefined();
    // Quiet again: one quiet check is not enough (a pause inside a burst).
    state.utilization = 0.01;
    expect(trimmer.check()).toBeUndefined();
    const r = trimmer.check();
    expect(r).toMatchObject({ beforeBytes: 130 * MB, afterBytes: 40 * MB });
    expect(state.gcs).toBe(1);
    // Still quiet, heap unchanged: no second trim.
    expect(trimmer.check()).toBeUndefined();
    expect(trimmer.check()).toBeUndefined();
    expect(state.gcs).toBe(1);
  });

  it('does not trim a heap that did not grow by the threshold, however quiet', () => {
    const { state, probe } = fakeProbe(50);
    const trimmer = createHeapTrimmer(probe);
    state.heapMb = 50 + HEAP_TRIM_DEFAULTS.minGrowthBytes / MB - 1;
    for (let i = 0; i < 5; i++) expect(trimmer.check()).toBeUndefined();
    expect(state.gcs).toBe(0);
  });

  it('measures growth from where the heap shrank to by itself', () => {
    const { state, probe } = fakeProbe(80);
    const trimmer = createHeapTrimmer(probe);
    state.heapMb = 45; // V8's own reducer ran
    expect(trimmer.check()).toBeUndefined();
    // 80 MB was the start, but growth counts from 45: this is enough.
    const grown = 45 + HEAP_TRIM_DEFAULTS.minGrowthBytes / MB + 1;
    state.heapMb = grown;
    expect(trimmer.check()).toMatchObject({ beforeBytes: grown * MB });
  });

  it('never trims under steady traffic (the loop 15% busy: some 50 requests a second)', () => {
    const { state, probe } = fakeProbe(50);
    const trimmer = createHeapTrimmer(probe);
    state.heapMb = 130;
    state.utilization = 0.15;
    for (let i = 0; i < 10; i++) expect(trimmer.check()).toBeUndefined();
    expect(state.gcs).toBe(0);
  });

  it('a busy check in between restarts the quiet count', () => {
    const { state, probe } = fakeProbe(50);
    const trimmer = createHeapTrimmer(probe);
    state.heapMb = 120;
    state.utilization = 0.01;
    trimmer.check();
    state.utilization = 0.5;
    trimmer.check();
    state.utilization = 0.01;
    expect(trimmer.check()).toBeUndefined();
    expect(trimmer.check()).toBeDefined();
  });
});

describe('heap trim on a real V8 heap', () => {
  it('gives back the old generation a burst of promoted garbage left committed, once the loop is quiet', () => {
    // Its own process: `gc` must be exposed, and the heap must be this script's alone.
    const script = `
      import { createHeapTrimmer, processHeapProbe } from ${JSON.stringify(path.join(import.meta.dirname, 'heap-trim.ts'))};
      import v8 from 'node:v8';
      let released = 0;
      const probe = processHeapProbe(() => released++);
      const trimmer = createHeapTrimmer(probe, { checkMs: 0, quietChecks: 2, quietUtilization: 0.5, minGrowthBytes: 16 * 2 ** 20 });
      // A burst: objects that live long enough to be promoted, then dropped, with a few survivors
      // scattered among them (what leaves old-generation pages half empty).
      let live = [];
      const survivors = [];
      for (let i = 0; i < 600_000; i++) {
        live.push({ i, s: 'request ' + i, a: [i, i + 1] });
        if (i % 2000 === 0) survivors.push(live[live.length - 1]);
        if (live.length > 200_000) live = [];
      }
      live = [];
      // The old generation is what the trim gives back (the young one is a fixed reservation).
      const oldSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_size;
      const oldBefore = oldSpace();
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      let result;
      for (let i = 0; i < 4 && !result; i++) { await sleep(200); result = trimmer.check(); }
      console.log(JSON.stringify({ oldBefore, oldAfter: oldSpace(), result, released, kept: survivors.length }));
    `;
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: path.resolve(import.meta.dirname, '../..'),
    });
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout.trim()) as {
      oldBefore: number;
      oldAfter: number;
      result?: { beforeBytes: number; afterBytes: number };
      released: number;
    };
    expect(out.result, 'the trim ran once the loop was quiet').toBeDefined();
    expect(out.result!.afterBytes).toBeLessThan(out.result!.beforeBytes);
    expect(out.released, 'native caches (SQLite) were asked to let go with the trim').toBe(1);
    expect(out.oldBefore).toBeGreaterThan(30 * MB);
    // The old generation the burst grew goes back to a few MB once the loop is quiet.
    expect(out.oldAfter).toBeLessThan(out.oldBefore / 3);
  }, 30_000);
});
