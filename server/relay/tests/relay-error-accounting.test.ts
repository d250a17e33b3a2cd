import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '../../../shared/constants.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';

/*
 * Every failed relay call accounted (issue 41): the routes outside the relay pipeline (task routes,
 * model lists, count_tokens, a body refused by the route's own validation) leave one error row with
 * the status the client got and count once in switchyard_relay_requests_total; a relayed call that
 * already logged its failure gets no second row and no second count.
 */

let h: RelayHarness;
let origin: string;
beforeAll(async () => {
  h = await startRelayHarness();
  origin = h.baseURL.replace(/\/v1$/, '');
  await setOptions(h.deps, { ModelRatio: JSON.stringify({ 'refused-model': 1, 'lonely-model': 1 }) });
  // Nothing listens on port 1: every call there is refused (502).
  await insertChannel(h.deps, { name: 'nowhere', baseUrl: 'http://127.0.0.1:1', models: ['refused-model'] });
});
afterAll(async () => {
  await h.close();
});

interface Row {
  type: number;
  user_id: number;
  token_id: number;
  model_name: string;
  content: string;
  request_id: string;
  other: string;
}

async function caller() {
  const user = await insertUser(h.deps);
  const token = await insertToken(h.deps, user.id, { name: 'acct-token' });
  return { user, token };
}

/** The user's error rows, once the log writer's queue is flushed. */
async function errorRows(userId: number) {
  await h.drain();
  const rows = (await h.deps.db
    .selectFrom('logs')
    .selectAll()
    .where('type', '=', LogType.Error)
    .where('user_id', '=', userId)
    .execute()) as unknown as Row[];
  return rows.map((r) => ({ ...r, o: JSON.parse(r.other) as { status_code: number; error_code: string } }));
}

/** switchyard_relay_requests_total summed over one status. */
async function counted(status: number) {
  const m = await h.deps.metrics.relayRequests.get();
  return m.values.filter((v) => v.labels.status === String(status)).reduce((n, v) => n + v.value, 0);
}

async function call(method: string, path: string, key: string | null, body?: unknown) {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${origin}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res;
}

/** One failing call: exactly one row with the client's status, and one more count for that status. */
async function expectAccounted(method: string, path: string, body: unknown, status: number) {
  const c = await caller();
  const before = await counted(status);
  const res = await call(method, path, c.token.key, body);
  expect(res.status).toBe(status);
  const rows = await errorRows(c.user.id);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ type: LogType.Error, user_id: c.user.id, token_id: c.token.id });
  expect(rows[0].o.status_code).toBe(status);
  expect(rows[0].request_id).toBe(res.headers.get('x-request-id') ?? rows[0].request_id);
  expect(await counted(status)).toBe(before + 1);
  return rows[0];
}

describe('failed calls outside the relay pipeline', () => {
  it('a Midjourney submit refused by its body validation: one 400 row and one count', async () => {
    await expectAccounted('POST', '/mj/submit/imagine', { prompt: '' }, 400);
  });

  it('a Midjourney simple-change with unreadable content: the route refusal, masked message kept', async () => {
    const row = await expectAccounted('POST', '/mj/submit/simple-change', { content: 'nonsense' }, 400);
    expect(row.content).toContain('content');
  });

  it('a Suno submit refused by its body validation: one 400 row', async () => {
    await expectAccounted('POST', '/suno/submit/music', { mv: 42 }, 400);
  });

  it('GET /v1/models/:id of a model the token cannot use: one 404 row naming the model', async () => {
    const row = await expectAccounted('GET', '/v1/models/no-such-model', undefined, 404);
    expect(row.model_name).toBe('no-such-model');
  });

  it('Anthropic count_tokens with an invalid body: one 400 row', async () => {
    await expectAccounted('POST', '/v1/messages/count_tokens', { model: 'lonely-model', messages: 'x' }, 400);
  });

  it('Gemini countTokens of a model no channel serves: one row with the status the client got', async () => {
    const c = await caller();
    const res = await call('POST', '/v1beta/models/lonely-model:countTokens', c.token.key, {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    const rows = await errorRows(c.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].o.status_code).toBe(res.status);
    expect(rows[0].model_name).toBe('lonely-model');
  });

  it('a call without a token is counted but writes no row (nobody to attribute it to)', async () => {
    const before = await counted(401);
    const rowsBefore = await h.deps.db.selectFrom('logs').select('id').where('type', '=', LogType.Error).execute();
    const res = await call('GET', '/v1/models', null);
    expect(res.status).toBe(401);
    await h.drain();
    const rowsAfter = await h.deps.db.selectFrom('logs').select('id').where('type', '=', LogType.Error).execute();
    expect(rowsAfter).toHaveLength(rowsBefore.length);
    expect(await counted(401)).toBe(before + 1);
  });
});

describe('calls that already account for themselves', () => {
  it('a relayed chat that failed upstream: still exactly one row and one count', async () => {
    const c = await caller();
    const before = await counted(502);
    const res = await call('POST', '/v1/chat/completions', c.token.key, {
      model: 'refused-model',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.status).toBe(502);
    const rows = await errorRows(c.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].o.status_code).toBe(502);
    expect(await counted(502)).toBe(before + 1);
  });

  it('a chat body refused before the pipeline ran: one row, one count', async () => {
    const c = await caller();
    const before = await counted(400);
    const res = await call('POST', '/v1/chat/completions', c.token.key, { model: 'refused-model', messages: 7 });
    expect(res.status).toBe(400);
    expect(await errorRows(c.user.id)).toHaveLength(1);
    expect(await counted(400)).toBe(before + 1);
  });
});
