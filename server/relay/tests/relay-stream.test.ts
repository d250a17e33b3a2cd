import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertChannel,
  insertToken,
  insertUser,
  ledger,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';
import { relayRuntimeOf } from '../runtime.ts';

let h: RelayHarness;
beforeAll(async () => {
  h = await startRelayHarness();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify({
      'gpt-4o': 1,
      'gpt-4o-drip': 1,
      'gpt-4o-nousage': 1,
      'gpt-4o-reset': 1,
      'gpt-4o-flood': 1,
    }),
    CompletionRatio: JSON.stringify({
      'gpt-4o': 4,
      'gpt-4o-drip': 4,
      'gpt-4o-nousage': 4,
      'gpt-4o-reset': 4,
      'gpt-4o-flood': 4,
    }),
  });
  await insertChannel(h.deps, {
    baseUrl: h.fake.url,
    models: ['gpt-4o', 'gpt-4o-drip', 'gpt-4o-nousage', 'gpt-4o-reset', 'gpt-4o-flood'],
    modelMapping: {
      // ~15 MB of chunks as fast as the socket takes them: more than a client that stops reading buffers.
      'gpt-4o-flood': 'gpt-4o+chunks-100000+no-usage',
      'gpt-4o-drip': 'gpt-4o+drip+no-usage',
      'gpt-4o-nousage': 'gpt-4o+no-usage+no-done',
      'gpt-4o-reset': 'gpt-4o+reset-mid-stream+no-usage',
    },
  });
});
afterAll(async () => {
  await h.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const messages = [{ role: 'user' as const, content: 'Tell me a story about a fox' }];
/** The relay's own count for gpt-4o (o200k): 3 per message + 3 primer + the text. */
const promptCount = 3 + 3 + countTokens('Tell me a story about a fox');

describe('streaming', () => {
  it('a client that hangs up aborts the upstream and pays for what was produced', async () => {
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const ac = new AbortController();
    const stream = await h
      .client(token.key)
      .chat.completions.create({ model: 'gpt-4o-drip', messages, stream: true }, { signal: ac.signal });
    let text = '';
    let n = 0;
    try {
      for await (const c of stream) {
        text += c.choices[0]?.delta?.content ?? '';
        if (++n === 6) ac.abort();
      }
    } catch {
      // aborted by us
    }
    await sleep(300);
    const upstream = h.fake.requests.at(-1)!;
    expect(upstream.aborted).toBe(true);
    await h.drain();
    const l = await ledger(h.deps, user.id, token.id);
    expect(l.logs).toHaveLength(1);
    const log = l.logs[0];
    expect(log.prompt_tokens).toBe(promptCount);
    // At least what the client saw, and far less than the 40 chunks the upstream would have sent.
    expect(log.completion_tokens).toBeGreaterThanOrEqual(countTokens(text));
    expect(log.completion_tokens).toBeLessThan(countTokens(Array.from({ length: 40 }, (_, i) => `w${i} `).join('')));
    expect(Number(log.quota)).toBe(log.prompt_tokens + log.completion_tokens * 4);
    expect(JSON.parse(log.other).client_aborted).toBe(true);
    expect(l.reservations).toHaveLength(0);
  });

  it('a client that stops reading and then goes away: the relay stops waiting, aborts the upstream and bills', async () => {
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const req = httpRequest(`${h.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
    });
    req.end(JSON.stringify({ model: 'gpt-4o-flood', messages, stream: true }));
    const res = await new Promise<IncomingMessage>((resolve) => req.once('response', resolve));
    expect(res.statusCode).toBe(200);
    // Never read: the gateway's writes back up and it waits for the client to drain.
    res.pause();
    await sleep(500);
    req.destroy();
    let l = await ledger(h.deps, user.id, token.id);
    for (let i = 0; i < 100 && l.logs.length === 0; i++) {
      await sleep(50);
      l = await ledger(h.deps, user.id, token.id);
    }
    expect(l.logs).toHaveLength(1);
    expect(JSON.parse(l.logs[0].other).client_aborted).toBe(true);
    expect(l.logs[0].completion_tokens).toBeGreaterThan(0);
    // Nothing held: the reservation was settled, not left for the next restart to refund.
    expect(l.reservations.filter((r) => Number(r.user_id) === user.id)).toHaveLength(0);
  });

  it('a stream without usage (and without [DONE]) is billed by the tokenizer and still ends with [DONE]', async () => {
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const res = await request(`${h.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-nousage', messages, stream: true }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    expect(String(res.headers['server-timing'])).toMatch(/^gateway;dur=\d+\.\d+$/);
    const raw = await res.body.text();
    expect(raw.trim().endsWith('data: [DONE]')).toBe(true);
    await h.drain();
    const l = await ledger(h.deps, user.id, token.id);
    const completion = countTokens('w0 w1 w2 w3 w4 ');
    expect(l.logs[0]).toMatchObject({ prompt_tokens: promptCount, completion_tokens: completion });
    expect(Number(l.logs[0].quota)).toBe(promptCount + completion * 4);
    expect(JSON.parse(l.logs[0].other).usage_counted).toBe(true);
  });

  it('an upstream reset mid-stream ends the stream with an error event and bills what was produced', async () => {
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const res = await request(`${h.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-reset', messages, stream: true }),
    });
    const raw = await res.body.text();
    expect(raw).toContain('upstream_stream_error');
    await h.drain();
    const l = await ledger(h.deps, user.id, token.id);
    expect(l.logs).toHaveLength(1);
    expect(l.logs[0].completion_tokens).toBe(countTokens('w0 w1 '));
  });

  it('sends Server-Timing on JSON answers and on errors', async () => {
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const ok = await request(`${h.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages }),
    });
    await ok.body.text();
    expect(String(ok.headers['server-timing'])).toMatch(/^gateway;dur=/);
    const bad = await request(`${h.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-nope', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages }),
    });
    const body = (await bad.body.json()) as { error: { code: string } };
    expect(bad.statusCode).toBe(401);
    expect(body.error.code).toBe('invalid_api_key');
    expect(String(bad.headers['server-timing'])).toMatch(/^gateway;dur=/);
  });

  it('sends keep-alive pings when enabled', async () => {
    await setOptions(h.deps, {
      'general_setting.ping_interval_enabled': 'true',
      'general_setting.ping_interval_seconds': '1',
    });
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const res = await request(`${h.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-drip', messages, stream: true }),
    });
    const raw = await res.body.text();
    expect(raw).toContain(': ping');
    await setOptions(h.deps, { 'general_setting.ping_interval_enabled': 'false' });
  });
});

describe('stuck upstreams', () => {
  it('an idle upstream stream is cut with an error event and billed as produced', async () => {
    const rt = relayRuntimeOf(h.deps)!;
    rt.tuning.streamIdleMs = 300;
    await setOptions(h.deps, { ModelRatio: JSON.stringify({ 'gpt-4o': 1, 'gpt-4o-hang': 1 }) });
    await insertChannel(h.deps, {
      baseUrl: h.fake.url,
      models: ['gpt-4o-hang'],
      modelMapping: { 'gpt-4o-hang': 'gpt-4o+hang' },
    });
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const res = await request(`${h.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-hang', messages, stream: true }),
    });
    const raw = await res.body.text();
    expect(raw).toContain('upstream_timeout');
    const upstream = h.fake.requests.at(-1)!;
    await expect.poll(() => upstream.aborted).toBe(true);
    await h.drain();
    const l = await ledger(h.deps, user.id, token.id);
    expect(l.logs[0]).toMatchObject({ prompt_tokens: promptCount, completion_tokens: 0 });
    rt.tuning.streamIdleMs = 120_000;
  });

  it('model lists, task routes, refusals and errors Fastify raises carry Server-Timing too', async () => {
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const base = h.baseURL.replace(/\/v1$/, '');
    const auth = { authorization: `Bearer ${token.key}` };
    const cases: [string, Parameters<typeof request>[1]][] = [
      ['/v1/models', { headers: auth }],
      [`/v1beta/models?key=${token.key}`, {}],
      ['/v1beta/models', { headers: { 'x-goog-api-key': 'sk-wrong' } }],
      ['/mj/task/none/fetch', { headers: auth }],
      ['/suno/fetch/none', { headers: auth }],
      ['/v1/chat/completions', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{' }],
      ['/v1/no-such-path', { headers: auth }],
    ];
    for (const [path, opts] of cases) {
      const res = await request(`${base}${path}`, opts);
      await res.body.text();
      expect(`${path} ${res.headers['server-timing']}`).toMatch(new RegExp(`^\\S+ gateway;dur=\\d+\\.\\d\\d$`));
    }
  });
});
