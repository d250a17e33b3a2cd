import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createTokenInput } from '../../../shared/schemas/tokens.ts';
import { createUser, loginAs } from '../../../test/users.ts';

type Json = Record<string, unknown>;

/** A tiny OpenAI/Gemini/DeepSeek look-alike on loopback; `delayMs` slows chat answers. */
function fakeUpstream() {
  const seen: { method: string; url: string; auth: string; body: Json; headers: IncomingMessage['headers'] }[] = [];
  const state = { delayMs: 0, failChat: false };
  const server: Server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Json) : {};
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        auth: req.headers.authorization ?? '',
        body,
        headers: req.headers,
      });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      const url = req.url ?? '';
      if (req.headers.authorization === 'Bearer bad' || url.includes('key=bad'))
        return send(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
      if (url === '/v1/chat/completions') {
        const answer = state.failChat
          ? () => send(500, { error: { message: 'upstream exploded' } })
          : () => send(200, { id: 'x', choices: [{ message: { role: 'assistant', content: 'h' } }] });
        return setTimeout(answer, state.delayMs);
      }
      if (url === '/v1/messages' && req.headers['x-api-key'] === 'ant-key')
        return send(200, { type: 'message', content: [{ type: 'text', text: 'h' }] });
      if (url === '/v1beta/models/gemini-2.5-flash:generateContent' && req.headers['x-goog-api-key'] === 'g-key')
        return send(200, { candidates: [] });
      if (url.startsWith('/openai/deployments/gpt-4o/chat/completions?api-version=') && req.headers['api-key'])
        return send(200, { choices: [] });
      if (url === '/v1/embeddings') return send(200, { data: [{ embedding: [0.1] }] });
      if (url === '/v1/models') return send(200, { data: [{ id: 'gpt-4o' }, { id: 'gpt-4o-mini' }] });
      if (url.startsWith('/v1beta/models?key='))
        return send(200, { models: [{ name: 'models/gemini-2.5-pro' }, { name: 'models/gemini-2.5-flash' }] });
      if (url === '/v1/dashboard/billing/subscription') return send(200, { hard_limit_usd: 120 });
      if (url.startsWith('/v1/dashboard/billing/usage')) return send(200, { total_usage: 2050 });
      if (url === '/user/balance')
        return send(200, { balance_infos: [{ currency: 'USD', total_balance: '42.50' }], is_available: true });
      if (url === '/v1/user/info') return send(200, { data: { totalBalance: '7.25' } });
      if (url === '/v1/credits') return send(200, { data: { total_credits: 10, total_usage: 2.5 } });
      send(404, { error: { message: 'no such path' } });
    });
  });
  return { server, seen, state };
}

/** Retries `send` for up to a second until it answers `want`; returns the last status. */
async function statusSoon(send: () => Promise<{ statusCode: number }>, want: number): Promise<number> {
  let status = 0;
  for (let i = 0; i < 50 && status !== want; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 20));
    status = (await send()).statusCode;
  }
  return status;
}

