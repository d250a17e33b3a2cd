import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType, Role } from '../../../shared/constants.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';
import { ROOT_PASSWORD, ROOT_USERNAME, login, restHeaders, setupRoot, trpcCaller } from '../../../test/users.ts';

/*
 * Error log rows (issue 28): a failed call, and every failed attempt retried elsewhere, leave a
 * type-6 row the operator finds in the usage log within a second: the status, the error's type and
 * code, the channel, the attempt and the reason with secrets taken out. They never bill.
 */

const LEAKED_KEY = 'sk-channel-secret-0123456789abcdef';

let h: RelayHarness;
let admin: Record<string, string>;
beforeAll(async () => {
  h = await startRelayHarness({
    // An upstream that repeats what it was sent (its key, a Bearer header, a signed URL) in its error.
    validate: (_path, headers, body) =>
      body.model === 'leaky-upstream'
        ? {
            status: 500,
            body: {
              error: {
                message: `upstream exploded for ${String(headers.authorization)}; key ${LEAKED_KEY}; retry https://cdn.example/x?key=AIzaSyA-0123456789abcdefghijklmnop&alt=sse and token sk-proj-abcdefghijklmnop`,
                type: 'server_error',
              },
            },
          }
        : null,
  });
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify({
      'refused-model': 1,
      'retry-model': 1,
      'doomed-model': 1,
      'leaky-model': 1,
      'no-channel-model': 1,
      'quiet-model': 1,
      'claude-err': 1,
    }),
    RetryTimes: '2',
  });
  await setupRoot(h.t);
  admin = restHeaders(await login(h.t, ROOT_USERNAME, ROOT_PASSWORD));
  // Nothing listens on port 1: every call there is refused.
  await insertChannel(h.deps, { name: 'nowhere', baseUrl: 'http://127.0.0.1:1', models: ['refused-model'] });
  await insertChannel(h.deps, {
    name: 'flaky',
    baseUrl: h.fake.url,
    models: ['retry-model'],
    priority: 10,
    modelMapping: { 'retry-model': 'fail-500' },
  });
  await insertChannel(h.deps, { name: 'steady', baseUrl: h.fake.url, models: ['retry-model'], priority: 0 });
  for (const [name, priority] of [
    ['doomed-a', 10],
    ['doomed-b', 0],
  ] as const)
    await insertChannel(h.deps, {
      name,
      baseUrl: h.fake.url,
      models: ['doomed-model', 'quiet-model'],
      priority,
      modelMapping: { 'doomed-model': 'fail-502', 'quiet-model': 'fail-502' },
    });
  await insertChannel(h.deps, {
    name: 'leaky',
    key: LEAKED_KEY,
    baseUrl: h.fake.url,
    models: ['leaky-model'],
    modelMapping: { 'leaky-model': 'leaky-upstream' },
  });
  await insertChannel(h.deps, { name: 'claude', type: 14, baseUrl: h.fake.url, models: ['claude-err'] });
});
afterAll(async () => {
  await h.close();
});

interface ErrorRow {
  id: number;
  type: number;
  user_id: number;
  username: string;
  token_name: string;
  model_name: string;
  channel: number;
  channel_name: string;
  quota: number;
  content: string;
  request_id: string;
  other: string;
  created_at: number;
}
interface ErrorOther {
  error_type: string;
  error_code: string;
  status_code: number;
  channel_id: number;
  attempt: number;
  retried: boolean;
  duration_ms: number;
  request_id: string;
  admin_info: { use_channel: string[]; upstream_reason?: string };
  message?: { code: string; params: Record<string, string> };
}

