import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { Agent } from 'undici';
import { agent, call, latency, openLoop, pct, type Target, throughput, timedStream } from './bench/http-load.ts';
import { benchLogQueries } from './bench/log-queries.ts';
import type { Proc } from './bench/procs.ts';
import { startBenchTargets } from './bench/targets.ts';

/*
 * `npm run bench`: the gateway (the real server process, bundled as `npm start` runs
 * it, on a SQLite file; governance on: token auth with a limited token so every
 * request reserves and settles quota, the per-model rate limit, the per-IP limit, a
 * consume log row per request) against a fake OpenAI upstream in its own process,
 * compared in the same run with calling the fake directly and with a bare
 * pass-through Node proxy (the floor). With two or more CPUs the gateway and the
 * bare proxy run on CPU 0, the fake upstream and this client on CPU 1. Not a test:
 * it prints a table against the targets and writes bench-results.json (gitignored).
 *
 * BENCH_QUICK=1 shortens every phase; BENCH_ONLY=a,b,c,d,e,logs runs only those parts (e, the converted
 * stream, adds a fake Anthropic upstream in its own process on the fakes' CPU);
 * BENCH_LOG_ROWS sets the log part's size (default 5,000,000; 0 skips it);
 * BENCH_PROFILE=<dir> writes the gateway's CPU profile (.cpuprofile) there;
 * BENCH_GATEWAY_NODE_ARGS passes V8/Node flags to the gateway (e.g. "--max-semi-space-size=4");
 * BENCH_GATEWAY_BUNDLE runs another server build instead of building dist/server (to compare commits);
 * BENCH_GATEWAY_LOG=<file> keeps the gateway's info-level log there.
 */

const quick = process.env.BENCH_QUICK === '1';
const only = new Set((process.env.BENCH_ONLY ?? 'a,b,c,d,e,logs').split(','));
const N_LATENCY = quick ? 500 : 3000;
const PHASE_MS = quick ? 2000 : 6000;
const CONCURRENCY = 32;
const THROUGHPUT_ROUNDS = 2;
const OPEN_RATES = quick ? [200, 500] : [200, 500, 1000];
const STREAMS = 1000;
const LOG_ROWS = Number(process.env.BENCH_LOG_ROWS ?? 5_000_000);
const JSON_MODEL = 'bench-model';
// 64 content chunks 20 ms apart (the streaming shape), and a longer one for the 1,000-stream memory phase.
const STREAM_MODEL = 'bench-stream+chunks-64+gap-20';
const HELD_MODEL = 'bench-held+chunks-64+gap-60';
// (e) One stream shape on two paths: 64 content chunks 1 ms apart (each its own read), OpenAI or Anthropic upstream.
const CONVERTED_REQUESTS = quick ? 150 : 500;
const NATIVE_STREAM_MODEL = 'bench-native+chunks-64+gap-1';
const CONVERTED_STREAM_MODEL = 'bench-claude+chunks-64+gap-1';

const cpus = os.cpus().length;
if (cpus >= 2) spawnSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });

const targets = await startBenchTargets({
  models: [JSON_MODEL, STREAM_MODEL, HELD_MODEL, NATIVE_STREAM_MODEL],
  anthropicModels: only.has('e') ? [CONVERTED_STREAM_MODEL] : [],
  pin: cpus >= 2,
  profileDir: process.env.BENCH_PROFILE,
});
const { gateway, token } = targets;
const direct: Target = { base: targets.fake.url, key: token.key };
const viaBare: Target = { base: targets.bare.url, key: token.key };
const viaGateway: Target = { base: gateway.url, key: token.key };
const chat = (model: string, stream: boolean) =>
  JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'Hello, bench!' }] });
const body = chat(JSON_MODEL, false);
const r3 = (x: number) => Math.round(x * 1000) / 1000;
const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
const r1 = (x: number) => Math.round(x * 10) / 10;
const log = (s: string) => process.stderr.write(`bench: ${s}\n`);

/** (a) Added latency at concurrency 1, against the fake directly and through the bare proxy. */
async function latencyC1() {
  log('latency at concurrency 1');
  const [d, b, g] = await latency([direct, viaBare, viaGateway], body, N_LATENCY);
  return {
    requests: N_LATENCY,
    direct_p50_ms: r3(pct(d.ms, 50)),
    direct_p99_ms: r3(pct(d.ms, 99)),
    bare_proxy_p50_ms: r3(pct(b.ms, 50)),
    bare_proxy_p99_ms: r3(pct(b.ms, 99)),
    gateway_p50_ms: r3(pct(g.ms, 50)),
    gateway_p99_ms: r3(pct(g.ms, 99)),
    added_p50_ms: r3(pct(g.ms, 50) - pct(d.ms, 50)),
    added_p99_ms: r3(pct(g.ms, 99) - pct(d.ms, 99)),
    added_over_bare_proxy_p50_ms: r3(pct(g.ms, 50) - pct(b.ms, 50)),
    bare_proxy_added_p50_ms: r3(pct(b.ms, 50) - pct(d.ms, 50)),
    bare_proxy_added_p99_ms: r3(pct(b.ms, 99) - pct(d.ms, 99)),
    gateway_own_p50_ms: r3(pct(g.own, 50)),
    gateway_own_p99_ms: r3(pct(g.own, 99)),
    errors: g.errors,
  };
}

