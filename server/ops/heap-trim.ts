import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';

/*
 * Gives a burst's memory back once the gateway goes quiet. V8 sizes the old generation
 * for the load it has just seen, and its memory reducer only re-arms after a GC that
 * grew the heap; after a burst (a thousand streams, a load test) nothing allocates
 * enough to cause one, so the garbage the burst left stays committed, 100 MB and more
 * of RSS on an idle box, until the next burst. When the event loop has been nearly
 * idle for a while and the heap holds much more than after the last trim, one
 * compacting full GC (tens of milliseconds, paid only when there is no traffic to
 * delay) returns the empty pages to the OS. A plain full GC frees the garbage but
 * keeps half-empty pages, so compaction is switched on for that one collection.
 * Caches outside the V8 heap that a burst filled (SQLite's page cache) are asked to let
 * go at the same moment; the allocator (jemalloc under `npm start`) returns those pages.
 *
 * It needs `gc` (node --expose-gc, which `npm start` passes); without it, it is off.
 */

export interface HeapTrimOptions {
  /** How often the loop's idleness and the heap are read. */
  checkMs: number;
  /** Consecutive checks the event loop must stay below `quietUtilization` before a trim. */
  quietChecks: number;
  /** Event-loop utilization (0..1) under which a check counts as quiet. */
  quietUtilization: number;
  /** Committed heap growth since the last trim (or start) that makes a trim worthwhile. */
  minGrowthBytes: number;
}

export const HEAP_TRIM_DEFAULTS: HeapTrimOptions = {
  checkMs: 5000,
  quietChecks: 2,
  // Under 10% busy. A trim is a stop-the-world GC of tens of milliseconds; measured on the bench's VM,
  // 10 requests a second keep the loop 3-6% busy, 50 a second 15-25%, so steady traffic never pays it.
  quietUtilization: 0.1,
  // 16 MB: a burst's garbage left behind is past it; a trickle of traffic takes minutes to get there.
  minGrowthBytes: 16 * 1024 * 1024,
};

/** What a trim decision reads and does; the real process by default, replaceable in tests. */
export interface HeapTrimProbe {
  /** Event-loop utilization since the previous call (0..1). */
  utilization(): number;
  committedHeapBytes(): number;
  /** Releases the native caches, then runs one compacting full GC. */
  trim(): void;
}

export interface HeapTrimResult {
  beforeBytes: number;
  afterBytes: number;
  ms: number;
}

/** The decision, without timers: call `check()` every `checkMs`. */
export function createHeapTrimmer(probe: HeapTrimProbe, o: HeapTrimOptions = HEAP_TRIM_DEFAULTS) {
  let baseline = probe.committedHeapBytes();
  let quiet = 0;
  return {
    /** Reads the loop and the heap; trims when quiet long enough and grown enough. */
    check(): HeapTrimResult | undefined {
      quiet = probe.utilization() < o.quietUtilization ? quiet + 1 : 0;
      const beforeBytes = probe.committedHeapBytes();
      if (quiet < o.quietChecks || beforeBytes < baseline + o.minGrowthBytes) {
        // The heap may also shrink by itself (V8's own reducer): follow it down, so growth is measured from there.
        baseline = Math.min(baseline, beforeBytes);
        return undefined;
      }
      const started = performance.now();
      probe.trim();
      const afterBytes = probe.committedHeapBytes();
      baseline = afterBytes;
      quiet = 0;
      return { beforeBytes, afterBytes, ms: performance.now() - started };
    },
  };
}

type GcFunction = () => void;

/** This process's probe, or undefined when `gc` is not exposed. */
export function processHeapProbe(releaseCaches: () => void = () => {}): HeapTrimProbe | undefined {
  const gc = (globalThis as { gc?: GcFunction }).gc;
  if (typeof gc !== 'function') return undefined;
  let last = performance.eventLoopUtilization();
  return {
    utilization() {
      const now = performance.eventLoopUtilization();
      const delta = performance.eventLoopUtilization(now, last);
      last = now;
      return delta.utilization;
    },
    committedHeapBytes: () => v8.getHeapStatistics().total_heap_size,
    trim() {
      releaseCaches();
      v8.setFlagsFromString('--compact-on-every-full-gc');
      try {
        gc();
      } finally {
        v8.setFlagsFromString('--no-compact-on-every-full-gc');
      }
    },
  };
}

/**
 * Starts the periodic check on this process; returns a stop function (a no-op without `gc`).
 * `releaseCaches` runs right before each trim.
 */
export function startHeapTrim(
  onTrim: (r: HeapTrimResult) => void,
  releaseCaches?: () => void,
  o: HeapTrimOptions = HEAP_TRIM_DEFAULTS,
): () => void {
  const probe = processHeapProbe(releaseCaches);
  if (!probe) return () => {};
  const trimmer = createHeapTrimmer(probe, o);
  const timer = setInterval(() => {
    const r = trimmer.check();
    if (r) onTrim(r);
  }, o.checkMs).unref();
  return () => clearInterval(timer);
}
