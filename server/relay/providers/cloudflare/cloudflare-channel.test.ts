import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus, Role } from '../../../../shared/constants.ts';
import {
  CF_CATALOGUE,
  CF_TRANSCRIPT,
  CF_USAGE,
  FAKE_CF_ACCOUNT,
  FAKE_CF_TOKEN,
  startFakeCloudflare,
} from '../../../../scripts/fake-upstream/cloudflare/index.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { channelStatus, failedChat, payer, quotaOf } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { loginAs } from '../../../../test/users.ts';
import { countText } from '../../usage.ts';

/*
 * Cloudflare Workers AI channels (type 39) through the real gateway and the OpenAI SDK, against the
 * strict fake (bearer token, account id in the path, chat, embeddings, whisper, model catalogue).
 */

const R = { model: 2, completion: 3 };
const LLAMA = '@cf/meta/llama-3.1-8b-instruct';
const ACCOUNT_PATH = `/client/v4/accounts/${FAKE_CF_ACCOUNT}/ai`;
let h: RelayHarness;
let fake: FakeUpstream;
let admin: Record<string, string>;

const channel = (name: string, over: Partial<Parameters<typeof insertChannel>[1]> = {}) =>
  insertChannel(h.deps, {
    name,
    type: 39,
    key: FAKE_CF_TOKEN,
    other: FAKE_CF_ACCOUNT,
    baseUrl: fake.url,
    models: [name],
    ...over,
  });

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeCloudflare();
  admin = (await loginAs(h.t, Role.Admin)).headers;
  const models = ['cf-chat', 'cf-embed', 'whisper-1', 'cf-dead'];
  await setOptions(h.deps, {
    AutomaticDisableChannelEnabled: 'true',
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.completion]))),
  });
  await channel('cf-chat', { modelMapping: { 'cf-chat': LLAMA } });
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

