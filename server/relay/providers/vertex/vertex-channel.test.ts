import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus, Role } from '../../../../shared/constants.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import {
  FAKE_VERTEX_API_KEY,
  fakeServiceAccount,
  startFakeVertex,
} from '../../../../scripts/fake-upstream/vertex/index.ts';
import { channelStatus, payer, quotaOf } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { loginAs } from '../../../../test/users.ts';

/*
 * Vertex AI channels (type 41) through the real gateway and the official SDKs, against the fake
 * Vertex: its token endpoint verifies the JWT the gateway signs with the service account's private
 * key, its publisher routes check the bearer token, project and region, and answer as the strict
 * Gemini and Anthropic fakes.
 */

const R = { model: 2, completion: 3 };
const PROJECT_PATH = '/v1/projects/switchyard-test/locations';
let h: RelayHarness;
let fake: FakeUpstream;

const tokenCalls = () => fake.requests.filter((r) => r.path === '/token').length;
const generations = () => fake.requests.filter((r) => r.path !== '/token');
const lastCall = () => generations().at(-1)!;

const channel = (name: string, over: Partial<Parameters<typeof insertChannel>[1]> = {}) =>
  insertChannel(h.deps, {
    name,
    type: 41,
    key: fakeServiceAccount(fake.url),
    other: 'us-central1',
    baseUrl: fake.url,
    models: [name],
    ...over,
  });

const NAMES = [
  'vx-gemini',
  'vx-claude',
  'vx-fail',
  'vx-global',
  'gemini-2.5-pro',
  'vx-express',
  'vx-dead',
  'vx-claude-fail',
  'vx-cut',
];

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeVertex();
  await setOptions(h.deps, {
    AutomaticDisableChannelEnabled: 'true',
    ModelRatio: JSON.stringify(Object.fromEntries(NAMES.map((m) => [m, R.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(NAMES.map((m) => [m, R.completion]))),
  });
  await channel('vx-gemini', { modelMapping: { 'vx-gemini': 'gemini-2.5-flash' } });
  await channel('vx-claude', { modelMapping: { 'vx-claude': 'claude-sonnet-4-20250514' } });
  await channel('vx-fail', { modelMapping: { 'vx-fail': 'gemini-2.5-flash+fail-400' }, autoBan: false });
  await channel('vx-claude-fail', {
    modelMapping: { 'vx-claude-fail': 'claude-3-5-sonnet-20241022+fail-400' },
    autoBan: false,
  });
  // A JSON region map: the pro model in `global`, everything else in the default region.
  await channel('vx-global', {
    models: ['vx-global', 'gemini-2.5-pro'],
    modelMapping: { 'vx-global': 'gemini-2.5-flash' },
    other: JSON.stringify({ default: 'europe-west1', 'gemini-2.5-pro': 'global' }),
  });
  await channel('vx-cut', { modelMapping: { 'vx-cut': 'claude-sonnet-4+reset-mid-stream' }, autoBan: false });
  await channel('vx-express', { key: FAKE_VERTEX_API_KEY, modelMapping: { 'vx-express': 'gemini-2.5-flash' } });
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

const ask = (key: string, model: string) =>
  h.client(key).chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }], max_tokens: 100 });