describe('channel tests, balances and model fetches against a fake upstream', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let up: ReturnType<typeof fakeUpstream>;
  let base: string;

  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, payload: payload as Json, headers: admin });
    return { status: res.statusCode, body: res.json() as Json };
  };
  const makeChannel = async (c: Json) => {
    const ids = await t.deps.services.channels.create({
      type: 1,
      name: 'up',
      key: 'sk-good',
      models: 'gpt-4o-mini,text-embedding-3-small',
      base_url: base,
      ...c,
    });
    return ids[0];
  };
  const row = (id: number) =>
    t.deps.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    up = fakeUpstream();
    await new Promise<void>((r) => up.server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(up.server.address() as AddressInfo).port}`;
    t = await createTestApp();
    admin = (await loginAs(t, Role.Admin)).headers;
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => up.server.close(r));
  });
  beforeEach(() => {
    up.seen.length = 0;
    up.state.delayMs = 0;
    up.state.failChat = false;
  });

  it('tests a channel with a one-message chat and stores response and test time', async () => {
    const id = await makeChannel({ name: 'ok' });
    const r = await call('GET', `/api/channel/test/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, message: '' });
    expect(typeof r.body.time).toBe('number');
    expect(r.body.data).toBeUndefined();
    expect(up.seen[0]).toMatchObject({ method: 'POST', url: '/v1/chat/completions', auth: 'Bearer sk-good' });
    expect(up.seen[0].body).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 1 });
    const stored = await row(id);
    expect(stored.test_time).toBeGreaterThan(0);
    expect(stored.response_time).toBeGreaterThanOrEqual(0);
  });

  it('uses the embeddings endpoint for embedding models and the model of the query', async () => {
    const id = await makeChannel({ name: 'emb' });
    const r = await call('GET', `/api/channel/test/${id}?model=text-embedding-3-small`);
    expect(r.body.success).toBe(true);
    expect(up.seen[0].url).toBe('/v1/embeddings');
  });

  it('reports an upstream failure with its message and the time', async () => {
    const id = await makeChannel({ name: 'bad', key: 'bad' });
    const r = await call('GET', `/api/channel/test/${id}`);
    expect(r.body.success).toBe(false);
    expect(r.body.message).toContain('Incorrect API key provided');
    expect(r.body.message).not.toContain('bad');
    expect(typeof r.body.time).toBe('number');
    const gone = await call('GET', '/api/channel/test/99999');
    expect(gone).toMatchObject({ status: 200, body: { success: false, message: '渠道不存在，请刷新后重试' } });
  });

  it('speaks the native protocol of Anthropic, Gemini and Azure channels', async () => {
    const ant = await makeChannel({ name: 'ant', type: 14, key: 'ant-key', models: 'claude-sonnet-4-20250514' });
    expect((await call('GET', `/api/channel/test/${ant}`)).body.success).toBe(true);
    expect(up.seen.at(-1)?.headers['anthropic-version']).toBe('2023-06-01');
    expect(up.seen.at(-1)?.body).toMatchObject({ max_tokens: 1 });

    const gem = await makeChannel({ name: 'gem', type: 24, key: 'g-key', models: 'gemini-2.5-flash' });
    expect((await call('GET', `/api/channel/test/${gem}`)).body.success).toBe(true);
    expect(up.seen.at(-1)?.url).not.toContain('g-key');

    const az = await makeChannel({ name: 'az', type: 3, key: 'az-key', models: 'gpt-4o', other: '2025-01-01' });
    expect((await call('GET', `/api/channel/test/${az}`)).body.success).toBe(true);
    expect(up.seen.at(-1)?.url).toBe('/openai/deployments/gpt-4o/chat/completions?api-version=2025-01-01');

    const mj = await makeChannel({ name: 'mj', type: 2, models: 'mj_imagine' });
    const no = await call('GET', `/api/channel/test/${mj}`);
    expect(no).toMatchObject({ status: 200, body: { success: false, message: '该渠道类型暂不支持测试' } });
  });

  it('counts a test slower than ChannelDisableThreshold as a failure, and stores its response time', async () => {
    await t.deps.services.options.update('ChannelDisableThreshold', '0.05');
    up.state.delayMs = 120;
    const id = await makeChannel({ name: 'slow' });
    const r = await call('GET', `/api/channel/test/${id}`);
    expect(r.body.success).toBe(false);
    expect(String(r.body.message)).toContain('超过阈值');
    expect((await row(id)).response_time).toBeGreaterThanOrEqual(120);
    await t.deps.services.options.update('ChannelDisableThreshold', '5');
  });

  it('re-enables an auto-disabled channel that passes when AutomaticEnableChannelEnabled', async () => {
    const id = await makeChannel({ name: 'revive' });
    await t.deps.services.channels.setStatus([id], 3, 'test');
    await call('GET', `/api/channel/test/${id}`);
    expect((await row(id)).status).toBe(3);
    await t.deps.services.options.update('AutomaticEnableChannelEnabled', 'true');
    await call('GET', `/api/channel/test/${id}`);
    expect((await row(id)).status).toBe(1);
    const ab = await t.deps.db.selectFrom('abilities').selectAll().where('channel_id', '=', id).execute();
    expect(ab.every((a) => a.enabled === 1)).toBe(true);
  });

  it('tests all channels in the background; a failing one is auto-disabled when enabled', async () => {
    await t.deps.services.options.update('AutomaticDisableChannelEnabled', 'true');
    up.state.failChat = true;
    // Slow enough that the second call surely lands while the run is going.
    up.state.delayMs = 100;
    const id = await makeChannel({ name: 'all' });
    const r = await call('GET', '/api/channel/test');
    expect(r.body).toEqual({ success: true, message: '' });
    const again = await call('GET', '/api/channel/test');
    expect(again.body.success).toBe(false);
    await t.deps.services.channels.whenTestsIdle();
    const stored = await row(id);
    expect(stored.status).toBe(3);
    expect(JSON.parse(stored.other_info)).toMatchObject({
      status_reason: expect.stringContaining('upstream exploded'),
    });
    await t.deps.services.options.update('AutomaticDisableChannelEnabled', 'false');
  });

  it('a channel created here is routed by the relay at once, and not after it is disabled', async () => {
    const owner = await createUser(t, { quota: 10_000_000 });
    const keys = await t.deps.services.tokens.create(
      { id: owner.id, group: 'default' },
      createTokenInput.parse({ name: 'relay', unlimited_quota: true }),
    );
    const chat = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: `Bearer sk-${keys[0]}` },
        payload: { model: 'routed-model', messages: [{ role: 'user', content: 'hi' }] },
      });
    await t.deps.services.options.update('ModelRatio', JSON.stringify({ 'routed-model': 1 }));
    // No channel lists the model yet: unknown to the relay (404); once listed but disabled: 503.
    expect((await chat()).statusCode).toBe(404);
    const r = await call('POST', '/api/channel/', {
      type: 1,
      name: 'routed',
      key: 'sk-good',
      models: 'routed-model',
      base_url: base,
    });
    expect(r.body.success).toBe(true);
    // The relay rebuilds its routing index in the background on 'channels': allow it a moment.
    expect(await statusSoon(chat, 200)).toBe(200);
    expect(up.seen.some((s) => s.url === '/v1/chat/completions' && s.body.model === 'routed-model')).toBe(true);
    const id = (
      await t.deps.db.selectFrom('channels').select('id').where('name', '=', 'routed').executeTakeFirstOrThrow()
    ).id;
    await t.app.inject({ method: 'PUT', url: '/api/channel/', headers: admin, payload: { id, status: 2 } });
    expect(await statusSoon(chat, 503)).toBe(503);
  });

  it('updates balances: OpenAI billing, DeepSeek, SiliconFlow, OpenRouter; others unsupported', async () => {
    const openai = await makeChannel({ name: 'bal-openai' });
    const r = await call('GET', `/api/channel/update_balance/${openai}/`);
    expect(r.body).toEqual({ success: true, message: '', balance: 99.5 });
    const stored = await row(openai);
    expect(stored.balance).toBe(99.5);
    expect(stored.balance_updated_time).toBeGreaterThan(0);

    const deepseek = await makeChannel({ name: 'bal-ds', type: 43 });
    expect((await call('GET', `/api/channel/update_balance/${deepseek}`)).body.balance).toBe(42.5);
    const sf = await makeChannel({ name: 'bal-sf', type: 40 });
    expect((await call('GET', `/api/channel/update_balance/${sf}`)).body.balance).toBe(7.25);
    const or = await makeChannel({ name: 'bal-or', type: 20 });
    expect((await call('GET', `/api/channel/update_balance/${or}`)).body.balance).toBe(7.5);

    const claude = await makeChannel({ name: 'bal-claude', type: 14 });
    const no = await call('GET', `/api/channel/update_balance/${claude}`);
    expect(no.body.success).toBe(false);
    expect(no.body.message).toBe('该渠道类型暂不支持查询余额');

    const all = await call('GET', '/api/channel/update_balance');
    expect(all.body).toEqual({ success: true, message: '' });
  });

  it('fetches upstream models for a stored channel and for a form (OpenAI and Gemini)', async () => {
    const id = await makeChannel({ name: 'fetch' });
    const stored = await call('GET', `/api/channel/fetch_models/${id}`);
    expect(stored.body).toEqual({ success: true, message: '', data: ['gpt-4o', 'gpt-4o-mini'] });

    const form = await call('POST', '/api/channel/fetch_models', { base_url: `${base}/`, type: 1, key: 'sk-good' });
    expect(form.status).toBe(200);
    expect(form.body).toEqual({ success: true, data: ['gpt-4o', 'gpt-4o-mini'] });

    const gemini = await call('POST', '/api/channel/fetch_models', { base_url: base, type: 24, key: 'g-key' });
    expect(gemini.body.data).toEqual(['gemini-2.5-pro', 'gemini-2.5-flash']);
    expect(up.seen.at(-1)?.url).toBe('/v1beta/models?key=g-key');

    // Several keys, comma-separated as the admin spec writes them: the first one is used, alone.
    const multi = await call('POST', '/api/channel/fetch_models', { base_url: base, type: 1, key: 'sk-good,sk-other' });
    expect(multi.body).toEqual({ success: true, data: ['gpt-4o', 'gpt-4o-mini'] });
    expect(up.seen.at(-1)?.auth).toBe('Bearer sk-good');

    const noKey = await call('POST', '/api/channel/fetch_models', { base_url: base, type: 1, key: '' });
    expect(noKey).toEqual({ status: 400, body: { success: false, message: '请填写密钥' } });
    const denied = await call('POST', '/api/channel/fetch_models', { base_url: base, type: 1, key: 'bad' });
    // The upstream's refusal: 502 (new-api answers 500, which reads as a bug of ours).
    expect(denied.status).toBe(502);
    expect(denied.body.success).toBe(false);
    expect(String(denied.body.message)).toContain('Incorrect API key provided');
  });
});
