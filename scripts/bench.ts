import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { Agent } from 'undici';
import { agent, latency, openLoop, pct, type Target, throughput, timedStream } from './bench/http-load.ts';
import { benchLogQueries, type LogQueryResult } from './bench/log-queries.ts';
import { startBenchTargets } from './bench/targets.ts';

/*
 * `npm run bench`: the gateway (the real server process on a SQLite file, governance
 * on: token auth with a limited token so every request reserves and settles quota,
 * the per-model rate limit, the per-IP limit, a consume log row per request) against
 * a fake OpenAI upstream in its own process, compared in the same run with calling
 * the fake directly and with a bare pass-through Node proxy (the floor). On a
 * machine with two or more CPUs the gateway and the bare proxy run on CPU 0, the
 * fake upstream and this client on CPU 1. Not a test: it prints a table of ratios
 * and writes bench-results.json (gitignored).
 *
 * BENCH_QUICK=1 shortens every phase; BENCH_LOG_ROWS=0 skips the 5M-row log part;
 * BENCH_PROFILE=<dir> writes the gateway's CPU profile (.cpuprofile) there.
 */

const quick = process.env.BENCH_QUICK === '1';
const N_LATENCY = quick ? 500 : 3000;
const PHASE_MS = quick ? 2000 : 6000;
const CONCURRENCY = 32;
const OPEN_RATES = quick ? [200, 500] : [200, 500, 1000];
const STREAMS = 1000;
const LOG_ROWS = Number(process.env.BENCH_LOG_ROWS ?? 5_000_000);
const JSON_MODEL = 'bench-model';
// 64 content chunks 20 ms apart (the streaming shape), and a longer one for the 1,000-stream memory phase.
const STREAM_MODEL = 'bench-stream+chunks-64+gap-20';
const HELD_MODEL = 'bench-held+chunks-64+gap-60';

const cpus = os.cpus().length;
if (cpus >= 2) spawnSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });

const { fake, bare, gateway, token, close } = await startBenchTargets({
  models: [JSON_MODEL, STREAM_MODEL, HELD_MODEL],
  pin: cpus >= 2,
  profileDir: process.env.BENCH_PROFILE,
});

const direct: Target = { base: fake.url, key: token.key };
const viaBare: Target = { base: bare.url, key: token.key };
const viaGateway: Target = { base: gateway.url, key: token.key };
const body = JSON.stringify({ model: JSON_MODEL, messages: [{ role: 'user', content: 'Hello, bench!' }] });
const streamBody = JSON.stringify({ model: STREAM_MODEL, stream: true, messages: [{ role: 'user', content: 'Hi' }] });
const heldBody = JSON.stringify({ model: HELD_MODEL, stream: true, messages: [{ role: 'user', content: 'Hi' }] });
const r3 = (x: number) => Math.round(x * 1000) / 1000;
const r1 = (x: number) => Math.round(x * 10) / 10;
const log = (s: string) => process.stderr.write(`bench: ${s}\n`);

// (e) memory at idle, after start and a short warm-up.
await latency(viaGateway, body, 200);
const idleRssMb = gateway.rssMb();

// (a) added latency at concurrency 1.
log('latency at concurrency 1');
const latDirect = await latency(direct, body, N_LATENCY);
const latBare = await latency(viaBare, body, N_LATENCY);
const latGateway = await latency(viaGateway, body, N_LATENCY);

// (b) throughput, closed loop, and latency at fixed rates, open loop.
log(`throughput at concurrency ${CONCURRENCY}`);
const tpDirect = await throughput(direct, body, CONCURRENCY, PHASE_MS);
const tpBare = await throughput(viaBare, body, CONCURRENCY, PHASE_MS);
const tpGateway = await throughput(viaGateway, body, CONCURRENCY, PHASE_MS);
const open: Record<string, unknown>[] = [];
for (const rate of OPEN_RATES) {
  log(`open loop at ${rate} requests/s`);
  const b = await openLoop(viaBare, body, rate, PHASE_MS);
  const g = await openLoop(viaGateway, body, rate, PHASE_MS);
  open.push({
    rate_rps: rate,
    bare_proxy_p50_ms: r3(pct(b.ms, 50)),
    bare_proxy_p99_ms: r3(pct(b.ms, 99)),
    gateway_p50_ms: r3(pct(g.ms, 50)),
    gateway_p99_ms: r3(pct(g.ms, 99)),
    gateway_errors: g.errors,
    gateway_achieved_rps: Math.round(g.achievedRps),
  });
}

