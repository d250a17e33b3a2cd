import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { relayRuntimeOf } from '../server/relay/runtime.ts';
import { createTestApp } from '../test/app.ts';
import { insertChannel, insertToken, setOptions } from '../test/relay-fixtures.ts';
import { createUser, login, setupRoot } from '../test/users.ts';

/*
 * `npm run soak [-- --minutes N]`: mixed traffic against one in-process gateway
 * (SQLite in a temp dir) and a fake OpenAI upstream in its own process on
 * loopback, for 10 minutes by default, with bounded concurrency: chat JSON,
 * chat streams, embeddings and console API reads. Every minute it prints the
 * heap and RSS (after a GC when run with --expose-gc, as `npm run soak` does);
 * at the end the memory growth per minute, the error count and the quota
 * consistency check: the log rows' quota equals the used quota of the users and
 * of the tokens, and no reservation is left. Not a test: exits 1 on errors or
 * an inconsistent ledger.
 */

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const MINUTES = arg('minutes', 10);
const CONCURRENCY = Math.min(64, Math.floor(arg('concurrency', 16)));
const USERS = 8;
const USER_QUOTA = 1e12;

const t = await createTestApp({ logLevel: 'silent' });
const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/fake-upstream/main.ts', '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [line] = (await once(child.stdout, 'data')) as [Buffer];
const fakeUrl = /http:\/\/[\d.:]+/.exec(line.toString())![0];

await setOptions(t.deps, {
  ModelRatio: JSON.stringify({ 'soak-chat': 1, 'soak-embed': 0.05 }),
  CompletionRatio: JSON.stringify({ 'soak-chat': 2 }),
  LogConsumeEnabled: 'true',
});
await insertChannel(t.deps, { baseUrl: fakeUrl, models: ['soak-chat', 'soak-embed'] });
await t.app.listen({ port: 0, host: '127.0.0.1' });
const gw = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
await setupRoot(t);

const users: { id: number; key: string; tokenId: number; cookie: string; headers: Record<string, string> }[] = [];
for (let i = 0; i < USERS; i++) {
  const u = await createUser(t, { quota: USER_QUOTA });
  // Half the tokens are limited, so reservations are taken and settled all the time.
  const tok = await insertToken(t.deps, u.id, i % 2 === 0 ? { remainQuota: 1e11 } : { unlimited: true });
  const s = await login(t, u.username, u.password);
  users.push({
    id: u.id,
    key: tok.key,
    tokenId: tok.id,
    cookie: s.cookie,
    headers: { cookie: s.cookie, 'new-api-user': String(u.id) },
  });
}

const agent = new Agent({ connections: CONCURRENCY * 2, keepAliveTimeout: 30_000 });
const counts = { chat: 0, stream: 0, embed: 0, console: 0, errors: 0 };
const errorSamples: string[] = [];

