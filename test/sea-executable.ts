import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/*
 * The single executable `npm run package` builds (scripts/package-sea.mjs), built at most once per
 * source state for every test that needs it (scripts/sea.test.ts runs it; test/docker/ puts it in
 * an image). It lands where the Dockerfile copies it from, dist/switchyard-<platform>-<arch>, with a
 * stamp of the source it was built from (git HEAD, the uncommitted changes, this Node), so a second
 * test in the same run, or in the next run on unchanged code, reuses it. The console is built into a
 * temporary folder, not dist/client, which the browser tests may be serving at the same moment.
 * A lock folder keeps two test files running side by side from building it twice.
 */

const root = path.resolve(import.meta.dirname, '..');
export const executableName = `switchyard-${process.platform}-${process.arch}`;
export const executablePath = path.join(root, 'dist', executableName);
const stampPath = `${executablePath}.stamp`;
const lockDir = `${executablePath}.lock`;

/** What the build depends on; undefined outside a git checkout (then it always builds). */
function sourceStamp(): string | undefined {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  const head = git('rev-parse', 'HEAD');
  if (head.status !== 0) return undefined;
  const hash = createHash('sha256').update(process.version).update(head.stdout);
  // Uncommitted edits and new files (their names; their content once they are added or imported by an edit).
  hash.update(git('diff', 'HEAD', '--', '.', ':!docs', ':!*.md').stdout);
  hash.update(git('status', '--porcelain', '--untracked-files=all').stdout);
  return hash.digest('hex');
}

async function withLock<T>(fn: () => T): Promise<T> {
  mkdirSync(path.dirname(lockDir), { recursive: true });
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      break;
    } catch {
      // A lock whose holder died is taken over.
      const holder = Number(readFileSync(path.join(lockDir, 'pid'), { encoding: 'utf8', flag: 'a+' }) || 0);
      let alive = holder > 0;
      try {
        if (alive) process.kill(holder, 0);
      } catch {
        alive = false;
      }
      if (!alive && holder > 0) rmSync(lockDir, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`${lockDir} held for 15 minutes`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

/** Builds dist/switchyard-<platform>-<arch> unless the one there was built from this source. */
export function ensureExecutable(): Promise<{ path: string; built: boolean; log: string }> {
  return withLock(() => {
    const stamp = sourceStamp();
    if (stamp && existsSync(executablePath) && existsSync(stampPath) && readFileSync(stampPath, 'utf8') === stamp)
      return { path: executablePath, built: false, log: `single executable: reused ${executablePath} (same source)` };
    const out = mkdtempSync(path.join(os.tmpdir(), 'switchyard-sea-build-'));
    try {
      const built = spawnSync(process.execPath, ['scripts/package-sea.mjs', '--out', out], {
        cwd: root,
        encoding: 'utf8',
      });
      if (built.status !== 0) throw new Error(`npm run package failed:\n${built.stdout}\n${built.stderr}`);
      // Copied beside, then renamed: a reader never sees half a file.
      copyFileSync(path.join(out, executableName), `${executablePath}.partial`);
      renameSync(`${executablePath}.partial`, executablePath);
      if (stamp) writeFileSync(stampPath, stamp);
      else rmSync(stampPath, { force: true });
      return { path: executablePath, built: true, log: built.stdout.trim() };
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
}
