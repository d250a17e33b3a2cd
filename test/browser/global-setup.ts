import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
/** TEST_CLIENT_DIST lets parallel runs build their own console without overwriting each other (default dist/client). */
export const clientDist = process.env.TEST_CLIENT_DIST
  ? path.resolve(process.env.TEST_CLIENT_DIST)
  : path.join(repoRoot, 'dist/client');

/** Builds the console once per test run, unless SKIP_CLIENT_BUILD=1 and a build is already there. */
export default function setup() {
  if (process.env.SKIP_CLIENT_BUILD === '1' && existsSync(path.join(clientDist, 'index.html'))) return;
  execFileSync(
    process.execPath,
    [
      path.join(repoRoot, 'node_modules/vite/bin/vite.js'),
      'build',
      '--logLevel',
      'warn',
      '--outDir',
      clientDist,
      '--emptyOutDir',
    ],
    // The console as it ships: Vitest sets NODE_ENV=test, which would build React's development code (issue 45).
    { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
}
