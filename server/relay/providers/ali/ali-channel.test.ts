import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus, Role } from '../../../../shared/constants.ts';
import {
  ALI_MODELS,
  ALI_REASONING,
  ALI_RERANK_TOKENS_PER_DOC,
  ALI_TASK_FAILURE,
  ALI_USAGE,
  ARREARS_ALI_KEY,
  FAKE_ALI_KEY,
  startFakeAli,
} from '../../../../scripts/fake-upstream/ali/index.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { channelStatus, failedChat, payer, quotaOf, streamUntilFailure } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { loginAs } from '../../../../test/users.ts';

/*
 * Alibaba DashScope channels (type 17) through the real gateway and official SDKs, against the strict
 * fake: compatible-mode chat and embeddings, Qwen reasoning, the async image task, native rerank,
 * model listing, the admin's channel test, and keys DashScope refuses taking the channel out.
 */

const R = { model: 2, completion: 3 };
const IMAGE_PRICE = 0.02;
let h: RelayHarness;
let fake: FakeUpstream;
let admin: Record<string, string>;

const channel = (name: string, over: Partial<Parameters<typeof insertChannel>[1]> = {}) =>
  insertChannel(h.deps, { name, type: 17, key: FAKE_ALI_KEY, baseUrl: fake.url, models: [name], ...over });

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeAli();
  admin = (await loginAs(h.t, Role.Admin)).headers;
  const ratioModels = [
    'ali-mid',
    'qwq-plus',
    'qwen-plus',
    'qwen3-32b',
    'text-embedding-v3',
    'gte-rerank',
    'ali-dead',
    'ali-arrears',
  ];
  await setOptions(h.deps, {
    AutomaticDisableChannelEnabled: 'true',
    ModelRatio: JSON.stringify(Object.fromEntries(ratioModels.map((m) => [m, R.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(ratioModels.map((m) => [m, R.completion]))),
    ModelPrice: JSON.stringify({ 'wanx-v1': IMAGE_PRICE, 'wanx-v1+fail-task': IMAGE_PRICE }),
  });
  await channel('qwen-plus', { models: ['qwen-plus', 'qwen3-32b', 'qwq-plus'] });
  await channel('text-embedding-v3');
  await channel('wanx-v1', { models: ['wanx-v1', 'wanx-v1+fail-task'] });
  await channel('gte-rerank');
});
afterAll(async () => {
  await fake.close();
  await h.close();
});

describe('Ali DashScope channels (type 17)', () => {
  it('chat goes to compatible mode with the bearer key; a stream asks DashScope for its usage and is billed it', async () => {
    const p = await payer(h);
    const stream = await h.client(p.key).chat.completions.create({
      model: 'qwen-plus',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let text = '';
    for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
    expect(text).toBe('w0 w1 w2 w3 w4 ');
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/compatible-mode/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${FAKE_ALI_KEY}`);
    expect(sent.body).toMatchObject({ model: 'qwen-plus', stream: true, stream_options: { include_usage: true } });
    expect(await p.charges()).toEqual([quotaOf({ prompt: ALI_USAGE.prompt_tokens, completion: 5 }, R)]);
  });

  it("an Anthropic client's thinking becomes Qwen's enable_thinking and budget; the reasoning comes back as thinking", async () => {
    const p = await payer(h);
    const client = new Anthropic({ apiKey: p.key, baseURL: h.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
    const stream = client.messages.stream({
      model: 'qwen3-32b',
      max_tokens: 8000,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [{ role: 'user', content: 'think first' }],
    });
    const final = await stream.finalMessage();
    const thinking = final.content.find((b) => b.type === 'thinking');
    expect(thinking && 'thinking' in thinking ? thinking.thinking : '').toBe(ALI_REASONING.join(''));
    expect(final.content.find((b) => b.type === 'text')).toMatchObject({ text: 'w0 w1 w2 w3 w4 ' });
    const sent = fake.requests.at(-1)!.body;
    expect(sent).toMatchObject({ model: 'qwen3-32b', enable_thinking: true, thinking_budget: 2048 });
    expect(sent).not.toHaveProperty('reasoning_effort');
  });

  it('an error event inside the stream ends it with that error after the pieces already sent', async () => {
    await channel('ali-mid', { modelMapping: { 'ali-mid': 'qwen-plus+fail-mid' } });
    const p = await payer(h);
    const { text, failure } = await streamUntilFailure(h, p.key, 'ali-mid');
    expect(text).toBe('w0 w1 ');
    expect(String(failure)).toContain('An internal error has occured');
  });

  it('QwQ, which only streams, answers a caller that did not ask for a stream: streamed upstream and gathered', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'qwq-plus',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    expect((r.choices[0].message as { reasoning_content?: string }).reasoning_content).toBe(ALI_REASONING.join(''));
    expect(fake.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(r.usage).toMatchObject({ prompt_tokens: ALI_USAGE.prompt_tokens, completion_tokens: 5 });
    expect(await p.charges()).toEqual([quotaOf({ prompt: ALI_USAGE.prompt_tokens, completion: 5 }, R)]);
  });

  it('an Anthropic client thinking without a stream gets the thinking block (the Qwen3 call is gathered)', async () => {
    const p = await payer(h);
    const client = new Anthropic({ apiKey: p.key, baseURL: h.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
    const msg = await client.messages.create({
      model: 'qwen3-32b',
      max_tokens: 8000,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: 'think first' }],
    });
    expect(msg.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    expect(msg.content[0]).toMatchObject({ thinking: ALI_REASONING.join('') });
    expect(fake.requests.at(-1)!.body).toMatchObject({ enable_thinking: true, thinking_budget: 1024, stream: true });
  });

  it('a hybrid Qwen3 asked plainly without a stream is told not to think (DashScope refuses it otherwise)', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'qwen3-32b',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    expect(fake.requests.at(-1)!.body).toMatchObject({ enable_thinking: false });
    expect(fake.requests.at(-1)!.body).not.toHaveProperty('stream');
  });

  it('embeddings through compatible mode, billed the usage DashScope reports', async () => {
    const p = await payer(h);
    const r = await h
      .client(p.key)
      .embeddings.create({ model: 'text-embedding-v3', input: ['a', 'b'], encoding_format: 'float' });
    expect(r.data.map((d) => d.embedding)).toEqual([
      [0, 0.1, 0.2, 0.3],
      [0.1, 0.2, 0.3, 0.4],
    ]);
    expect(fake.requests.at(-1)!.path).toBe('/compatible-mode/v1/embeddings');
    expect(await p.charges()).toEqual([quotaOf({ prompt: 6, completion: 0 }, R)]);
  });

  it('an image is submitted as an async task, polled until it SUCCEEDED, answered as URLs and billed per image', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h.client(p.key).images.generate({ model: 'wanx-v1', prompt: 'a cat', n: 2, size: '1024x1024' });
    expect(r.data?.map((d) => d.url)).toEqual([
      expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/images\/.+-0\.png$/),
      expect.stringMatching(/-1\.png$/),
    ]);
    const calls = fake.requests.slice(before);
    expect(calls[0]).toMatchObject({
      method: 'POST',
      path: '/api/v1/services/aigc/text2image/image-synthesis',
      body: { model: 'wanx-v1', input: { prompt: 'a cat' }, parameters: { n: 2, size: '1024*1024' } },
    });
    expect(calls[0].headers['x-dashscope-async']).toBe('enable');
    // PENDING, RUNNING, SUCCEEDED: three polls of the task, with the key.
    expect(calls.slice(1).map((c) => `${c.method} ${c.path.replace(/[^/]+$/, ':id')}`)).toEqual(
      Array(3).fill('GET /api/v1/tasks/:id'),
    );
    expect(calls[1].headers.authorization).toBe(`Bearer ${FAKE_ALI_KEY}`);
    expect(await p.charges()).toEqual([Math.round(IMAGE_PRICE * 500_000 * 2)]);
  });

  it('a FAILED task fails the request with its code and message and charges nothing', async () => {
    const p = await payer(h);
    const err = await h
      .client(p.key)
      .images.generate({ model: 'wanx-v1+fail-task', prompt: 'a cat' })
      .catch((e: { status?: number; message?: string }) => e);
    expect(err).toMatchObject({ status: 400 });
    expect((err as Error).message).toContain(ALI_TASK_FAILURE.message);
    expect(await p.charges()).toEqual([]);
  });

  it('a client that goes away while the task runs stops the polling', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 400);
    await h
      .client(p.key)
      .images.generate({ model: 'wanx-v1', prompt: 'a dog' }, { signal: abort.signal })
      .catch(() => undefined);
    await new Promise((r) => setTimeout(r, 2500));
    // The submit and the first poll (at 250 ms) only: the next polls would come at 750 ms and 1.75 s.
    expect(fake.requests.slice(before).map((c) => c.method)).toEqual(['POST', 'GET']);
    expect(await p.charges()).toEqual([]);
  });

  it("rerank goes to the native text-rerank API and comes back in the gateway's rerank shape, billed its tokens", async () => {
    const p = await payer(h);
    const res = await fetch(`${h.baseURL}/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gte-rerank', query: 'q', documents: ['d0', 'd1', 'd2'], top_n: 2 }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      results: [
        { index: 0, relevance_score: 0.5, document: { text: 'd0' } },
        { index: 1, relevance_score: 1 / 3, document: { text: 'd1' } },
      ],
      usage: { total_tokens: 3 * ALI_RERANK_TOKENS_PER_DOC },
    });
    expect(fake.requests.at(-1)!.body).toEqual({
      model: 'gte-rerank',
      input: { query: 'q', documents: ['d0', 'd1', 'd2'] },
      parameters: { top_n: 2, return_documents: true },
    });
    expect(await p.charges()).toEqual([quotaOf({ prompt: 3 * ALI_RERANK_TOKENS_PER_DOC, completion: 0 }, R)]);
  });

  it("model listing reads compatible mode's /models", async () => {
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/api/channel/fetch_models',
      headers: admin,
      payload: { type: 17, base_url: fake.url, key: FAKE_ALI_KEY },
    });
    expect(res.json()).toMatchObject({ success: true, data: ALI_MODELS });
    expect(fake.requests.at(-1)!.path).toBe('/compatible-mode/v1/models');
  });

  it('the channel test passes through the admin API; a refused key fails it and auto-disables the channel', async () => {
    const test = async (id: number) =>
      (await h.t.app.inject({ method: 'GET', url: `/api/channel/test/${id}?model=qwen-plus`, headers: admin })).json<{
        success: boolean;
        message: string;
      }>();
    expect(await test(await channel('ali-good-test'))).toMatchObject({ success: true });
    const bad = await test(await channel('ali-bad-test', { key: 'sk-wrong' }));
    expect(bad.success).toBe(false);
    expect(bad.message).toContain('Incorrect API key provided');

    const dead = await channel('ali-dead', { key: 'sk-revoked', modelMapping: { 'ali-dead': 'qwen-plus' } });
    const p = await payer(h);
    const err = await failedChat(h, p.key, 'ali-dead');
    expect(err).toMatchObject({ status: 401 });
    expect(await channelStatus(h, dead)).toBe(ChannelStatus.AutoDisabled);
    expect(await p.charges()).toEqual([]);
  });

  it('an account in arrears (Arrearage, 400) takes the channel out of service too', async () => {
    const id = await channel('ali-arrears', { key: ARREARS_ALI_KEY, modelMapping: { 'ali-arrears': 'qwen-plus' } });
    const p = await payer(h);
    const err = await failedChat(h, p.key, 'ali-arrears');
    expect(err).toMatchObject({ status: 400 });
    expect(await channelStatus(h, id)).toBe(ChannelStatus.AutoDisabled);
  });
});