describe('Vertex AI channels (type 41)', () => {
  it('Gemini through a service account: the regional publisher URL, a bearer token, the answer billed', async () => {
    const p = await payer(h);
    const r = await ask(p.key, 'vx-gemini');
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    const sent = lastCall();
    expect(sent.path).toBe(`${PROJECT_PATH}/us-central1/publishers/google/models/gemini-2.5-flash:generateContent`);
    expect(sent.headers.authorization).toMatch(/^Bearer ya29\.fake-/);
    expect(sent.headers['x-goog-user-project']).toBe('switchyard-test');
    expect(await p.charges()).toEqual([
      quotaOf({ prompt: r.usage!.prompt_tokens, completion: r.usage!.completion_tokens }, R),
    ]);
  });

  it('the access token is fetched once and reused by many requests, streamed ones too', async () => {
    const p = await payer(h);
    const before = tokenCalls();
    await Promise.all([ask(p.key, 'vx-gemini'), ask(p.key, 'vx-claude'), ask(p.key, 'vx-gemini')]);
    const stream = await h.client(p.key).chat.completions.create({
      model: 'vx-gemini',
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
    });
    let text = '';
    for await (const c of stream) text += c.choices[0]?.delta?.content ?? '';
    expect(text).toBe('w0 w1 w2 w3 w4 ');
    expect(lastCall().path).toMatch(/:streamGenerateContent\?alt=sse$/);
    // Every test in this file shares one service account: at most the first test's exchange.
    expect(tokenCalls()).toBeLessThanOrEqual(Math.max(before, 1));
    expect(tokenCalls()).toBe(1);
  });

  it('Claude through the OpenAI client: rawPredict on the Anthropic publisher, vertex version, no model in the body', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'vx-claude',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hello' },
      ],
      max_tokens: 50,
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    const sent = lastCall();
    expect(sent.path).toBe(
      `${PROJECT_PATH}/us-central1/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict`,
    );
    expect(sent.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16', system: 'Be brief.', max_tokens: 50 });
    expect(sent.body).not.toHaveProperty('model');
    expect(sent.headers).not.toHaveProperty('x-api-key');
    expect(await p.charges()).toEqual([quotaOf({ prompt: r.usage!.prompt_tokens, completion: 5 }, R)]);
  });

  it('Claude through the Anthropic SDK, streamed: streamRawPredict, the events relayed, usage billed', async () => {
    const p = await payer(h);
    const client = new Anthropic({ apiKey: p.key, baseURL: h.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
    let text = '';
    const stream = client.messages.stream({
      model: 'vx-claude',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hello' }],
    });
    for await (const e of stream)
      if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') text += e.delta.text;
    const final = await stream.finalMessage();
    expect(text).toBe('w0 w1 w2 w3 w4 ');
    const sent = lastCall();
    expect(sent.path).toMatch(/\/publishers\/anthropic\/models\/claude-sonnet-4@20250514:streamRawPredict$/);
    // Relayed natively: the client's body as it came, the model moved to the URL, Vertex's version added.
    expect(sent.body).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
    });
    expect(await p.charges()).toEqual([quotaOf({ prompt: final.usage.input_tokens, completion: 5 }, R)]);
  });

  it('Claude token counting through the Anthropic SDK: count-tokens:rawPredict with the Vertex model id', async () => {
    const p = await payer(h);
    const client = new Anthropic({ apiKey: p.key, baseURL: h.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
    const before = generations().length;
    const counted = await client.messages.countTokens({
      model: 'vx-claude',
      messages: [{ role: 'user', content: 'hello there' }],
    });
    expect(counted.input_tokens).toBeGreaterThan(0);
    expect(generations().length).toBe(before + 1);
    const sent = lastCall();
    expect(sent.path).toBe(`${PROJECT_PATH}/us-central1/publishers/anthropic/models/count-tokens:rawPredict`);
    expect(sent.body).toMatchObject({ model: 'claude-sonnet-4@20250514' });
    expect(sent.headers.authorization).toMatch(/^Bearer ya29\.fake-/);
  });

  it('Claude through the Gemini SDK, and Gemini through the Gemini SDK natively', async () => {
    const p = await payer(h);
    const ai = new GoogleGenAI({ apiKey: p.key, httpOptions: { baseUrl: h.baseURL.replace(/\/v1$/, '') } });
    const claude = await ai.models.generateContent({ model: 'vx-claude', contents: 'hi' });
    expect(claude.text).toBe('w0 w1 w2 w3 w4 ');
    expect(lastCall().path).toMatch(/claude-sonnet-4@20250514:rawPredict$/);
    const gemini = await ai.models.generateContent({
      model: 'vx-gemini',
      contents: 'hi',
      config: { temperature: 0.5 },
    });
    expect(gemini.text).toBe('w0 w1 w2 w3 w4 ');
    expect(lastCall().body).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      generationConfig: { temperature: 0.5 },
    });
    // Counted by Vertex's countTokens on the Google publisher.
    const before = generations().length;
    const counted = await ai.models.countTokens({ model: 'vx-gemini', contents: 'hello there' });
    expect(counted.totalTokens).toBeGreaterThan(0);
    expect(generations().length).toBe(before + 1);
    expect(lastCall().path).toMatch(/\/publishers\/google\/models\/gemini-2\.5-flash:countTokens$/);
  });

  it('a Claude stream cut before its final usage: the client sees the break, what it got is billed', async () => {
    const p = await payer(h);
    const s = await h.client(p.key).chat.completions.create({
      model: 'vx-cut',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let received = '';
    await expect(
      (async () => {
        for await (const ch of s) received += ch.choices[0]?.delta?.content ?? '';
      })(),
    ).rejects.toThrow();
    const words = received.trim().split(/\s+/).length;
    expect(words).toBeGreaterThan(1);
    const [log] = await p.logs();
    expect(log.completion_tokens).toBeGreaterThanOrEqual(words);
    expect(await p.charges()).toEqual([
      quotaOf({ prompt: Number(log.prompt_tokens), completion: Number(log.completion_tokens) }, R),
    ]);
  });

  it('regions from a JSON map (global has its own host form) and express mode with an API key', async () => {
    const p = await payer(h);
    await ask(p.key, 'vx-global');
    expect(lastCall().path).toBe(
      `${PROJECT_PATH}/europe-west1/publishers/google/models/gemini-2.5-flash:generateContent`,
    );
    await ask(p.key, 'gemini-2.5-pro');
    expect(lastCall().path).toBe(`${PROJECT_PATH}/global/publishers/google/models/gemini-2.5-pro:generateContent`);
    const r = await ask(p.key, 'vx-express');
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    // Express mode: no project, no token; the API key in Google's header (never in the URL, which gets logged).
    expect(lastCall().path).toBe('/v1/publishers/google/models/gemini-2.5-flash:generateContent');
    expect(lastCall().headers['x-goog-api-key']).toBe(FAKE_VERTEX_API_KEY);
    expect(lastCall().headers).not.toHaveProperty('authorization');
  });

  it('errors: Google and Anthropic refusals keep their status and message', async () => {
    const p = await payer(h);
    const g = await ask(p.key, 'vx-fail').catch((e: { status?: number; message?: string }) => e);
    expect(g).toMatchObject({ status: 400 });
    expect((g as Error).message).toContain('Request contains an invalid argument.');
    const a = await ask(p.key, 'vx-claude-fail').catch((e: { status?: number; message?: string }) => e);
    expect(a).toMatchObject({ status: 400 });
    expect((a as Error).message).toContain('messages: at least one message is required');
    expect(lastCall().path).toMatch(
      /\/publishers\/anthropic\/models\/claude-3-5-sonnet-20241022\+fail-400:rawPredict$/,
    );
    expect(await p.charges()).toEqual([]);
  });

  it('the channel test passes via the admin API; a refused service account fails it and auto-disables the channel', async () => {
    const admin = (await loginAs(h.t, Role.Admin)).headers;
    const test = async (id: number, model: string) =>
      (await h.t.app.inject({ method: 'GET', url: `/api/channel/test/${id}?model=${model}`, headers: admin })).json<{
        success: boolean;
        message: string;
      }>();
    const good = await channel('vx-good-test', { modelMapping: {} });
    expect(await test(good, 'gemini-2.5-flash')).toMatchObject({ success: true });
    expect(await test(good, 'claude-sonnet-4-20250514')).toMatchObject({ success: true });
    const before = fake.requests.length;
    const listed = await h.t.app.inject({ method: 'GET', url: `/api/channel/fetch_models/${good}`, headers: admin });
    expect(listed.json()).toMatchObject({ success: true, data: expect.arrayContaining(['gemini-2.5-flash']) });
    expect(fake.requests.length).toBe(before);

    const dead = await channel('vx-dead', {
      key: fakeServiceAccount(fake.url, { refused: true }),
      modelMapping: { 'vx-dead': 'gemini-2.5-flash' },
    });
    const failed = await test(dead, 'gemini-2.5-flash');
    expect(failed.success).toBe(false);
    expect(failed.message).toContain('Invalid JWT Signature');
    const p = await payer(h);
    const err = await ask(p.key, 'vx-dead').catch((e: { status?: number }) => e);
    expect(err).toMatchObject({ status: 401 });
    expect(await channelStatus(h, dead)).toBe(ChannelStatus.AutoDisabled);
    expect(await p.charges()).toEqual([]);
  });
});
