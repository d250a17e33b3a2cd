import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp } from '../../test/app.ts';
import { freePort } from '../../test/gateway-process.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../../test/relay-fixtures.ts';
import { gatewayEnv, gatewayNodeFlags, gcThreadFlags } from '../node-flags.mjs';
import { type Proc, startNode } from './procs.ts';

export interface BenchTargets {
  fake: Proc;
  /** The fake Anthropic upstream, when asked for (phase e's converted path). */
  anthropic?: Proc;
  bare: Proc;
  gateway: Proc;
  /** The Node flags the gateway runs with: `npm start`'s for the CPUs it has here, then BENCH_GATEWAY_NODE_ARGS. */
  gatewayNodeArgs: string[];
  token: { key: string };
  close(): Promise<void>;
}

/**
 * The processes the bench measures: the fake upstream, the bare pass-through proxy and the real
 * gateway (the bundled server/main.ts, as `npm start` runs it, on a SQLite file seeded through the
 * real services: one channel for `models` at ratio 1, a user, a limited token, and the per-model rate
 * limit on); with `anthropicModels`, also a fake Anthropic upstream and an Anthropic channel for them.
 * With `pin`, the gateway and the bare proxy get CPU 0 and the fakes CPU 1 (the caller pins itself to CPU 1).
 */
export async function startBenchTargets(o: {
  models: string[];
  /** Models served by an Anthropic channel (type 14) on a fake Anthropic upstream in its own process. */
  anthropicModels?: string[];
  pin: boolean;
  profileDir?: string;
}): Promise<BenchTargets> {
  const cpu = (n: number) => (o.pin ? n : undefined);
  // Pinned, the gateway and the bare proxy have one CPU each and get the flags `npm start` picks for one CPU.
  const cpusEach = o.pin ? 1 : undefined;
  const fake = await startNode('scripts/fake-upstream/main.ts', { args: ['0'], cpu: cpu(1) });
  // Started only when used, so the other phases run on the machine as they always have.
  const anthropicModels = o.anthropicModels ?? [];
  const anthropic =
    anthropicModels.length > 0
      ? await startNode('scripts/bench/fake-anthropic.ts', { args: ['0'], cpu: cpu(1) })
      : undefined;
  // The floor gets the garbage collector setting the gateway gets on the same CPU, so the ratio is governance alone.
  const bare = await startNode('scripts/bench/bare-proxy.ts', {
    args: [fake.url],
    cpu: cpu(0),
    nodeArgs: gcThreadFlags(cpusEach),
  });

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-bench-'));
  const dbFile = path.join(dataDir, 'switchyard.db');
  const seed = await createTestApp({ logLevel: 'silent' }, { dataDir, sqlDsn: dbFile });
  await setOptions(seed.deps, {
    ModelRatio: JSON.stringify(Object.fromEntries([...o.models, ...anthropicModels].map((m) => [m, 1]))),
    CompletionRatio: JSON.stringify(Object.fromEntries([...o.models, ...anthropicModels].map((m) => [m, 1]))),
    // The per-model limit is checked on every request; high enough never to refuse one here.
    ModelRequestRateLimitEnabled: 'true',
    ModelRequestRateLimitCount: '100000000',
    ModelRequestRateLimitSuccessCount: '100000000',
  });
  const user = await insertUser(seed.deps, { quota: 1e15 });
  await insertChannel(seed.deps, { baseUrl: fake.url, models: o.models });
  if (anthropic) await insertChannel(seed.deps, { type: 14, baseUrl: anthropic.url, models: anthropicModels });
  // A limited token: every request reserves an upper bound and settles it (the expensive path).
  const token = await insertToken(seed.deps, user.id, { remainQuota: 1e15 });
  await seed.close();

  // The gateway runs as `npm start` runs it: the bundled server on plain Node. BENCH_GATEWAY_BUNDLE
  // names another build (e.g. a copy of dist/server from an earlier commit) to compare with.
  const bundle = process.env.BENCH_GATEWAY_BUNDLE || 'dist/server/main.mjs';
  if (!process.env.BENCH_GATEWAY_BUNDLE) {
    const built = spawnSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error('building the server bundle failed');
  }
  const port = await freePort();
  const gatewayNodeArgs = [
    ...gatewayNodeFlags(cpusEach),
    ...(process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean),
  ];
  const gateway = await startNode(bundle, {
    cpu: cpu(0),
    nodeArgs: [...gatewayNodeArgs, ...(o.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${o.profileDir}`] : [])],
    port,
    readyPath: '/readyz',
    // BENCH_GATEWAY_LOG=<file>: the gateway's info-level log (quiet-time trims, with their pause) goes there.
    stdoutFile: process.env.BENCH_GATEWAY_LOG || undefined,
    env: {
      ...gatewayEnv(),
      DATA_DIR: dataDir,
      SQL_DSN: dbFile,
      REDIS_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_GATEWAY_LOG ? 'info' : 'warn',
      SESSION_SECRET: 'bench-session-secret-0123456789',
      CLIENT_DIST: path.join(dataDir, 'no-client'),
      // One client address sends everything here; keep the per-IP limit on but out of the way.
      GLOBAL_RELAY_RATE_LIMIT: '100000000',
    },
  });
  return {
    fake,
    anthropic,
    bare,
    gateway,
    gatewayNodeArgs,
    token,
    async close() {
      await Promise.all([gateway.stop(), bare.stop(), fake.stop(), anthropic?.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