/** (b) Throughput in a closed loop, then latency at fixed request rates in an open loop. */
async function load() {
  log(`throughput at concurrency ${CONCURRENCY}`);
  const d = await throughput(direct, body, CONCURRENCY, PHASE_MS);
  // The bare proxy and the gateway take turns, twice each, so a slow stretch of the machine
  // (this VM's throughput drifts ±15% within minutes) weighs on both sides of the ratio.
  const bareRounds: number[] = [];
  const gatewayRounds: number[] = [];
  // CPU per request, from /proc: steadier than requests/s when the client side is the bottleneck.
  const cpuUs = { bare: [] as number[], gateway: [] as number[] };
  const measured = async (t: Target, proc: Proc, cpuOut: number[]) => {
    const before = proc.cpuSeconds();
    const r = await throughput(t, body, CONCURRENCY, PHASE_MS / THROUGHPUT_ROUNDS);
    cpuOut.push(((proc.cpuSeconds() - before) / Math.max(1, r.requests)) * 1e6);
    return r;
  };
  let gatewayErrors = 0;
  for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
    bareRounds.push((await measured(viaBare, targets.bare, cpuUs.bare)).rps);
    const g = await measured(viaGateway, gateway, cpuUs.gateway);
    gatewayRounds.push(g.rps);
    gatewayErrors += g.errors;
  }
  const b = { rps: mean(bareRounds) };
  const g = { rps: mean(gatewayRounds), errors: gatewayErrors };
  const open = [];
  for (const rate of OPEN_RATES) {
    log(`open loop at ${rate} requests/s`);
    const ob = await openLoop(viaBare, body, rate, PHASE_MS);
    const og = await openLoop(viaGateway, body, rate, PHASE_MS);
    open.push({
      rate_rps: rate,
      bare_proxy_p50_ms: r3(pct(ob.ms, 50)),
      bare_proxy_p99_ms: r3(pct(ob.ms, 99)),
      gateway_p50_ms: r3(pct(og.ms, 50)),
      gateway_p99_ms: r3(pct(og.ms, 99)),
      gateway_errors: og.errors,
      gateway_achieved_rps: Math.round(og.achievedRps),
    });
  }
  return {
    throughput: {
      concurrency: CONCURRENCY,
      direct_rps: Math.round(d.rps),
      bare_proxy_rps: Math.round(b.rps),
      gateway_rps: Math.round(g.rps),
      gateway_errors: g.errors,
      ratio_to_bare_proxy: r3(g.rps / b.rps),
      ratio_per_round: gatewayRounds.map((x, i) => r3(x / bareRounds[i])),
      ratio_to_direct: r3(g.rps / d.rps),
      bare_proxy_cpu_us_per_request: Math.round(mean(cpuUs.bare)),
      gateway_cpu_us_per_request: Math.round(mean(cpuUs.gateway)),
    },
    open_loop: open,
  };
}

/** (c) Streams of 64 chunks 20 ms apart, 10 at a time: added time to first chunk, chunk gaps. */
async function streaming() {
  log('streaming, 64 chunks 20 ms apart');
  const payload = chat(STREAM_MODEL, true);
  const run = async (t: Target, n: number) => {
    const first: number[] = [];
    const gaps: number[] = [];
    let failed = 0;
    for (let i = 0; i < n; i += 10) {
      const rs = await Promise.all(Array.from({ length: Math.min(10, n - i) }, () => timedStream(t, payload)));
      for (const r of rs) {
        first.push(r.firstChunkMs);
        gaps.push(...r.gapsMs);
        if (!r.ok) failed++;
      }
    }
    return { first, gaps, failed };
  };
  await run(viaGateway, 10); // warm-up
  const d = await run(direct, quick ? 20 : 60);
  const g = await run(viaGateway, quick ? 20 : 60);
  return {
    chunks: 64,
    gap_ms: 20,
    direct_first_chunk_p50_ms: r3(pct(d.first, 50)),
    gateway_first_chunk_p50_ms: r3(pct(g.first, 50)),
    added_first_chunk_p50_ms: r3(pct(g.first, 50) - pct(d.first, 50)),
    direct_gap_p99_ms: r3(pct(d.gaps, 99)),
    gateway_gap_p99_ms: r3(pct(g.gaps, 99)),
    added_gap_p99_ms: r3(pct(g.gaps, 99) - pct(d.gaps, 99)),
    failed: d.failed + g.failed,
  };
}

