import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayRuntimeOf } from '../runtime.ts';
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
 * What a client is told when the gateway cannot serve it (issue 28), through the official SDKs with
 * their own retries ON, counting the HTTP requests each SDK really sends: a model no channel of the
 * caller's group lists is a 404 `model_not_found` in the caller's dialect, which no SDK retries; a
 * model whose channels are all disabled is a 503 that says so (an outage: SDKs retry it); a request
 * whose reservation is larger than what remains says how much it needs and how much is left.
 */

/** The relay answers Chinese by default (issue 45); these read its English, as an English client asks. */
const ENGLISH = { 'accept-language': 'en-US,en;q=0.9' };

let h: RelayHarness;
let root: string;
let key: string;
let tokenId: number;
let userId: number;

beforeAll(async () => {
  h = await startRelayHarness();
  root = h.baseURL.replace(/\/v1$/, '');
  const user = await insertUser(h.deps);
  userId = user.id;
  const token = await insertToken(h.deps, user.id, { unlimited: true });
  key = token.key;
  tokenId = token.id;
  await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['gpt-4o-mini'] });
  await setOptions(h.deps, { ModelRatio: JSON.stringify({ 'gpt-4o-mini': 1, 'vip-only-model': 1, 'down-model': 1 }) });
});
afterAll(async () => {
  await h.close();
});

/** A fetch that counts what an SDK sends. */
function countingFetch() {
  const counter = {
    calls: 0,
    fetch: ((...args: Parameters<typeof fetch>) => {
      counter.calls++;
      return fetch(...args);
    }) as typeof fetch,
  };
  return counter;
}

