import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const clientDist = path.join(repoRoot, 'dist/client');

/** Builds the console once per test run, unless SKIP_CLIENT_BUILD=1 and a build is already there. */
export default function setup() {
  if (process.env.SKIP_CLIENT_BUILD === '1' && existsSync(path.join(clientDist, 'index.html'))) return;
  execFileSync(
    process.execPath,
    [path.join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: repoRoot,
      stdio: 'inherit',
    },
  );
}