describe('Cloudflare Workers AI channels (type 39)', () => {
  it("chat goes to the account's OpenAI-compatible endpoint with the token; the usage is billed", async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'cf-chat',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 20,
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe(`${ACCOUNT_PATH}/v1/chat/completions`);
    expect(sent.headers.authorization).toBe(`Bearer ${FAKE_CF_TOKEN}`);
    expect(sent.body).toMatchObject({ model: LLAMA, max_tokens: 20 });
    expect(await p.charges()).toEqual([quotaOf({ prompt: 13, completion: 5 }, R)]);
  });

  it('a streamed chat: the pieces as they came and the usage Cloudflare reported', async () => {
    const p = await payer(h);
    const stream = await h.client(p.key).chat.completions.create({
      model: 'cf-chat',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const pieces: string[] = [];
    let usage: unknown;
    for await (const c of stream) {
      if (c.choices[0]?.delta.content) pieces.push(c.choices[0].delta.content);
      if (c.usage) usage = c.usage;
    }
    expect(pieces).toEqual(['w0 ', 'w1 ', 'w2 ', 'w3 ', 'w4 ']);
    expect(usage).toMatchObject(CF_USAGE);
    expect(await p.charges()).toEqual([quotaOf({ prompt: 13, completion: 5 }, R)]);
  });

  it("embeddings: the account's endpoint, vectors decoded by the SDK (floats encoded as the base64 it asked for)", async () => {
    await channel('cf-embed', { modelMapping: { 'cf-embed': '@cf/baai/bge-m3' } });
    const p = await payer(h);
    const r = await h.client(p.key).embeddings.create({ model: 'cf-embed', input: ['abcdefgh', 'abcd'] });
    expect(r.data.map((d) => Array.from(d.embedding))).toEqual([
      [0.5, 0.25, 0.125, 0],
      [0.5, 0.25, 0.125, 1],
    ]);
    expect(fake.requests.at(-1)!.path).toBe(`${ACCOUNT_PATH}/v1/embeddings`);
    const floats = await h
      .client(p.key)
      .embeddings.create({ model: 'cf-embed', input: 'abcd', encoding_format: 'float' });
    expect(floats.data[0].embedding).toEqual([0.5, 0.25, 0.125, 0]);
    expect(await p.charges()).toEqual(
      [quotaOf({ prompt: 3, completion: 0 }, R), quotaOf({ prompt: 1, completion: 0 }, R)].sort((a, b) => a - b),
    );
  });

  it("transcriptions: the file's bytes to whisper, answered in OpenAI's shapes, the transcript billed", async () => {
    await channel('whisper-1');
    const audio = Buffer.from('RIFF....WAVEfmt fake audio bytes');
    const p = await payer(h);
    const client = h.client(p.key);
    const r = await client.audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(audio, 'hello.wav', { type: 'audio/wav' }),
    });
    expect(r.text).toBe(CF_TRANSCRIPT);
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe(`${ACCOUNT_PATH}/run/@cf/openai/whisper`);
    expect(sent.headers['content-type']).toBe('audio/wav');
    expect(Number(sent.headers['content-length'])).toBe(audio.length);

    const verbose = await client.audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(audio, 'hello.wav', { type: 'audio/wav' }),
      response_format: 'verbose_json',
    });
    expect(verbose).toMatchObject({ task: 'transcribe', text: CF_TRANSCRIPT, duration: 2.4 });
    expect(verbose.words?.map((w) => w.word).join(' ')).toBe(CF_TRANSCRIPT);
    // A plain-text transcript comes back as text/plain, which the SDK hands over as the string itself.
    const plain = await client.audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(audio, 'hello.wav', { type: 'audio/wav' }),
      response_format: 'text',
    });
    expect(plain).toBe(CF_TRANSCRIPT);
    const logs = await p.logs();
    expect(logs.map((l) => Number(l.completion_tokens))).toEqual(
      [1, 1, 1].map(() => countText('whisper-1', CF_TRANSCRIPT)),
    );
  });

  it('model listing reads the account catalogue (the account id from the form, or the stored channel)', async () => {
    const form = await h.t.app.inject({
      method: 'POST',
      url: '/api/channel/fetch_models',
      headers: admin,
      payload: { type: 39, base_url: fake.url, key: FAKE_CF_TOKEN, other: FAKE_CF_ACCOUNT },
    });
    expect(form.json()).toMatchObject({ success: true, data: CF_CATALOGUE });
    expect(fake.requests.at(-1)!.path).toBe(`${ACCOUNT_PATH}/models/search?per_page=1000`);
    const id = await channel('cf-listed', { models: ['cf-listed'] });
    const stored = await h.t.app.inject({ method: 'GET', url: `/api/channel/fetch_models/${id}`, headers: admin });
    expect(stored.json()).toMatchObject({ success: true, data: CF_CATALOGUE });
  });

  it('the channel test passes through the admin API; a revoked token (10000) fails it and auto-disables the channel', async () => {
    const test = async (id: number) =>
      (
        await h.t.app.inject({
          method: 'GET',
          url: `/api/channel/test/${id}?model=${encodeURIComponent(LLAMA)}`,
          headers: admin,
        })
      ).json<{ success: boolean; message: string }>();
    expect(await test(await channel('cf-good-test'))).toMatchObject({ success: true });

    const dead = await channel('cf-dead', { key: 'revoked-token', modelMapping: { 'cf-dead': LLAMA } });
    const failed = await test(dead);
    expect(failed.success).toBe(false);
    expect(failed.message).toContain('Authentication error');

    const p = await payer(h);
    const err = await failedChat(h, p.key, 'cf-dead');
    expect(err).toMatchObject({ status: 401 });
    expect(await channelStatus(h, dead)).toBe(ChannelStatus.AutoDisabled);
    expect(await p.charges()).toEqual([]);
  });

  it("a channel without a valid account id in 'other' is refused before anything is sent", async () => {
    await channel('cf-no-account', { other: '', models: ['cf-no-account'], modelMapping: { 'cf-no-account': LLAMA } });
    await setOptions(h.deps, {
      ModelRatio: JSON.stringify({ ...h.deps.services.options.get('ModelRatio'), 'cf-no-account': 1 }),
    });
    const before = fake.requests.length;
    const p = await payer(h);
    const err = await failedChat(h, p.key, 'cf-no-account');
    expect(err).toMatchObject({ status: 500 });
    expect(String((err as Error).message)).toContain('account id');
    expect(fake.requests.length).toBe(before);
  });
});
