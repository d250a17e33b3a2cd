import { randomBytes, randomInt } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '../../shared/constants.ts';
import { relayRuntimeOf } from '../../server/relay/runtime.ts';
import { type FakeUpstream, startFakeOpenAI } from '../../scripts/fake-upstream/server.ts';
import { signThinking } from '../../scripts/fake-upstream/strict/signatures.ts';
import { startStrictUpstream } from '../../scripts/fake-upstream/strict/index.ts';
import { createPgSchema, createTestApp, type TestApp } from '../app.ts';
import { insertChannel, insertUser, setOptions } from '../relay-fixtures.ts';
import { needsPostgresAndRedis } from '../skips/needs.ts';

/*
 * Scale-out: two gateway instances on one PostgreSQL schema and one Redis, as
 * deployed behind a load balancer. Runs only where both are configured (CI sets
 * TEST_SQL_DSN=postgres://... and TEST_REDIS_URL).
 */

const dsn = process.env.TEST_SQL_DSN ?? '';
const redisUrl = process.env.TEST_REDIS_URL ?? '';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const weather = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
};
type ChatAnswer = { choices: { message: { tool_calls?: { id: string; type: string; function: object }[] } }[] };

let schema: Awaited<ReturnType<typeof createPgSchema>>;
let a: TestApp;
let b: TestApp;
let fake: FakeUpstream;
const base: Record<'a' | 'b', string> = { a: '', b: '' };

async function listen(t: TestApp) {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
}

/** A token with an id no other test uses, so shared Redis counters keyed by token id never collide. */
async function uniqueToken(t: TestApp, userId: number, o: { remainQuota?: number; rateLimit?: number } = {}) {
  const key = randomBytes(24).toString('hex');
  const id = randomInt(10_000_000, 2_000_000_000);
  await t.deps.db
    .insertInto('tokens')
    .values({
      id,
      user_id: userId,
      key,
      name: 'two-instances',
      status: 1,
      remain_quota: o.remainQuota ?? 1_000_000,
      unlimited_quota: 0,
      expired_time: -1,
      rate_limit_enabled: o.rateLimit ? 1 : 0,
      rate_limit_period: 60,
      rate_limit_count: o.rateLimit ?? 0,
      rate_limit_success: 0,
      created_time: Math.floor(Date.now() / 1000),
    } as never)
    .execute();
  return { id, key: `sk-${key}` };
}

