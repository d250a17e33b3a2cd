import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startGatewayProcess } from '../test/gateway-process.ts';
import { gatewayEnv, gatewayNodeFlags } from './node-flags.mjs';
import { needsRedis } from '../test/skips/needs.ts';

/*
 * `npm start` runs the bundled server (scripts/build-server.mjs -> dist/server/main.mjs)
 * on plain Node, not the TypeScript source: build it and boot it like production.
 * The bundle goes to its own folder so a parallel `npm start` or bench is not disturbed.
 */

const root = path.resolve(import.meta.dirname, '..');
// Inside the repository so the bundle's external packages resolve from node_modules.
mkdirSync(path.join(root, 'node_modules/.cache'), { recursive: true });
const out = mkdtempSync(path.join(root, 'node_modules/.cache/switchyard-bundle-'));
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-bundle-data-'));
afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the production bundle', () => {
  it('builds, migrates a fresh SQLite file, serves the API and the relay, and stops cleanly on SIGTERM', async () => {
    const built = spawnSync(process.execPath, ['scripts/build-server.mjs', out], { cwd: root, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };

    const port = await freePort();
    // With `npm start`'s flags and environment (jemalloc preloaded where the machine has it).
    const env = gatewayEnv();
    const g = await startGatewayProcess({
      dataDir,
      port,
      entry: path.join(out, 'server/main.mjs'),
      nodeArgs: gatewayNodeFlags(),
      env: { ...env },
    });
    if (env.LD_PRELOAD)
      expect(
        readFileSync(`/proc/${g.proc.pid}/maps`, 'utf8'),
        'the allocator npm start picks is the one in use',
      ).toContain(env.LD_PRELOAD);
    const status = (await (await fetch(`http://127.0.0.1:${port}/api/status`)).json()) as {
      data: { version: string };
    };
    expect(status.data.version).toBe(`v${pkg.version}`);
    // A quiet start (issue 39): plain Node prints no warning for the bundle either.
    expect(g.stderr()).not.toMatch(/\(node:\d+\) \w*Warning/);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    const relay = await fetch(`http://127.0.0.1:${port}/v1/models`, { headers: { authorization: 'Bearer sk-nope' } });
    expect(relay.status).toBe(401);
    g.proc.kill('SIGTERM');
    expect(await g.exited).toBe(0);
  }, 60_000);

  // The Redis client lives in a chunk of its own, loaded only when REDIS_URL is set: it must be there and work.
  it.skipIf(!process.env.TEST_REDIS_URL)(
    needsRedis.name('loads its Redis chunk when REDIS_URL is set and keeps the limits there'),
    async () => {
      const prefix = `bundle-test-${process.pid}:`;
      const port = await freePort();
      const redisDataDir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-bundle-redis-'));
      const g = await startGatewayProcess({
        dataDir: redisDataDir,
        port,
        entry: path.join(out, 'server/main.mjs'),
        env: { REDIS_URL: process.env.TEST_REDIS_URL!, REDIS_KEY_PREFIX: prefix },
      });
      const redis = new Redis(process.env.TEST_REDIS_URL!);
      try {
        expect((await fetch(`http://127.0.0.1:${port}/api/status`)).status).toBe(200);
        // The per-IP limit of /api counted this request in Redis, under this deployment's prefix.
        expect((await redis.keys(`${prefix}*`)).length).toBeGreaterThan(0);
      } finally {
        g.proc.kill('SIGTERM');
        expect(await g.exited).toBe(0);
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length) await redis.del(...keys);
        redis.disconnect();
        rmSync(redisDataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
