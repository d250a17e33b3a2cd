import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as copyRetryCount } from '../../../migrations/2026-11-26T0400-retry-count.ts';
import { login, restHeaders, ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../../../test/users.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  ledger,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';

/*
 * Failover out of the box (issue 28): on a fresh install, with every option at its default, a
 * request whose channel cannot be reached, answers 5xx or 429 is carried to another channel serving
 * the model; a client error (400) is not. The gateway is called through the official openai SDK with
 * its own retries off, so every success here is the gateway's doing.
 */

let h: RelayHarness;
let deadUrl: string;
// Priced by the default ModelRatio: no option is changed before the acceptance test.
const MODEL = 'gpt-4o-mini';

beforeAll(async () => {
  h = await startRelayHarness();
  // A loopback port that was open a moment ago and has nothing listening now: connections are refused.
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  deadUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise<void>((r) => probe.close(() => r()));
});
afterAll(async () => {
  await h.close();
});

const ask = (key: string, model = MODEL) =>
  h.client(key).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });

describe('failover with default settings', () => {
  it('a dead channel at priority 10 and a healthy one at priority 0: 100 sequential requests all succeed', async () => {
    expect(h.deps.services.options.get('RetryTimes')).toBe(3);
    const dead = await insertChannel(h.deps, { name: 'dead', baseUrl: deadUrl, models: [MODEL], priority: 10 });
    const good = await insertChannel(h.deps, { name: 'good', baseUrl: h.fake.url, models: [MODEL], priority: 0 });
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id, { unlimited: true });
    const before = h.fake.requests.length;
    let ok = 0;
    for (let i = 0; i < 100; i++) {
      const r = await ask(token.key);
      if (r.choices[0]?.message.content) ok++;
    }
    expect(ok).toBe(100);
    expect(h.fake.requests.length - before).toBe(100);
    await h.drain();
    const l = await ledger(h.deps, user.id, token.id);
    expect(l.logs).toHaveLength(100);
    // Each request tried the dead channel first (highest priority), then the healthy one.
    expect(
      l.logs.every((row) => {
        const chain = (JSON.parse(row.other) as { admin_info: { use_channel: string[] } }).admin_info.use_channel;
        return chain.join() === `${dead},${good}` && Number(row.channel_id) === good;
      }),
    ).toBe(true);
    // A refused connection says nothing about the key: the channel stays enabled.
    const row = await h.deps.db
      .selectFrom('channels')
      .select('status')
      .where('id', '=', dead)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(1);
  });

  it('after every priority level was tried, the other channels of a level are tried too', async () => {
    const model = 'gpt-4o';
    // Level 10: one dead, one healthy; level 0: one dead. The i-th attempt takes level i, then what is left.
    await insertChannel(h.deps, { baseUrl: deadUrl, models: [model], priority: 10 });
    await insertChannel(h.deps, { baseUrl: h.fake.url, models: [model], priority: 10 });
    await insertChannel(h.deps, { baseUrl: deadUrl, models: [model], priority: 0 });
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id, { unlimited: true });
    for (let i = 0; i < 20; i++) await expect(ask(token.key, model)).resolves.toBeDefined();
  });

  it('a 500 and a 429 move on to the next channel; the client never sees them', async () => {
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id, { unlimited: true });
    for (const [model, fail] of [
      ['gpt-4.1', 'fail-500'],
      ['gpt-4.1-mini', 'fail-503'],
      ['gpt-4.1-nano', 'fail-429'],
    ]) {
      const failing = await insertChannel(h.deps, {
        baseUrl: h.fake.url,
        models: [model],
        priority: 10,
        modelMapping: { [model]: fail },
      });
      const good = await insertChannel(h.deps, { baseUrl: h.fake.url, models: [model], priority: 0 });
      const before = h.fake.requests.length;
      const r = await ask(token.key, model);
      expect(r.choices[0].message.content, fail).toBeTruthy();
      const sent = h.fake.requests.slice(before).map((q) => q.body.model);
      expect(sent, fail).toEqual([fail, model]);
      await h.drain();
      const last = (await ledger(h.deps, user.id, token.id)).logs.at(-1)!;
      expect(JSON.parse(last.other).admin_info.use_channel, fail).toEqual([String(failing), String(good)]);
    }
  });

  it('a 400 is the client’s mistake: not retried, the client gets it', async () => {
    const model = 'o3-mini';
    await insertChannel(h.deps, {
      baseUrl: h.fake.url,
      models: [model],
      priority: 10,
      modelMapping: { [model]: 'fail-400' },
    });
    await insertChannel(h.deps, { baseUrl: h.fake.url, models: [model], priority: 0 });
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id, { unlimited: true });
    const before = h.fake.requests.length;
    await expect(ask(token.key, model)).rejects.toMatchObject({ status: 400 });
    expect(h.fake.requests.length - before).toBe(1);
  });

  it('RetryTimes set explicitly to 0 is kept: the dead channel then fails the request', async () => {
    const model = 'gpt-4o-2024-11-20';
    await insertChannel(h.deps, { baseUrl: deadUrl, models: [model], priority: 10 });
    await insertChannel(h.deps, { baseUrl: h.fake.url, models: [model], priority: 0 });
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id, { unlimited: true });
    await setOptions(h.deps, { RetryTimes: '0' });
    try {
      await expect(ask(token.key, model)).rejects.toMatchObject({ status: 502 });
    } finally {
      await setOptions(h.deps, { RetryTimes: '3' });
    }
  });
});