// (c) streaming: 64 chunks 20 ms apart, 10 streams at a time.
async function streams(t: Target, n: number, concurrency: number) {
  const first: number[] = [];
  const gaps: number[] = [];
  let failed = 0;
  for (let i = 0; i < n; i += concurrency) {
    const rs = await Promise.all(
      Array.from({ length: Math.min(concurrency, n - i) }, () => timedStream(t, streamBody)),
    );
    for (const r of rs) {
      first.push(r.firstChunkMs);
      gaps.push(...r.gapsMs);
      if (!r.ok) failed++;
    }
  }
  return { first, gaps, failed };
}
log('streaming, 64 chunks 20 ms apart');
await streams(viaGateway, 10, 10); // warm-up
const stDirect = await streams(direct, quick ? 20 : 60, 10);
const stGateway = await streams(viaGateway, quick ? 20 : 60, 10);

// (d) memory: 1,000 concurrent streams held for ~4 s each, RSS sampled while they run, then after:
// the 1,000 clients hang up, and the gateway's idle upstream connections time out (30 s).
log(`${STREAMS} concurrent streams`);
let peakRssMb = gateway.rssMb();
const crowd = new Agent({ connections: STREAMS, keepAliveTimeout: 30_000 });
const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, gateway.rssMb())), 100);
const held = await Promise.all(
  Array.from({ length: STREAMS }, async (_, i) => {
    await new Promise((r) => setTimeout(r, i % 200)); // opened over 0.2 s, as a burst of real clients
    return timedStream(viaGateway, heldBody, crowd);
  }),
);
clearInterval(sampler);
const heldFailed = held.filter((r) => !r.ok).length;
await crowd.close();
await new Promise((r) => setTimeout(r, quick ? 5000 : 35_000));
const afterRssMb = gateway.rssMb();

const logs: LogQueryResult | null =
  LOG_ROWS > 0 ? (log(`log page on ${LOG_ROWS} rows`), await benchLogQueries(LOG_ROWS)) : null;

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus,
  pinned: cpus >= 2 ? 'gateway and bare proxy on CPU 0; fake upstream and client on CPU 1' : 'no',
  // The figures are only comparable on a quiet machine; the load average tells how quiet it was.
  load_average_1m: r3(os.loadavg()[0]),
  a_latency_c1: {
    requests: N_LATENCY,
    direct_p50_ms: r3(pct(latDirect.ms, 50)),
    direct_p99_ms: r3(pct(latDirect.ms, 99)),
    bare_proxy_p50_ms: r3(pct(latBare.ms, 50)),
    bare_proxy_p99_ms: r3(pct(latBare.ms, 99)),
    gateway_p50_ms: r3(pct(latGateway.ms, 50)),
    gateway_p99_ms: r3(pct(latGateway.ms, 99)),
    added_p50_ms: r3(pct(latGateway.ms, 50) - pct(latDirect.ms, 50)),
    added_p99_ms: r3(pct(latGateway.ms, 99) - pct(latDirect.ms, 99)),
    added_over_bare_proxy_p50_ms: r3(pct(latGateway.ms, 50) - pct(latBare.ms, 50)),
    gateway_own_p50_ms: r3(pct(latGateway.own, 50)),
    gateway_own_p99_ms: r3(pct(latGateway.own, 99)),
    errors: latGateway.errors,
  },
  b_throughput: {
    concurrency: CONCURRENCY,
    direct_rps: Math.round(tpDirect.rps),
    bare_proxy_rps: Math.round(tpBare.rps),
    gateway_rps: Math.round(tpGateway.rps),
    gateway_errors: tpGateway.errors,
    ratio_to_bare_proxy: r3(tpGateway.rps / tpBare.rps),
    ratio_to_direct: r3(tpGateway.rps / tpDirect.rps),
  },
  b_open_loop: open,
  c_streaming: {
    chunks: 64,
    gap_ms: 20,
    direct_first_chunk_p50_ms: r3(pct(stDirect.first, 50)),
    gateway_first_chunk_p50_ms: r3(pct(stGateway.first, 50)),
    added_first_chunk_p50_ms: r3(pct(stGateway.first, 50) - pct(stDirect.first, 50)),
    direct_gap_p99_ms: r3(pct(stDirect.gaps, 99)),
    gateway_gap_p99_ms: r3(pct(stGateway.gaps, 99)),
    added_gap_p99_ms: r3(pct(stGateway.gaps, 99) - pct(stDirect.gaps, 99)),
    failed: stDirect.failed + stGateway.failed,
  },
  d_memory: {
    concurrent_streams: STREAMS,
    failed_streams: heldFailed,
    idle_rss_mb: r1(idleRssMb),
    peak_rss_mb: r1(peakRssMb),
    after_rss_mb: r1(afterRssMb),
  },
  log_page_queries: logs,
};