async function one(i: number) {
  const u = users[i % USERS];
  const kind = i % 10;
  let path = '/v1/chat/completions';
  let method: 'GET' | 'POST' = 'POST';
  let headers: Record<string, string> = { authorization: `Bearer ${u.key}`, 'content-type': 'application/json' };
  let body: string | undefined;
  let bucket: keyof typeof counts;
  if (kind < 4) {
    bucket = 'chat';
    body = JSON.stringify({ model: 'soak-chat', max_tokens: 16, messages: [{ role: 'user', content: `soak ${i}` }] });
  } else if (kind < 7) {
    bucket = 'stream';
    body = JSON.stringify({ model: 'soak-chat', stream: true, messages: [{ role: 'user', content: `stream ${i}` }] });
  } else if (kind < 8) {
    bucket = 'embed';
    path = '/v1/embeddings';
    body = JSON.stringify({ model: 'soak-embed', input: [`embed ${i}`, 'second input'] });
  } else {
    bucket = 'console';
    method = 'GET';
    path = ['/api/user/self', '/api/log/self?p=1&page_size=10', '/api/token/?p=1&size=10'][i % 3];
    headers = u.headers;
  }
  try {
    const res = await request(`${gw}${path}`, { method, headers, body, dispatcher: agent });
    const text = await res.body.text();
    const good =
      res.statusCode === 200 && (bucket !== 'stream' ? text.length > 0 : text.trimEnd().endsWith('data: [DONE]'));
    if (!good) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 120)}`);
    counts[bucket] += 1;
  } catch (err) {
    counts.errors += 1;
    if (errorSamples.length < 10) errorSamples.push((err as Error).message);
  }
}

const gc = (globalThis as { gc?: () => void }).gc;
const mem = () => {
  gc?.();
  const m = process.memoryUsage();
  return { heapMb: m.heapUsed / 2 ** 20, rssMb: m.rss / 2 ** 20 };
};
const samples: { minute: number; heapMb: number; rssMb: number }[] = [{ minute: 0, ...mem() }];
const started = Date.now();
const end = started + MINUTES * 60_000;
let seq = 0;
console.log(`soak: ${MINUTES} min, concurrency ${CONCURRENCY}, gateway ${gw}, fake upstream ${fakeUrl}`);
const ticker = setInterval(
  () => {
    const minute = (Date.now() - started) / 60_000;
    const m = mem();
    samples.push({ minute, ...m });
    console.log(
      `  ${minute.toFixed(1)} min: heap ${m.heapMb.toFixed(1)} MB, rss ${m.rssMb.toFixed(1)} MB, ` +
        `chat ${counts.chat}, stream ${counts.stream}, embed ${counts.embed}, console ${counts.console}, errors ${counts.errors}`,
    );
  },
  Math.min(60_000, MINUTES * 60_000),
);
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < end) await one(seq++);
  }),
);
clearInterval(ticker);
samples.push({ minute: (Date.now() - started) / 60_000, ...mem() });

await relayRuntimeOf(t.deps)!.drain();
const db = t.deps.db;
const ids = users.map((u) => u.id);
const logSum = await db
  .selectFrom('logs')
  .select((eb) => eb.fn.sum<number>('quota').as('q'))
  .where('type', '=', 2)
  .where('user_id', 'in', ids)
  .executeTakeFirstOrThrow();
const userRows = await db.selectFrom('users').select(['quota', 'used_quota']).where('id', 'in', ids).execute();
const tokenRows = await db
  .selectFrom('tokens')
  .select(['used_quota'])
  .where(
    'id',
    'in',
    users.map((u) => u.tokenId),
  )
  .execute();
const reservations = (await db.selectFrom('quota_reservations').select('id').execute()).length;
const logQuota = Number(logSum.q ?? 0);
const userUsed = userRows.reduce((s, r) => s + Number(r.used_quota), 0);
const userSpent = userRows.reduce((s, r) => s + (USER_QUOTA - Number(r.quota)), 0);
const tokenUsed = tokenRows.reduce((s, r) => s + Number(r.used_quota), 0);

// Growth per minute: least-squares slope of the heap after the first minute's warm-up.
const steady = samples.filter((s) => s.minute >= Math.min(1, MINUTES / 2));
const slope = (key: 'heapMb' | 'rssMb') => {
  const span = steady.length > 1 ? steady.at(-1)!.minute - steady[0].minute : 0;
  // Short runs: the plain difference over the whole run.
  if (span < 0.9) return (samples.at(-1)![key] - samples[0][key]) / Math.max(samples.at(-1)!.minute, 1e-9);
  const mx = steady.reduce((s, p) => s + p.minute, 0) / steady.length;
  const my = steady.reduce((s, p) => s + p[key], 0) / steady.length;
  const num = steady.reduce((s, p) => s + (p.minute - mx) * (p[key] - my), 0);
  const den = steady.reduce((s, p) => s + (p.minute - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
};
const consistent = logQuota === userUsed && userUsed === userSpent && userUsed === tokenUsed && reservations === 0;
const total = counts.chat + counts.stream + counts.embed + counts.console;
console.log(`
requests: ${total} ok (chat ${counts.chat}, stream ${counts.stream}, embeddings ${counts.embed}, console ${counts.console}), errors ${counts.errors}
memory: heap ${samples[0].heapMb.toFixed(1)} -> ${samples.at(-1)!.heapMb.toFixed(1)} MB, growth ${slope('heapMb').toFixed(2)} MB/min heap, ${slope('rssMb').toFixed(2)} MB/min rss${gc ? '' : ' (no --expose-gc: figures include garbage)'}
quota: logs ${logQuota}, users used ${userUsed} (spent ${userSpent}), tokens used ${tokenUsed}, reservations left ${reservations} -> ${consistent ? 'consistent' : 'INCONSISTENT'}`);
if (errorSamples.length) console.log(`error samples:\n  ${errorSamples.join('\n  ')}`);

await agent.close();
await t.close();
child.kill();
process.exit(consistent && counts.errors === 0 ? 0 : 1);
