import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export interface Proc {
  url: string;
  child: ChildProcess;
  /** Resident set size of the process now, in MB (Linux /proc). */
  rssMb(): number;
  /** CPU time the process has used so far (user + system, all threads), in seconds (Linux /proc). */
  cpuSeconds(): number;
  /**
   * CPU time used so far to the nanosecond (Linux schedstat, summed over the threads alive now): precise
   * enough to read around a single request, where cpuSeconds' 10 ms ticks are not.
   */
  cpuNs(): number;
  stop(): Promise<void>;
}

/** `taskset -c <cpu>` when the machine has it and the CPU exists; otherwise unpinned. */
function pinned(cpu: number | undefined, argv: string[]): string[] {
  if (cpu === undefined) return argv;
  try {
    readFileSync('/usr/bin/taskset');
  } catch {
    return argv;
  }
  return ['/usr/bin/taskset', '-c', String(cpu), ...argv];
}

/**
 * Starts an entry point in its own Node process (its own event loop and
 * CPU, as in production) and resolves once it printed a URL on stdout, or, with
 * `readyUrl`, once that URL answers.
 */
export async function startNode(
  script: string,
  opts: {
    args?: string[];
    nodeArgs?: string[];
    env?: Record<string, string>;
    cpu?: number;
    readyPath?: string;
    port?: number;
    /** Writes the process's stdout (its log) to this file instead of discarding it. */
    stdoutFile?: string;
  } = {},
): Promise<Proc> {
  const argv = pinned(opts.cpu, [
    process.execPath,
    ...(opts.nodeArgs ?? []),
    // TypeScript entry points run through tsx; built bundles (.mjs) on plain Node.
    ...(script.endsWith('.ts') ? ['--import', 'tsx'] : []),
    script,
    ...(opts.args ?? []),
  ]);
  const child = spawn(argv[0], argv.slice(1), {
    cwd: root,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const fail = () => reject(new Error(`${script} exited early: ${stderr}`));
    child.once('exit', fail);
    if (opts.readyPath && opts.port) {
      const base = `http://127.0.0.1:${opts.port}`;
      const poll = async () => {
        for (let i = 0; i < 300; i++) {
          const ok = await fetch(base + opts.readyPath)
            .then((r) => r.ok)
            .catch(() => false);
          if (ok) return resolve(base);
          await new Promise((r) => setTimeout(r, 100));
        }
        reject(new Error(`${script} did not become ready: ${stderr}`));
      };
      void poll();
    } else {
      let out = '';
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /http:\/\/[\d.]+:\d+/.exec(out);
        if (m) resolve(m[0]);
      });
    }
  }).finally(() => child.removeAllListeners('exit'));
  if (opts.stdoutFile) child.stdout?.pipe(createWriteStream(opts.stdoutFile));
  else child.stdout?.resume();
  return {
    url,
    child,
    rssMb() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    cpuSeconds() {
      // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised name), in USER_HZ ticks: 100 a second on Linux.
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    cpuNs() {
      let ns = 0;
      for (const tid of readdirSync(`/proc/${child.pid}/task`)) {
        try {
          ns += Number(readFileSync(`/proc/${child.pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        } catch {
          // The thread ended between the listing and the read.
        }
      }
      return ns;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