describe('multi-key channels', () => {
  it('a rate-limited key tries another key of the same channel first; force_channel_switch goes to another channel', async () => {
    const model = 'gpt-4-turbo';
    const multi = await insertChannel(h.deps, {
      baseUrl: h.fake.url,
      key: 'fail-429-a\ngood-a',
      models: [model],
      priority: 10,
      setting: { multi_key_mode: 'polling' },
    });
    const other = await insertChannel(h.deps, { baseUrl: h.fake.url, key: 'good-b', models: [model], priority: 0 });
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id, { unlimited: true });
    /** The keys each request reached, in order. */
    const keysPerRequest = async (n: number) => {
      const out: string[][] = [];
      for (let i = 0; i < n; i++) {
        const before = h.fake.requests.length;
        await ask(token.key, model);
        out.push(h.fake.requests.slice(before).map((r) => String(r.headers.authorization).replace('Bearer ', '')));
      }
      return out;
    };
    const after429 = (runs: string[][]) => runs.filter((k) => k[0] === 'fail-429-a').map((k) => k[1]);
    const same = await keysPerRequest(4);
    expect(after429(same).length).toBeGreaterThan(0);
    expect(new Set(after429(same))).toEqual(new Set(['good-a']));
    await setOptions(h.deps, { 'global.auto_retry_force_channel_switch': 'true' });
    try {
      const switched = await keysPerRequest(4);
      expect(after429(switched).length).toBeGreaterThan(0);
      expect(new Set(after429(switched))).toEqual(new Set(['good-b']));
    } finally {
      await setOptions(h.deps, { 'global.auto_retry_force_channel_switch': 'false' });
    }
    expect(multi).not.toBe(other);
  });
});

describe('one retry count under two names', () => {
  it('a legacy client setting global.auto_retry_count sets RetryTimes, and the other way round', async () => {
    await setupRoot(h.t);
    const headers = restHeaders(await login(h.t, ROOT_USERNAME, ROOT_PASSWORD));
    const put = (key: string, value: string) =>
      h.t.app.inject({ method: 'PUT', url: '/api/option/', headers, payload: { key, value } });
    const stored = async () => {
      const rows = (
        (await h.t.app.inject({ method: 'GET', url: '/api/option/', headers })).json() as {
          data: { key: string; value: string }[];
        }
      ).data;
      const get = (k: string) => rows.find((r) => r.key === k)?.value;
      return { retryTimes: get('RetryTimes'), legacy: get('global.auto_retry_count') };
    };
    expect((await put('global.auto_retry_count', '5')).json()).toMatchObject({ success: true });
    expect(await stored()).toEqual({ retryTimes: '5', legacy: '5' });
    expect(h.deps.services.options.get('RetryTimes')).toBe(5);
    expect((await put('RetryTimes', '2')).json()).toMatchObject({ success: true });
    expect(await stored()).toEqual({ retryTimes: '2', legacy: '2' });
    // 0 is a valid count (no failover) but not a valid legacy value (1 to 10): the legacy key keeps its last.
    expect((await put('RetryTimes', '0')).json()).toMatchObject({ success: true });
    expect(await stored()).toEqual({ retryTimes: '0', legacy: '2' });
    await put('RetryTimes', '3');
  });

  it('upgrading: a database that had automatic retry on with its own count keeps that count', async () => {
    const db = h.deps.db;
    const setRow = (key: string, value: string) =>
      db
        .insertInto('options')
        .values({ key, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
        .execute();
    const value = async (key: string) =>
      (await db.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst())?.value;
    await db.deleteFrom('options').where('key', 'in', ['RetryTimes', 'global.auto_retry_count']).execute();
    await setRow('global.auto_retry_enabled', 'true');
    await setRow('global.auto_retry_count', '6');
    await copyRetryCount(db as never);
    expect(await value('RetryTimes')).toBe('6');
    // An operator's own RetryTimes is never overwritten.
    await setRow('RetryTimes', '1');
    await setRow('global.auto_retry_count', '9');
    await copyRetryCount(db as never);
    expect(await value('RetryTimes')).toBe('1');
    await db.deleteFrom('options').where('key', 'like', 'global.auto_retry%').execute();
    await setRow('RetryTimes', '3');
    await h.deps.services.options.load();
  });
});