/**
 * (e) What conversion costs: the same stream through the OpenAI chat door, natively to the OpenAI fake,
 * and converted to the fake Anthropic (the chat body rendered as an Anthropic Messages request, the
 * Anthropic SSE turned back into chat chunks), taking turns request by request (the order swapped every
 * round). Time to the first chunk, the gateway's own time before it (Server-Timing), and the gateway's
 * CPU read around each request (schedstat; a request's settlement may spill into the next one, which is
 * either path alike).
 */
async function converted() {
  log('streams through the OpenAI chat door: native (OpenAI upstream) and converted (Anthropic upstream)');
  const payloads = [chat(NATIVE_STREAM_MODEL, true), chat(CONVERTED_STREAM_MODEL, true)];
  const out = payloads.map(() => ({ first: [] as number[], own: [] as number[], cpuUs: [] as number[], failed: 0 }));
  const once = async (k: number, record: boolean) => {
    const before = gateway.cpuNs();
    const r = await timedStream(viaGateway, payloads[k]);
    const cpuUs = (gateway.cpuNs() - before) / 1000;
    if (!record) return;
    if (!r.ok) out[k].failed++;
    out[k].first.push(r.firstChunkMs);
    if (r.ownMs !== undefined) out[k].own.push(r.ownMs);
    out[k].cpuUs.push(cpuUs);
  };
  for (let i = 0; i < 30; i++) for (const k of [0, 1]) await once(k, false); // JIT, connections
  for (let i = 0; i < CONVERTED_REQUESTS; i++) for (const k of i % 2 ? [1, 0] : [0, 1]) await once(k, true);
  const [n, c] = out;
  return {
    requests_each: CONVERTED_REQUESTS,
    chunks: 64,
    gap_ms: 1,
    native_first_chunk_p50_ms: r3(pct(n.first, 50)),
    native_first_chunk_p99_ms: r3(pct(n.first, 99)),
    converted_first_chunk_p50_ms: r3(pct(c.first, 50)),
    converted_first_chunk_p99_ms: r3(pct(c.first, 99)),
    added_first_chunk_p50_ms: r3(pct(c.first, 50) - pct(n.first, 50)),
    added_first_chunk_p99_ms: r3(pct(c.first, 99) - pct(n.first, 99)),
    native_own_p50_ms: r3(pct(n.own, 50)),
    converted_own_p50_ms: r3(pct(c.own, 50)),
    native_cpu_us_per_request: Math.round(mean(n.cpuUs)),
    converted_cpu_us_per_request: Math.round(mean(c.cpuUs)),
    cpu_ratio: r3(mean(c.cpuUs) / mean(n.cpuUs)),
    failed: n.failed + c.failed,
  };
}

/**
 * (d) Memory: RSS at idle (after start and a short warm-up), its peak while 1,000
 * concurrent streams run (~4 s each), and after: the 1,000 clients hang up and the
 * gateway's idle upstream connections time out (30 s); RSS is read 45 s later, with health checks
 * and a trickle of requests going on (as in production).
 */
async function memory(idleRssMb: number) {
  log(`${STREAMS} concurrent streams`);
  const crowd = new Agent({ connections: STREAMS, keepAliveTimeout: 30_000 });
  const payload = chat(HELD_MODEL, true);
  let peak = gateway.rssMb();
  const sampler = setInterval(() => (peak = Math.max(peak, gateway.rssMb())), 100);
  const held = await Promise.all(
    Array.from({ length: STREAMS }, async (_, i) => {
      await new Promise((r) => setTimeout(r, i % 200)); // opened over 0.2 s, as a burst of real clients
      return timedStream(viaGateway, payload, crowd);
    }),
  );
  clearInterval(sampler);
  await crowd.close();
  // Quiet afterwards, but not dead, as in production: a load balancer's health check every
  // second and a trickle of 10 requests a second.
  const probe = setInterval(() => void fetch(`${gateway.url}/healthz`).then((r) => r.arrayBuffer()), 1000);
  const trickle = setInterval(() => void call(viaGateway, body), 100);
  await new Promise((r) => setTimeout(r, quick ? 5000 : 45_000));
  clearInterval(probe);
  clearInterval(trickle);
  return {
    concurrent_streams: STREAMS,
    failed_streams: held.filter((r) => !r.ok).length,
    idle_rss_mb: r1(idleRssMb),
    peak_rss_mb: r1(peak),
    after_rss_mb: r1(gateway.rssMb()),
  };
}

