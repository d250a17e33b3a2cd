import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * The Node/V8 flags the gateway runs with (`npm start`, and the bench, which measures it as started),
 * for a process that may run on `cpus` CPUs (its affinity: `taskset`, a cpuset).
 * --expose-gc: the heap trim (server/ops/heap-trim.ts) gives a burst's memory back once traffic stops.
 * --max-semi-space-size: the young generation tops out at 2 x 8 MB instead of 2 x 16 MB; measured by
 *   `npm run bench`, 16 MB less RSS at idle for no throughput loss within the run-to-run noise.
 * --single-threaded-gc, on one CPU only: V8's GC helper threads (parallel scavenges, concurrent
 *   marking) can only take turns with the event loop there, which then stalls while they run. Measured
 *   by the bench, whose gateway has one CPU: open-loop p99 at 1,000 requests/s 8-20 ms instead of
 *   22-75 ms, throughput 0.45 of the bare proxy instead of 0.41 in the same run.
 */
export function gatewayNodeFlags(cpus = availableParallelism()) {
  return ['--expose-gc', '--max-semi-space-size=8', ...gcThreadFlags(cpus)];
}

/** The garbage-collector threading part of those flags alone (the bench's bare proxy gets it too). */
export function gcThreadFlags(cpus = availableParallelism()) {
  return cpus <= 1 ? ['--single-threaded-gc'] : [];
}

// Where Linux distributions put jemalloc's shared library (Debian/Ubuntu multiarch, Alpine, Fedora).
const MULTIARCH = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' };
export function jemallocCandidates(arch = process.arch) {
  const triple = MULTIARCH[arch];
  return [
    ...(triple ? [`/usr/lib/${triple}/libjemalloc.so.2`] : []),
    '/usr/lib/libjemalloc.so.2',
    '/usr/lib64/libjemalloc.so.2',
    '/usr/local/lib/libjemalloc.so.2',
  ];
}

// jemalloc's settings: its background thread purges unused pages, and does so ~1 s after they were
// freed instead of its default ~10 s. Measured by `npm run bench` (same build, back to back): RSS
// after the 1,000-stream burst 103 MB instead of 122-127, 124 instead of 150-155 right after the
// warm-up, and no throughput difference within the run-to-run noise.
export const JEMALLOC_CONF = 'background_thread:true,dirty_decay_ms:1000';

/**
 * The environment the gateway process gets on top of its own: jemalloc as the allocator when the
 * system has it. glibc's malloc keeps the native memory a burst used (sockets, SQLite's page cache)
 * as free space inside its heap, and Node cannot call malloc_trim; jemalloc hands unused pages back
 * to the OS on its own (JEMALLOC_CONF). Measured by `npm run bench`: RSS 45 s after 1,000 streams
 * ~103 MB instead of 134-158 MB. SWITCHYARD_MALLOC=system keeps glibc; an LD_PRELOAD or MALLOC_CONF
 * the operator set is left alone.
 */
export function gatewayEnv(env = process.env, { platform = process.platform, exists = existsSync, arch } = {}) {
  if (platform !== 'linux' || env.SWITCHYARD_MALLOC === 'system' || env.LD_PRELOAD) return {};
  const lib = jemallocCandidates(arch).find((p) => exists(p));
  if (!lib) return {};
  return { LD_PRELOAD: lib, MALLOC_CONF: env.MALLOC_CONF || JEMALLOC_CONF };
}