/** The user's error rows as the admin's usage log lists them (GET /api/log/?type=6), oldest first. */
async function errorRows(username: string): Promise<(ErrorRow & { o: ErrorOther })[]> {
  const res = await h.t.app.inject({
    method: 'GET',
    url: `/api/log/?type=${LogType.Error}&username=${username}&page_size=100`,
    headers: admin,
  });
  const body = res.json() as { success: boolean; data: { items: ErrorRow[] } };
  expect(body.success).toBe(true);
  return body.data.items
    .map((r) => ({ ...r, o: JSON.parse(r.other) as ErrorOther }))
    .sort((a, b) => a.o.attempt - b.o.attempt || a.id - b.id);
}

/**
 * Waits (without draining the writer) until the user's error rows number `n`: they must show within a second.
 * `ms` is when the query that found them was sent (they were in the database by then): on a loaded CI machine
 * the query itself may take longer than the write did.
 */
async function rowsWithinASecond(username: string, n: number) {
  const t0 = Date.now();
  for (;;) {
    const askedMs = Date.now() - t0;
    const rows = await errorRows(username);
    if (rows.length >= n) return { rows, ms: askedMs };
    if (askedMs > 1000) {
      const queued = await h.deps.db
        .selectFrom('logs')
        .select(['id', 'type', 'username'])
        .where('type', '=', 6)
        .execute();
      throw new Error(`only ${rows.length} of ${n} error rows after 1 s; in db: ${JSON.stringify(queued)}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** What a user holds: balances and counters error rows must never change. */
async function balances(userId: number, tokenId: number) {
  const u = await h.deps.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const t = await h.deps.db.selectFrom('tokens').selectAll().where('id', '=', tokenId).executeTakeFirstOrThrow();
  return {
    quota: Number(u.quota),
    used: Number(u.used_quota),
    requests: Number(u.request_count),
    remain: Number(t.remain_quota),
    tokenUsed: Number(t.used_quota),
  };
}

async function caller(remainQuota = 500_000) {
  const user = await insertUser(h.deps, { quota: 1_000_000 });
  const token = await insertToken(h.deps, user.id, { name: 'err-token', remainQuota });
  return { user, token, before: await balances(user.id, token.id) };
}

const chat = (key: string, model: string) =>
  h.client(key).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });

describe('error log rows', () => {
  it('a 502 (connection refused) leaves one error row within a second, unbilled, naming the channel', async () => {
    const c = await caller();
    const err = await chat(c.token.key, 'refused-model').catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 502 });
    const { rows, ms } = await rowsWithinASecond(c.user.username, 1);
    expect(ms).toBeLessThan(1000);
    expect(rows).toHaveLength(1);
    const [r] = rows;
    expect(r).toMatchObject({
      type: LogType.Error,
      user_id: c.user.id,
      username: c.user.username,
      token_name: 'err-token',
      model_name: 'refused-model',
      channel_name: 'nowhere',
      quota: 0,
    });
    expect(r.o).toMatchObject({
      error_type: 'upstream_error',
      error_code: 'upstream_connection_error',
      status_code: 502,
      channel_id: r.channel,
      attempt: 1,
      retried: false,
      request_id: r.request_id,
      admin_info: { use_channel: [String(r.channel)] },
    });
    expect(r.request_id).not.toBe('');
    expect(r.o.duration_ms).toBeGreaterThanOrEqual(0);
    // Legacy clients read the Chinese line; the console renders the stored English or Chinese.
    expect(r.content).toContain('上游连接失败');
    expect(r.o.message?.code).toBe('log.relay_error');
    expect(r.o.message?.params.en).toContain('Could not connect to the upstream');
    expect(await balances(c.user.id, c.token.id)).toEqual(c.before);
  });

  it('a model no channel serves: one row with the status and code the client got, no channel', async () => {
    const c = await caller();
    const err = (await chat(c.token.key, 'no-channel-model').catch((e: unknown) => e)) as {
      status: number;
      code: string;
    };
    expect([404, 503]).toContain(err.status);
    const { rows } = await rowsWithinASecond(c.user.username, 1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ model_name: 'no-channel-model', channel: 0, quota: 0 });
    expect(rows[0].o).toMatchObject({
      error_type: 'gateway_error',
      error_code: err.code,
      status_code: err.status,
      attempt: 0,
      retried: false,
    });
    expect(await balances(c.user.id, c.token.id)).toEqual(c.before);
  });

  it('a 403 refusal through the Anthropic door (model not allowed for the token) is logged in both languages', async () => {
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id, { modelLimits: ['retry-model'] });
    const before = await balances(user.id, token.id);
    const client = new Anthropic({ apiKey: token.key, baseURL: h.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
    const err = await client.messages
      .create({ model: 'claude-err', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.PermissionDeniedError);
    const { rows } = await rowsWithinASecond(user.username, 1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      model_name: 'claude-err',
      channel: 0,
      quota: 0,
      content: '该令牌无权访问模型 claude-err',
    });
    expect(rows[0].o).toMatchObject({ status_code: 403, error_code: 'model_not_allowed', error_type: 'gateway_error' });
    expect(rows[0].o.message).toEqual({
      code: 'log.relay_error',
      params: { en: 'This token may not use model claude-err', zh: '该令牌无权访问模型 claude-err' },
    });
    expect(await balances(user.id, token.id)).toEqual(before);
  });

  it('the Gemini door and embeddings: the row names the model of the path, and the failed embedding', async () => {
    const c = await caller();
    const genai = new GoogleGenAI({ apiKey: c.token.key, httpOptions: { baseUrl: h.baseURL.replace(/\/v1$/, '') } });
    const gem = (await genai.models
      .generateContent({ model: 'gemini-nowhere', contents: 'hi' })
      .catch((e: unknown) => e)) as { status: number };
    expect(gem.status).toBeGreaterThanOrEqual(400);
    await expect(
      h.client(c.token.key).embeddings.create({ model: 'refused-model', input: 'hi' }),
    ).rejects.toMatchObject({ status: 502 });
    const { rows } = await rowsWithinASecond(c.user.username, 2);
    const byModel = Object.fromEntries(rows.map((r) => [r.model_name, r]));
    expect(byModel['gemini-nowhere'].o).toMatchObject({ status_code: gem.status, attempt: 0 });
    expect(byModel['refused-model']).toMatchObject({ channel_name: 'nowhere', quota: 0 });
    expect(byModel['refused-model'].o).toMatchObject({ status_code: 502, error_code: 'upstream_connection_error' });
    expect(await balances(c.user.id, c.token.id)).toEqual(c.before);
  });

  it('a 500 retried on a second channel that succeeds: one retried error row and one consume row', async () => {
    const c = await caller();
    const r = await chat(c.token.key, 'retry-model');
    expect(r.choices[0].message.content).toContain('w0');
    const { rows } = await rowsWithinASecond(c.user.username, 1);
    await h.drain();
    expect(await errorRows(c.user.username)).toHaveLength(1);
    expect(rows[0]).toMatchObject({ channel_name: 'flaky', quota: 0, model_name: 'retry-model' });
    expect(rows[0].content).toBe('The fake upstream failed with 500.');
    expect(rows[0].o).toMatchObject({ status_code: 500, attempt: 1, retried: true, error_type: 'upstream_error' });
    const consume = await h.deps.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', c.user.id)
      .where('type', '=', LogType.Consume)
      .execute();
    expect(consume).toHaveLength(1);
    // The consume row alone billed: the user paid what it says, once.
    const after = await balances(c.user.id, c.token.id);
    expect(after.requests).toBe(c.before.requests + 1);
    expect(c.before.quota - after.quota).toBe(Number(consume[0].quota));
  });

  it('a final failure after retries: a row per attempt, only the last not marked retried', async () => {
    const c = await caller();
    const err = await chat(c.token.key, 'doomed-model').catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 502 });
    const { rows } = await rowsWithinASecond(c.user.username, 2);
    await h.drain();
    expect(await errorRows(c.user.username)).toHaveLength(2);
    expect(rows.map((x) => [x.channel_name, x.o.attempt, x.o.retried, x.o.status_code])).toEqual([
      ['doomed-a', 1, true, 502],
      ['doomed-b', 2, false, 502],
    ]);
    expect(rows[1].o.admin_info.use_channel).toEqual(rows.map((x) => String(x.channel)));
    expect(rows.every((x) => x.quota === 0 && x.request_id === rows[0].request_id)).toBe(true);
    expect(await balances(c.user.id, c.token.id)).toEqual(c.before);
  });

  it('keys and secrets are scrubbed from the reason', async () => {
    const c = await caller();
    await expect(chat(c.token.key, 'leaky-model')).rejects.toMatchObject({ status: 500 });
    const { rows } = await rowsWithinASecond(c.user.username, 1);
    const text = JSON.stringify(rows[0]);
    expect(rows[0].content).toContain('upstream exploded for');
    for (const secret of [
      LEAKED_KEY,
      'channel-secret',
      'AIzaSyA-0123456789',
      'sk-proj-abcdefghijklmnop',
      'Bearer sk-c',
    ])
      expect(text).not.toContain(secret);
    expect(rows[0].content).toContain('Bearer ***');
    expect(rows[0].content).toContain('key=***');
  });

  it('ErrorLogEnabled off: failed calls and retried attempts leave no row', async () => {
    await setOptions(h.deps, { ErrorLogEnabled: 'false' });
    try {
      const c = await caller();
      await expect(chat(c.token.key, 'quiet-model')).rejects.toMatchObject({ status: 502 });
      await chat(c.token.key, 'retry-model');
      await h.drain();
      expect(await errorRows(c.user.username)).toEqual([]);
      const all = await h.deps.db.selectFrom('logs').select('type').where('user_id', '=', c.user.id).execute();
      expect(all.map((x) => x.type)).toEqual([LogType.Consume]);
    } finally {
      await setOptions(h.deps, { ErrorLogEnabled: 'true' });
    }
  });

  it('the dashboard counts requests and errors per model and per channel', async () => {
    await h.drain();
    const now = Math.floor(Date.now() / 1000);
    const rates = await trpcCaller(h.t, { id: 1, role: Role.Root }).dashboard.errors({
      start_timestamp: now - 3600,
      end_timestamp: now + 60,
    });
    const model = (m: string) => rates.models.find((x) => x.model_name === m);
    const channel = (n: string) => rates.channels.find((x) => x.channel_name === n);
    // Two failed attempts of one doomed call; the retried call: one failed attempt and one answer.
    expect(model('doomed-model')).toEqual({ model_name: 'doomed-model', requests: 2, errors: 2 });
    expect(model('retry-model')).toMatchObject({ errors: 1 });
    expect(model('retry-model')!.requests).toBeGreaterThanOrEqual(2);
    expect(channel('flaky')).toMatchObject({ errors: 1, requests: 1 });
    expect(channel('steady')).toMatchObject({ errors: 0 });
    // The refused chat and the refused embedding.
    expect(channel('nowhere')).toMatchObject({ errors: 2, requests: 2 });
    // Refusals before any channel was tried count under channel 0.
    expect(rates.channels.find((x) => x.channel_id === 0)?.errors).toBeGreaterThanOrEqual(2);
    // Admins only.
    await expect(
      trpcCaller(h.t, { id: 99, role: Role.Common }).dashboard.errors({ start_timestamp: 0, end_timestamp: now }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('a call whose token fails authentication writes nothing', async () => {
    const before = await h.deps.db.selectFrom('logs').select('id').where('type', '=', LogType.Error).execute();
    await expect(chat('sk-not-a-token', 'refused-model')).rejects.toMatchObject({ status: 401 });
    await h.drain();
    const after = await h.deps.db.selectFrom('logs').select('id').where('type', '=', LogType.Error).execute();
    expect(after.length).toBe(before.length);
  });
});