const raw = async (path: string, body: object, headers: Record<string, string> = {}) => {
  const res = await fetch(`${root}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...ENGLISH, ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('a model no channel serves: 404 model_not_found, never retried', () => {
  it('OpenAI: the SDK (2 retries by default) sends one request and reads model_not_found', async () => {
    const c = countingFetch();
    const client = new OpenAI({ apiKey: key, baseURL: h.baseURL, fetch: c.fetch, defaultHeaders: ENGLISH });
    const err = await client.chat.completions
      .create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect(err).toMatchObject({ status: 404, code: 'model_not_found', type: 'invalid_request_error', param: null });
    expect(c.calls).toBe(1);

    const r = await raw('/v1/chat/completions', { model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({
      error: {
        message: expect.stringContaining('The model no-such-model does not exist or is not served in group default'),
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
      },
    });
  });

  it('Anthropic: not_found_error, one request', async () => {
    const c = countingFetch();
    const client = new Anthropic({ apiKey: key, baseURL: root, fetch: c.fetch, defaultHeaders: ENGLISH });
    const err = await client.messages
      .create({ model: 'no-such-claude', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.NotFoundError);
    expect((err as InstanceType<typeof Anthropic.NotFoundError>).error).toEqual({
      type: 'error',
      error: {
        type: 'not_found_error',
        message: expect.stringContaining('The model no-such-claude does not exist'),
        code: 'model_not_found',
      },
    });
    expect(c.calls).toBe(1);
  });

  it('Gemini: NOT_FOUND, one request even with the SDK’s retries switched on', async () => {
    const c = countingFetch();
    const ai = new GoogleGenAI({
      apiKey: key,
      httpOptions: { baseUrl: root, fetch: c.fetch, retryOptions: { attempts: 3, initialDelay: 0.05 } },
    } as ConstructorParameters<typeof GoogleGenAI>[0]);
    const err = await ai.models.generateContent({ model: 'no-such-gemini', contents: 'hi' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 404 });
    expect(c.calls).toBe(1);
    const r = await raw(
      '/v1beta/models/no-such-gemini:generateContent',
      { contents: [{ parts: [{ text: 'x' }] }] },
      {
        'x-goog-api-key': key,
      },
    );
    expect(r.status).toBe(404);
    expect(r.body).toEqual({
      error: {
        code: 404,
        message: expect.stringContaining('no-such-gemini'),
        status: 'NOT_FOUND',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'model_not_found', domain: 'switchyard' },
        ],
      },
    });
  });

  it('a model served only in another group is not found for this caller', async () => {
    await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['vip-only-model'], groups: ['vip'] });
    const r = await raw('/v1/chat/completions', {
      model: 'vip-only-model',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: { code: 'model_not_found' } });
  });

  it('in Chinese when the caller prefers it', async () => {
    const r = await raw(
      '/v1/chat/completions',
      { model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] },
      { 'accept-language': 'zh-CN,zh;q=0.9' },
    );
    expect((r.body.error as { message: string }).message).toContain('模型 no-such-model 不存在');
  });
});

describe('channels exist but none is usable: 503 with the reason', () => {
  it('every channel of the model disabled: 503 no_available_channel naming it; the SDK retries an outage', async () => {
    const a = await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['down-model'] });
    const b = await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['down-model'], priority: 5 });
    await h.deps.services.channels.setStatus([a, b], 2);
    await relayRuntimeOf(h.deps)!.routing.reload();
    const c = countingFetch();
    const client = new OpenAI({
      apiKey: key,
      baseURL: h.baseURL,
      fetch: c.fetch,
      maxRetries: 1,
      defaultHeaders: ENGLISH,
    });
    const err = await client.chat.completions
      .create({ model: 'down-model', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      status: 503,
      code: 'no_available_channel',
      type: 'server_error',
      message: expect.stringContaining('every channel serving it is disabled'),
    });
    // Unlike the 404, an outage is worth the SDK's retry.
    expect(c.calls).toBe(2);
    const r = await raw(
      '/v1/messages',
      { model: 'down-model', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] },
      { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
    );
    expect(r).toMatchObject({ status: 503, body: { type: 'error', error: { type: 'api_error' } } });
  });
});

describe('a reservation larger than what remains', () => {
  const chat = (k: string, extra: object = {}) =>
    fetch(`${h.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json', ...ENGLISH },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], ...extra }),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as { error: Record<string, unknown> } }));

  it('a token holding $0.9997 asked for a large max_tokens: 403 saying what is needed and what is left', async () => {
    const user = await insertUser(h.deps, { quota: 100_000_000 });
    // $0.9997 at the default 500,000 quota per dollar.
    const token = await insertToken(h.deps, user.id, { remainQuota: 499_850 });
    const r = await chat(token.key, { max_tokens: 1_000_000 });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ code: 'insufficient_quota_for_request', type: 'invalid_request_error' });
    expect(r.body.error.message).toMatch(
      /^This request needs up to \$\d+(\.\d+)?, but this token has only \$0\.9997 left; lower max_tokens/,
    );
    // Nothing was taken: the token keeps its balance, and a small request still goes through.
    expect(Number((await ledger(h.deps, user.id, token.id)).token!.remain_quota)).toBe(499_850);
    expect((await chat(token.key, { max_tokens: 16 })).status).toBe(200);
  });

  it('the same in the Anthropic and Gemini shapes, and in Chinese', async () => {
    const user = await insertUser(h.deps, { quota: 100_000_000 });
    const token = await insertToken(h.deps, user.id, { remainQuota: 499_850 });
    const claude = await fetch(`${root}/v1/messages`, {
      method: 'POST',
      headers: {
        'x-api-key': token.key,
        'anthropic-version': '2023-06-01',
        'content-type': 'application/json',
        ...ENGLISH,
      },
      body: JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 1_000_000, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(claude.status).toBe(403);
    expect(await claude.json()).toEqual({
      type: 'error',
      error: {
        type: 'permission_error',
        message: expect.stringContaining('but this token has only $0.9997 left'),
        code: 'insufficient_quota_for_request',
      },
    });
    const gemini = await fetch(`${root}/v1beta/models/gpt-4o-mini:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': token.key, 'content-type': 'application/json', 'accept-language': 'zh-CN' },
      body: JSON.stringify({
        contents: [{ parts: [{ text: 'x' }] }],
        generationConfig: { maxOutputTokens: 1_000_000 },
      }),
    });
    expect(gemini.status).toBe(403);
    expect(await gemini.json()).toEqual({
      error: {
        code: 403,
        message: expect.stringMatching(/^本次请求最多需要 \$[\d.]+，但该令牌仅剩 \$0\.9997/),
        status: 'PERMISSION_DENIED',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'insufficient_quota_for_request',
            domain: 'switchyard',
          },
        ],
      },
    });
  });

  it('the user’s balance too, in quota points when the site does not show currency', async () => {
    const user = await insertUser(h.deps, { quota: 300 });
    const token = await insertToken(h.deps, user.id, { unlimited: true });
    await setOptions(h.deps, { DisplayInCurrencyEnabled: 'false' });
    try {
      const r = await chat(token.key, { max_tokens: 100_000 });
      expect(r.status).toBe(403);
      expect(r.body.error).toMatchObject({ code: 'insufficient_quota_for_request' });
      expect(r.body.error.message).toMatch(
        /^This request needs up to \d+ quota points, but your account has only 300 quota points left/,
      );
    } finally {
      await setOptions(h.deps, { DisplayInCurrencyEnabled: 'true' });
    }
  });

  it('an empty token is still "used up" (401), a different answer', async () => {
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id, { remainQuota: 0 });
    const r = await chat(token.key);
    expect(r.status).toBe(401);
    expect(r.body.error.message).toContain('This token has used up its quota');
  });
});

it('the harness user made no charged request', async () => {
  await h.drain();
  expect((await ledger(h.deps, userId, tokenId)).logs).toHaveLength(0);
});
