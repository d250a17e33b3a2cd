import { availableParallelism } from 'node:os';
import { gatewayEnv, gatewayNodeFlags } from '../node-flags.mjs';

/*
 * A single executable cannot take Node flags on its command line (every argument goes to the
 * program), and Node 20's SEA config has no `execArgv`. So the executable starts itself once more
 * with the flags in NODE_OPTIONS and `npm start`'s allocator in LD_PRELOAD (which only works at a
 * process's start anyway), and waits for that child, passing signals on and returning its exit code.
 * (Plain JavaScript: scripts/package-sea.mjs runs without a TypeScript loader and builds the code
 * cache under the same flags.)
 *
 * --single-threaded-gc (npm start's choice on one CPU) is the one flag that cannot follow: Node refuses
 * it in NODE_OPTIONS, and setting it at run time (v8.setFlagsFromString) aborts V8 at the next
 * collection (tried on Node 20.20: "Check failed: concurrent_marking_handle_"). On one CPU the
 * executable therefore runs with V8's default GC threads; `npm start` is the way to get that flag.
 */

/** Set in the child: the flags and the allocator are in place, run the gateway. */
export const RELAUNCHED = 'SWITCHYARD_SEA_CHILD';

const REFUSED_IN_NODE_OPTIONS = new Set(['--single-threaded-gc']);

/** `npm start`'s Node flags that NODE_OPTIONS accepts. */
export function seaNodeFlags(cpus = availableParallelism()) {
  return gatewayNodeFlags(cpus).filter((f) => !REFUSED_IN_NODE_OPTIONS.has(f));
}

/** The child's environment: the operator's, plus the flags (before any NODE_OPTIONS of theirs, which win) and jemalloc. */
export function relaunchEnv(env = process.env, cpus = availableParallelism()) {
  return {
    ...env,
    ...gatewayEnv(env),
    NODE_OPTIONS: [...seaNodeFlags(cpus), env.NODE_OPTIONS].filter(Boolean).join(' '),
    [RELAUNCHED]: '1',
  };
}
