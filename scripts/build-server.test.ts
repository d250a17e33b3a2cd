import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startGatewayProcess } from '../test/gateway-process.ts';

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
    const g = await startGatewayProcess({ dataDir, port, entry: path.join(out, 'server/main.mjs') });
    const status = (await (await fetch(`http://127.0.0.1:${port}/api/status`)).json()) as {
      data: { version: string };
    };
    expect(status.data.version).toBe(`v${pkg.version}`);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    const relay = await fetch(`http://127.0.0.1:${port}/v1/models`, { headers: { authorization: 'Bearer sk-nope' } });
    expect(relay.status).toBe(401);
    g.proc.kill('SIGTERM');
    expect(await g.exited).toBe(0);
  }, 60_000);
});
