import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeOpenAI } from '../../../scripts/fake-upstream/server.ts';
import { createPgSchema, createTestApp, type TestApp } from '../../../test/app.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../../../test/relay-fixtures.ts';
import { relayRuntimeOf } from '../runtime.ts';
import { agentSession, cacheShare } from './session-affinity.fixtures.ts';
import { needsRedis } from '../../../test/skips/needs.ts';

/*
 * Session affinity across instances (issue 29): two gateways behind a load balancer share one Redis
 * (and one database: a SQLite file, or a PostgreSQL schema when TEST_SQL_DSN is set). A session whose
 * turns alternate between them stays on one key of a 3-key channel: the pin one instance writes is
 * the one the other reads. Runs where Redis is configured (TEST_REDIS_URL, as CI sets it).
 */

const redisUrl = process.env.TEST_REDIS_URL ?? '';
const dsn = process.env.TEST_SQL_DSN ?? '';
// Each run its own key space in the shared Redis: no pin of an earlier run is read.
const prefix = `test-affinity-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}:`;

let dataDir: string | undefined;
let schema: Awaited<ReturnType<typeof createPgSchema>> | undefined;
let a: TestApp;
let b: TestApp;
let fake: FakeUpstream;
const base = { a: '', b: '' };

async function listen(t: TestApp) {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
}

describe.skipIf(!redisUrl)(needsRedis.name('session affinity across two instances sharing Redis'), () => {
  beforeAll(async () => {
    schema = /^postgres(ql)?:\/\//.test(dsn) ? await createPgSchema(dsn) : undefined;
    dataDir = schema ? undefined : mkdtempSync(path.join(os.tmpdir(), 'switchyard-affinity-'));
    const shared = schema ? { sqlDsn: schema.url, redisUrl } : { dataDir, redisUrl };
    // One after the other: the second opens the database the first migrated.
    a = await createTestApp({ redisKeyPrefix: prefix }, shared);
    b = await createTestApp({ redisKeyPrefix: prefix }, shared);
    fake = await startFakeOpenAI();
    base.a = await listen(a);
    base.b = await listen(b);
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await fake?.close();
    await schema?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('a 6-turn session alternating between the instances stays on one key; its cache read rises', async () => {
    await setOptions(a.deps, { ModelRatio: JSON.stringify({ 'aff-redis': 1 }) });
    await setOptions(b.deps, { ModelRatio: JSON.stringify({ 'aff-redis': 1 }) });
    const key = [0, 1, 2].map((i) => `redis-k${i}+prompt-cache`).join('\n');
    await insertChannel(a.deps, { key, baseUrl: fake.url, models: ['aff-redis'] });
    await relayRuntimeOf(b.deps)!.routing.reload();
    const user = await insertUser(a.deps);
    const token = (await insertToken(a.deps, user.id, { unlimited: true })).key;
    // One conversation whose turns go to A and B in turn, as a load balancer would send them.
    const turns = await agentSession({ baseURL: base.a, fake }, token, 'aff-redis', {
      headers: { 'x-session-id': 'across-instances' },
      turns: 6,
      baseURLs: [base.a, base.b],
    });
    expect(turns.every((t) => t.status === 200)).toBe(true);
    expect(new Set(turns.map((t) => t.keys.join())).size).toBe(1);
    for (let i = 1; i < turns.length; i++) expect(turns[i].cached).toBeGreaterThan(turns[i - 1].cached);
    console.log(
      `[session affinity] 6 turns alternating between two instances (Redis): cache-read share ${(cacheShare(turns) * 100).toFixed(1)}%`,
    );
  });
});