await latency([viaGateway], body, 200);
const idleRssMb = gateway.rssMb();
const a = only.has('a') ? await latencyC1() : null;
const b = only.has('b') ? await load() : null;
const c = only.has('c') ? await streaming() : null;
const d = only.has('d') ? await memory(idleRssMb) : null;
const e = only.has('e') ? await converted() : null;
await agent.close();
await targets.close();
const logs =
  only.has('logs') && LOG_ROWS > 0 ? (log(`log page on ${LOG_ROWS} rows`), await benchLogQueries(LOG_ROWS)) : null;

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus,
  pinned: cpus >= 2 ? 'gateway and bare proxy on CPU 0; fake upstream and client on CPU 1' : 'no',
  // The figures are only comparable on a quiet machine; the load average tells how quiet it was.
  load_average_1m: r3(os.loadavg()[0]),
  gateway_node_flags: targets.gatewayNodeArgs,
  a_latency_c1: a,
  b_throughput: b?.throughput ?? null,
  b_open_loop: b?.open_loop ?? null,
  c_streaming: c,
  d_memory: d,
  e_converted_stream: e,
  log_page_queries: logs,
};

const met = (pass: boolean) => (pass ? 'met' : 'NOT met');
const rows: [string, string, string][] = [];
if (a) {
  rows.push(['added latency p50 (c=1)', `${a.added_p50_ms} ms`, met(a.added_p50_ms <= 0.3)]);
  rows.push(['added latency p99 (c=1)', `${a.added_p99_ms} ms`, met(a.added_p99_ms <= 1)]);
  // The floor: what one pass-through Node hop adds on this machine, with no governance at all.
  rows.push(['bare proxy alone adds p50 / p99', `${a.bare_proxy_added_p50_ms} / ${a.bare_proxy_added_p99_ms} ms`, '']);
  rows.push(['gateway own time p50 / p99', `${a.gateway_own_p50_ms} / ${a.gateway_own_p99_ms} ms`, '']);
}
if (b) {
  const t = b.throughput;
  rows.push([
    `throughput / bare proxy (c=${CONCURRENCY})`,
    `${t.ratio_to_bare_proxy} (${t.gateway_rps} / ${t.bare_proxy_rps} rps)`,
    met(t.ratio_to_bare_proxy >= 0.7),
  ]);
  rows.push([
    'CPU per request, gateway vs bare proxy',
    `${t.gateway_cpu_us_per_request} vs ${t.bare_proxy_cpu_us_per_request} µs`,
    '',
  ]);
  for (const o of b.open_loop)
    rows.push([
      `open loop ${o.rate_rps} rps p50 / p99, gateway vs bare`,
      `${o.gateway_p50_ms} / ${o.gateway_p99_ms} vs ${o.bare_proxy_p50_ms} / ${o.bare_proxy_p99_ms} ms`,
      o.gateway_errors ? `${o.gateway_errors} errors` : '',
    ]);
}
if (c) {
  rows.push(['stream added first chunk p50', `${c.added_first_chunk_p50_ms} ms`, '']);
  rows.push(['stream chunk gap p99, gateway vs direct', `${c.gateway_gap_p99_ms} vs ${c.direct_gap_p99_ms} ms`, '']);
}
if (d) {
  rows.push([`${STREAMS} concurrent streams failed`, String(d.failed_streams), met(d.failed_streams === 0)]);
  rows.push([
    'RSS idle / peak / after',
    `${d.idle_rss_mb} / ${d.peak_rss_mb} / ${d.after_rss_mb} MB`,
    met(d.peak_rss_mb < 250 && d.after_rss_mb < 120),
  ]);
}
if (e) {
  rows.push([
    'stream first chunk p50 / p99, converted vs native',
    `${e.converted_first_chunk_p50_ms} / ${e.converted_first_chunk_p99_ms} vs ${e.native_first_chunk_p50_ms} / ${e.native_first_chunk_p99_ms} ms`,
    e.failed ? `${e.failed} failed` : '',
  ]);
  rows.push([
    'conversion adds to first chunk p50 / p99',
    `${e.added_first_chunk_p50_ms} / ${e.added_first_chunk_p99_ms} ms (own time ${e.converted_own_p50_ms} vs ${e.native_own_p50_ms} ms)`,
    '',
  ]);
  rows.push([
    'CPU per streamed request, converted vs native',
    `${e.converted_cpu_us_per_request} vs ${e.native_cpu_us_per_request} µs (x${e.cpu_ratio})`,
    '',
  ]);
}
if (logs) rows.push([`slowest log-page query, ${logs.rows} rows`, `${logs.slowest_ms} ms`, met(logs.slowest_ms < 100)]);
const w = Math.max(...rows.map((r) => r[0].length));
const v = Math.max(...rows.map((r) => r[1].length));
console.log(rows.map(([k, val, t]) => `${k.padEnd(w)}  ${val.padEnd(v)}  ${t}`).join('\n'));
writeFileSync('bench-results.json', `${JSON.stringify(results, null, 2)}\n`);
console.log('\nfull results: bench-results.json');
