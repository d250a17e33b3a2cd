import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gatewayEnv, gatewayNodeFlags, JEMALLOC_CONF, jemallocCandidates } from './node-flags.mjs';
import { needs } from '../test/skips/needs.ts';

const jemalloc = needs('libjemalloc2 installed (apt-get install libjemalloc2)', Boolean(gatewayEnv().LD_PRELOAD));
const taskset = needs('taskset installed (util-linux)', existsSync('/usr/bin/taskset'));

const debianJemalloc = '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';
const onlyDebian = (p: string) => p === debianJemalloc;

describe('the allocator npm start gives the gateway', () => {
  it('preloads jemalloc, with its background purging thread, when the system has the library', () => {
    expect(gatewayEnv({}, { platform: 'linux', arch: 'x64', exists: onlyDebian })).toEqual({
      LD_PRELOAD: debianJemalloc,
      MALLOC_CONF: JEMALLOC_CONF,
    });
    // An operator's own jemalloc settings win.
    expect(
      gatewayEnv({ MALLOC_CONF: 'narenas:2' }, { platform: 'linux', arch: 'x64', exists: onlyDebian }),
    ).toMatchObject({ MALLOC_CONF: 'narenas:2' });
    expect(jemallocCandidates('arm64')[0]).toBe('/usr/lib/aarch64-linux-gnu/libjemalloc.so.2');
  });

  it('keeps the system allocator when asked, when LD_PRELOAD is already set, off Linux, or without the library', () => {
    const linux = { platform: 'linux', arch: 'x64', exists: onlyDebian };
    expect(gatewayEnv({ SWITCHYARD_MALLOC: 'system' }, linux)).toEqual({});
    expect(gatewayEnv({ LD_PRELOAD: '/opt/other.so' }, linux)).toEqual({});
    expect(gatewayEnv({}, { ...linux, platform: 'darwin' })).toEqual({});
    expect(gatewayEnv({}, { ...linux, exists: () => false })).toEqual({});
  });

  it.skipIf(!jemalloc.ok)(
    jemalloc.name('on this machine, a Node started with that environment runs on jemalloc'),
    () => {
      const { MALLOC_CONF: _operators, ...env } = process.env;
      const run = spawnSync(
        process.execPath,
        [
          '-e',
          "process.stdout.write(String(require('fs').readFileSync('/proc/self/maps', 'utf8').includes('libjemalloc')))",
        ],
        { env: { ...env, ...gatewayEnv(env) }, encoding: 'utf8' },
      );
      expect(run.stdout).toBe('true');
      // jemalloc warns on stderr about every setting it does not understand, and then ignores it.
      expect(run.stderr).not.toContain('<jemalloc>');
    },
  );
});

describe('the Node flags npm start gives the gateway', () => {
  const flagsUnder = (cpuList: string) =>
    spawnSync(
      '/usr/bin/taskset',
      [
        '-c',
        cpuList,
        process.execPath,
        '--input-type=module',
        '-e',
        "import('./scripts/node-flags.mjs').then((m) => process.stdout.write(JSON.stringify(m.gatewayNodeFlags())))",
      ],
      { encoding: 'utf8' },
    );

  it.skipIf(!taskset.ok)(
    taskset.name('runs V8’s GC on the event loop’s thread when the process may use one CPU only, not otherwise'),
    () => {
      expect(JSON.parse(flagsUnder('0').stdout)).toContain('--single-threaded-gc');
      expect(gatewayNodeFlags(2)).not.toContain('--single-threaded-gc');
      expect(gatewayNodeFlags(1)).toEqual([...gatewayNodeFlags(2), '--single-threaded-gc']);
    },
  );

  it('every flag is one this Node accepts (a misspelt V8 flag stops node from starting)', () => {
    const run = spawnSync(process.execPath, [...gatewayNodeFlags(1), '-e', 'process.stdout.write("ok")'], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('ok');
  });
});
