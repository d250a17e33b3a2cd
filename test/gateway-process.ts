import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/*
 * The real gateway as a child process (node --import tsx server/main.ts) on a
 * SQLite file in `dataDir`, for tests of what only a process shows: crashes,
 * signals, exit codes. Seed the file with createTestApp({}, {dataDir, sqlDsn})
 * and close that app before starting the process.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const p = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return p;
}

export interface GatewayProcess {
  proc: ChildProcess;
  /** What the process wrote to stderr so far (startup failures, crashes). */
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/** Starts the gateway and resolves once /api/status answers. */
export async function startGatewayProcess(o: {
  dataDir: string;
  port: number;
  env?: Record<string, string>;
  /** A built bundle (e.g. dist/server/main.mjs, what `npm start` runs) instead of the TypeScript source. */
  entry?: string;
  /** Node flags before the entry point (e.g. `npm start`'s). */
  nodeArgs?: string[];
}): Promise<GatewayProcess> {
  const args = [...(o.nodeArgs ?? []), ...(o.entry ? [o.entry] : ['--import', 'tsx', 'server/main.ts'])];
  const proc = spawn(process.execPath, args, {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      ...process.env,
      DATA_DIR: o.dataDir,
      SQL_DSN: path.join(o.dataDir, 'switchyard.db'),
      REDIS_URL: '',
      PORT: String(o.port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SESSION_SECRET: 'process-test-session-secret-01',
      CLIENT_DIST: path.join(o.dataDir, 'no-client'),
      ...o.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  for (let i = 0; i < 150; i++) {
    if (proc.exitCode !== null) throw new Error(`gateway exited early: ${stderr}`);
    const ok = await fetch(`http://127.0.0.1:${o.port}/api/status`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return { proc, stderr: () => stderr, exited };
    await sleep(100);
  }
  proc.kill('SIGKILL');
  throw new Error(`gateway did not start: ${stderr}`);
}