const ok = (pass: boolean) => (pass ? 'met' : 'NOT met');
const a = results.a_latency_c1;
const rows: [string, string, string][] = [
  ['added latency p50 (c=1)', `${a.added_p50_ms} ms`, ok(a.added_p50_ms <= 0.3)],
  ['added latency p99 (c=1)', `${a.added_p99_ms} ms`, ok(a.added_p99_ms <= 1)],
  ['gateway own time p50 / p99', `${a.gateway_own_p50_ms} / ${a.gateway_own_p99_ms} ms`, ''],
  [
    `throughput / bare proxy (c=${CONCURRENCY})`,
    `${results.b_throughput.ratio_to_bare_proxy} (${results.b_throughput.gateway_rps} / ${results.b_throughput.bare_proxy_rps} rps)`,
    ok(results.b_throughput.ratio_to_bare_proxy >= 0.7),
  ],
  ...open.map((o): [string, string, string] => [
    `open loop ${o.rate_rps} rps p50 / p99, gateway vs bare`,
    `${o.gateway_p50_ms} / ${o.gateway_p99_ms} vs ${o.bare_proxy_p50_ms} / ${o.bare_proxy_p99_ms} ms`,
    '',
  ]),
  ['stream added first chunk p50', `${results.c_streaming.added_first_chunk_p50_ms} ms`, ''],
  [
    'stream chunk gap p99, gateway vs direct',
    `${results.c_streaming.gateway_gap_p99_ms} vs ${results.c_streaming.direct_gap_p99_ms} ms`,
    '',
  ],
  [`${STREAMS} concurrent streams failed`, String(heldFailed), ok(heldFailed === 0)],
  [
    'RSS idle / peak / after',
    `${results.d_memory.idle_rss_mb} / ${results.d_memory.peak_rss_mb} / ${results.d_memory.after_rss_mb} MB`,
    ok(results.d_memory.peak_rss_mb < 250 && results.d_memory.after_rss_mb < 120),
  ],
  ...(logs
    ? [
        [`slowest log-page query, ${logs.rows} rows`, `${logs.slowest_ms} ms`, ok(logs.slowest_ms < 100)] as [
          string,
          string,
          string,
        ],
      ]
    : []),
];
const w = Math.max(...rows.map((r) => r[0].length));
const v = Math.max(...rows.map((r) => r[1].length));
console.log(rows.map(([k, val, t]) => `${k.padEnd(w)}  ${val.padEnd(v)}  ${t}`).join('\n'));
writeFileSync('bench-results.json', `${JSON.stringify(results, null, 2)}\n`);
console.log('\nfull results: bench-results.json');

await agent.close();
await close();