async function chat(which: 'a' | 'b', key: string, model: string, extra: object = {}) {
  const res = await fetch(`${base[which]}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello from a test' }], ...extra }),
  });
  await res.text();
  return res.status;
}

/** Waits until instance `t` routes `model` to exactly `count` channels (it heard the change over Redis). */
async function waitForRouting(t: TestApp, model: string, count: number, limitMs = 5000) {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    if (relayRuntimeOf(t.deps)!.routing.candidates('default', model).length === count) return Date.now() - started;
    await sleep(20);
  }
  throw new Error(`routing of ${model} never reached ${count} channels`);
}

describe.skipIf(!needsPostgresAndRedis.ok)(
  needsPostgresAndRedis.name('two instances on one PostgreSQL and one Redis'),
  () => {
    beforeAll(async () => {
      schema = await createPgSchema(dsn);
      // Migrate once with the first instance; the second opens the migrated schema.
      a = await createTestApp({}, { sqlDsn: schema.url, redisUrl });
      b = await createTestApp({}, { sqlDsn: schema.url, redisUrl });
      fake = await startFakeOpenAI();
      base.a = await listen(a);
      base.b = await listen(b);
      await setOptions(a.deps, {
        ModelRatio: JSON.stringify({ 'rl-model': 1, 'health-model': 1, 'spend-model': 1 }),
        CompletionRatio: JSON.stringify({ 'rl-model': 1, 'health-model': 1, 'spend-model': 1 }),
      });
      // B hears the option change over Redis.
      for (let i = 0; i < 100 && b.deps.services.options.get('ModelRatio')['spend-model'] !== 1; i++) await sleep(20);
      expect(b.deps.services.options.get('ModelRatio')['spend-model']).toBe(1);
    }, 60_000);
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await fake?.close();
      await schema?.drop();
    });

    it('a token rate limit is shared: requests alternating between instances hit one counter', async () => {
      await insertChannel(a.deps, { baseUrl: fake.url, models: ['rl-model'] });
      await waitForRouting(b, 'rl-model', 1);
      const user = await insertUser(a.deps);
      const token = await uniqueToken(a, user.id, { rateLimit: 4 });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push(await chat(i % 2 === 0 ? 'a' : 'b', token.key, 'rl-model'));
      // Each instance alone saw only 3 requests; together they saw 6, and the limit is 4.
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    });

    it('a channel disabled on one instance stops being used by the other within a second', async () => {
      const first = await insertChannel(a.deps, {
        name: 'first',
        baseUrl: fake.url,
        models: ['health-model'],
        priority: 10,
        modelMapping: { 'health-model': 'served-by-first' },
      });
      await insertChannel(a.deps, {
        name: 'second',
        baseUrl: fake.url,
        models: ['health-model'],
        priority: 0,
        modelMapping: { 'health-model': 'served-by-second' },
      });
      await waitForRouting(b, 'health-model', 2);
      const user = await insertUser(a.deps);
      const token = await uniqueToken(a, user.id);
      expect(await chat('b', token.key, 'health-model')).toBe(200);
      expect(fake.requests.at(-1)!.body.model).toBe('served-by-first');

      const disabledAt = Date.now();
      await a.deps.services.channels.setStatus([first], 2);
      let servedBy = '';
      while (Date.now() - disabledAt < 1000) {
        expect(await chat('b', token.key, 'health-model')).toBe(200);
        servedBy = String(fake.requests.at(-1)!.body.model);
        if (servedBy === 'served-by-second') break;
        await sleep(25);
      }
      expect(servedBy).toBe('served-by-second');
      expect(Date.now() - disabledAt).toBeLessThan(1000);
      // And it stays that way.
      for (let i = 0; i < 5; i++) {
        await chat('b', token.key, 'health-model');
        expect(fake.requests.at(-1)!.body.model).toBe('served-by-second');
      }
    });

    it('concurrent load split across both instances never overspends a token', async () => {
      await insertChannel(a.deps, { baseUrl: fake.url, models: ['spend-model'] });
      await waitForRouting(b, 'spend-model', 1);
      const user = await insertUser(a.deps, { quota: 10_000_000 });
      // Each request reserves at most prompt + 8 and costs about 16: the budget covers ~10 of 40.
      const budget = 160;
      const token = await uniqueToken(a, user.id, { remainQuota: budget });
      const statuses = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          chat(i % 2 === 0 ? 'a' : 'b', token.key, 'spend-model', { max_tokens: 8 }),
        ),
      );
      await relayRuntimeOf(a.deps)!.drain();
      await relayRuntimeOf(b.deps)!.drain();
      const ok = statuses.filter((s) => s === 200).length;
      expect(ok).toBeGreaterThan(0);
      expect(ok).toBeLessThan(40);
      expect(
        statuses.every((s) => s === 200 || s === 403 || s === 429),
        statuses.join(),
      ).toBe(true);
      const row = await a.deps.db.selectFrom('tokens').selectAll().where('id', '=', token.id).executeTakeFirstOrThrow();
      const logs = await a.deps.db
        .selectFrom('logs')
        .select(['quota', 'type'])
        .where('token_id', '=', token.id)
        .execute();
      const consumed = logs.filter((l) => l.type === LogType.Consume);
      const logQuota = logs.reduce((s, l) => s + Number(l.quota), 0);
      expect(Number(row.remain_quota)).toBeGreaterThanOrEqual(0);
      expect(consumed).toHaveLength(ok);
      // Every refused request left an error row (issue 28), which billed nothing.
      expect(logs.filter((l) => l.type === LogType.Error)).toHaveLength(40 - ok);
      expect(budget - Number(row.remain_quota)).toBe(logQuota);
      expect(Number(row.used_quota)).toBe(logQuota);
      expect(await a.deps.db.selectFrom('quota_reservations').select('id').execute()).toHaveLength(0);
    });

    it('a tool loop with thinking may change instance between turns: the signature is found in Redis', async () => {
      // A strict Anthropic upstream refuses turn 2 of a thinking tool loop without the signed block it issued;
      // the OpenAI client drops it, so it can only come from the carry-over store the other instance wrote.
      const ant = await startStrictUpstream('anthropic');
      try {
        await setOptions(a.deps, {
          ModelRatio: JSON.stringify({ 'loop-model': 1, 'rl-model': 1, 'health-model': 1, 'spend-model': 1 }),
        });
        await insertChannel(a.deps, {
          type: 14,
          baseUrl: ant.url,
          models: ['loop-model'],
          modelMapping: { 'loop-model': 'claude-x+loop-2' },
        });
        await waitForRouting(b, 'loop-model', 1);
        for (let i = 0; i < 100 && b.deps.services.options.get('ModelRatio')['loop-model'] !== 1; i++) await sleep(20);
        const user = await insertUser(a.deps);
        const token = await uniqueToken(a, user.id);
        const ask = async (which: 'a' | 'b', messages: object[]) => {
          const res = await fetch(`${base[which]}/chat/completions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ model: 'loop-model', reasoning_effort: 'low', tools: [weather], messages }),
          });
          return { status: res.status, body: (await res.json()) as ChatAnswer };
        };
        const history: object[] = [{ role: 'user', content: 'weather?' }];
        const one = await ask('a', history);
        expect(one.status).toBe(200);
        const call = one.body.choices[0].message.tool_calls![0];
        history.push(
          { role: 'assistant', content: null, tool_calls: [call] },
          { role: 'tool', tool_call_id: call.id, content: 'sunny' },
        );
        const two = await ask('b', history);
        expect(two.status, JSON.stringify(two.body)).toBe(200);
        const sent = ant.requests.at(-1)!.body as {
          thinking?: unknown;
          messages: { content: { type: string; signature?: string }[] }[];
        };
        expect(sent.thinking).toMatchObject({ type: 'enabled' });
        expect(sent.messages[1].content[0]).toMatchObject({
          type: 'thinking',
          signature: signThinking('Let me think.'),
        });
      } finally {
        await ant.close();
      }
    });
  },
);
