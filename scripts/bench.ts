import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { relayRuntimeOf } from '../server/relay/runtime.ts';
import { startBareProxy } from './bare-proxy.ts';
import { createTestApp } from '../test/app.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../test/relay-fixtures.ts';

/*
 * `npm run bench`: the gateway's added latency and throughput against a fake
 * OpenAI upstream on loopback, compared with calling the fake directly in the
 * same run. SQLite in a temp dir, a real user, token and channel. Not a test:
 * it prints figures and writes bench-results.json (gitignored).
 */

const N_LATENCY = Number(process.env.BENCH_N ?? 2000);
const DURATION_MS = Number(process.env.BENCH_MS ?? 5000);
const CONCURRENCY = 32;

const t = await createTestApp({ logLevel: 'silent' });
// The fake upstream runs in its own process, as a real provider would: it must not share our event loop.
const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/fake-upstream/main.ts', '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [line] = (await once(child.stdout, 'data')) as [Buffer];
const fake = { url: /http:\/\/[\d.:]+/.exec(line.toString())![0] };
await setOptions(t.deps, { ModelRatio: JSON.stringify({ 'bench-model': 1 }) });
await t.app.listen({ port: 0, host: '127.0.0.1' });
const gw = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
const user = await insertUser(t.deps, { quota: 1e13 });
await insertChannel(t.deps, { baseUrl: fake.url, models: ['bench-model'] });
const token = await insertToken(t.deps, user.id, { unlimited: true });

const agent = new Agent({ connections: 128, keepAliveTimeout: 30_000 });
const body = JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'Hello, bench!' }] });
const streamBody = JSON.stringify({ model: 'bench-model', stream: true, messages: [{ role: 'user', content: 'Hi' }] });

/** Server-Timing values the gateway reported (its own time, upstream excluded). */
const ownMs: number[] = [];

async function call(base: string, payload: string): Promise<number> {
  const t0 = performance.now();
  const res = await request(`${base}/v1/chat/completions`, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token.key}` },
    body: payload,
  });
  await res.body.text();
  const timing = res.headers['server-timing'];
  if (typeof timing === 'string') ownMs.push(Number(timing.split('dur=')[1]));
  if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
  return performance.now() - t0;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const round = (x: number) => Math.round(x * 1000) / 1000;

async function latency(base: string, payload: string, n: number): Promise<number[]> {
  for (let i = 0; i < 200; i++) await call(base, payload); // warm-up: JIT, connections, caches
  const xs: number[] = [];
  for (let i = 0; i < n; i++) xs.push(await call(base, payload));
  return xs;
}

async function throughput(base: string, payload: string): Promise<number> {
  let done = 0;
  const end = performance.now() + DURATION_MS;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await call(base, payload);
        done++;
      }
    }),
  );
  return done / (DURATION_MS / 1000);
}

const bare = await startBareProxy(fake.url);
const direct = await latency(fake.url, body, N_LATENCY);
const viaBare = await latency(bare.url, body, N_LATENCY);
ownMs.length = 0;
const via = await latency(gw, body, N_LATENCY);
const ownJson = ownMs.splice(0).slice(200);
const directStream = await latency(fake.url, streamBody, N_LATENCY / 2);
const viaStream = await latency(gw, streamBody, N_LATENCY / 2);
const rpsDirect = await throughput(fake.url, body);
const rpsBare = await throughput(bare.url, body);
const rpsGateway = await throughput(gw, body);
await relayRuntimeOf(t.deps)!.drain();

const results = {
  date: new Date().toISOString(),
  node: process.version,
  // The figures are only comparable on a quiet machine; the load average tells how quiet it was.
  load_average_1m: round((await import('node:os')).loadavg()[0]),
  requests_latency: N_LATENCY,
  json: {
    direct_p50_ms: round(pct(direct, 50)),
    direct_p99_ms: round(pct(direct, 99)),
    gateway_p50_ms: round(pct(via, 50)),
    gateway_p99_ms: round(pct(via, 99)),
    bare_proxy_p50_ms: round(pct(viaBare, 50)),
    added_p50_ms: round(pct(via, 50) - pct(direct, 50)),
    added_p99_ms: round(pct(via, 99) - pct(direct, 99)),
    added_over_bare_proxy_p50_ms: round(pct(via, 50) - pct(viaBare, 50)),
    gateway_own_p50_ms: round(pct(ownJson, 50)),
    gateway_own_p99_ms: round(pct(ownJson, 99)),
  },
  stream: {
    direct_p50_ms: round(pct(directStream, 50)),
    gateway_p50_ms: round(pct(viaStream, 50)),
    added_p50_ms: round(pct(viaStream, 50) - pct(directStream, 50)),
  },
  throughput_c32: {
    direct_rps: Math.round(rpsDirect),
    bare_proxy_rps: Math.round(rpsBare),
    gateway_rps: Math.round(rpsGateway),
    ratio_to_direct: round(rpsGateway / rpsDirect),
    ratio_to_bare_proxy: round(rpsGateway / rpsBare),
  },
};
console.log(JSON.stringify(results, null, 2));
writeFileSync('bench-results.json', `${JSON.stringify(results, null, 2)}\n`);
await agent.close();
await bare.close();
await t.close();
child.kill();
