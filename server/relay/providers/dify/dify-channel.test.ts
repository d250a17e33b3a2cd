import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus, Role } from '../../../../shared/constants.ts';
import { DIFY_ERROR, DIFY_USAGE, startFakeDify } from '../../../../scripts/fake-upstream/dify/server.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { channelStatus, failedChat, payer, PNG_1PX, quotaOf } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { loginAs } from '../../../../test/users.ts';

/*
 * Dify channels (type 37) through the real gateway and the OpenAI SDK, against the strict fake of an
 * agent app (which refuses blocking mode, as Dify's agent apps do).
 */

const KEY = 'app-Dq4hX9mK2sLw7PzR';
const R = { model: 2, completion: 3 };
const USAGE = { prompt: DIFY_USAGE.prompt_tokens, completion: DIFY_USAGE.completion_tokens };
let h: RelayHarness;
let fake: FakeUpstream;

const channel = (name: string, over: Partial<Parameters<typeof insertChannel>[1]> = {}) =>
  insertChannel(h.deps, { name, type: 37, key: KEY, baseUrl: fake.url, models: [name], ...over });

const chats = () => fake.requests.filter((r) => r.path === '/v1/chat-messages');

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeDify(KEY);
  const models = ['dify-app', 'dify-fail', 'dify-mid', 'dify-dead'];
  await setOptions(h.deps, {
    AutomaticDisableChannelEnabled: 'true',
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.completion]))),
  });
  await channel('dify-app', { autoBan: false });
  await channel('dify-fail', { modelMapping: { 'dify-fail': 'dify+fail-400' }, autoBan: false });
  await channel('dify-mid', { modelMapping: { 'dify-mid': 'dify+fail-mid' }, autoBan: false });
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

describe('Dify channels (type 37)', () => {
  it('a conversation becomes one streamed chat-messages call, gathered into the answer, its usage billed', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'dify-app',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'two' },
        { role: 'user', content: 'three' },
      ],
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    expect(r.usage).toMatchObject({ prompt_tokens: USAGE.prompt, completion_tokens: USAGE.completion });
    const sent = chats().at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    // Dify keeps history itself; the gateway's conversation is flattened into the query as new-api does.
    expect(sent.body).toEqual({
      inputs: {},
      query: 'SYSTEM: \nBe brief.\nUSER: \none\nASSISTANT: \ntwo\nUSER: \nthree\n',
      response_mode: 'streaming',
      user: 'dify-app',
      auto_generate_name: false,
    });
    expect(await p.charges()).toEqual([quotaOf(USAGE, R)]);
  });

  it("a lone question goes as it is, with the client's user as Dify's end user", async () => {
    const p = await payer(h);
    await h.client(p.key).chat.completions.create({
      model: 'dify-app',
      user: 'alice',
      messages: [{ role: 'user', content: 'Capital of France?' }],
    });
    expect(chats().at(-1)!.body).toMatchObject({ query: 'Capital of France?', user: 'alice' });
  });

  it('pictures: a URL goes as a remote_url file, a data URL is uploaded first and sent by its id', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h.client(p.key).chat.completions.create({
      model: 'dify-app',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare these.' },
            { type: 'image_url', image_url: { url: 'https://img.example/cat.png' } },
            { type: 'image_url', image_url: { url: PNG_1PX } },
          ],
        },
      ],
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    const [upload, chat] = fake.requests.slice(before);
    expect(upload.path).toBe('/v1/files/upload');
    expect(upload.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const files = (chat.body as { files: { upload_file_id?: string }[] }).files;
    expect(files).toEqual([
      { type: 'image', transfer_method: 'remote_url', url: 'https://img.example/cat.png' },
      { type: 'image', transfer_method: 'local_file', upload_file_id: expect.any(String) },
    ]);
    expect(chat.body.query).toBe('Compare these.');
  });

  it('a stream: agent_message deltas as chunks, message_end usage as the usage chunk', async () => {
    const p = await payer(h);
    const stream = await h.client(p.key).chat.completions.create({
      model: 'dify-app',
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
    expect(usage).toMatchObject({ prompt_tokens: USAGE.prompt, completion_tokens: USAGE.completion });
    expect(await p.charges()).toEqual([quotaOf(USAGE, R)]);
  });

  it("an error event fails a call not streamed with its status and Dify's message, uncharged", async () => {
    const p = await payer(h);
    const err = await failedChat(h, p.key, 'dify-fail');
    expect(err).toMatchObject({ status: 400 });
    expect((err as Error).message).toContain(DIFY_ERROR);
    expect(await p.charges()).toEqual([]);
  });

  it('an error event before any delta fails a streamed call too (status and message), uncharged', async () => {
    const p = await payer(h);
    const err = await h
      .client(p.key)
      .chat.completions.create({ model: 'dify-fail', stream: true, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: { status?: number; message?: string }) => e);
    expect(err).toMatchObject({ status: 400 });
    expect((err as Error).message).toContain(DIFY_ERROR);
    expect(await p.charges()).toEqual([]);
  });

  it('an error event mid-stream ends the stream with an error after the deltas already sent', async () => {
    const p = await payer(h);
    const res = await fetch(`${h.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'dify-mid', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await res.text();
    expect(text).toContain('"content":"w1 "');
    expect(text).not.toContain('w2 ');
    expect(text).toContain('"error":{"message":"The app broke."');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('channel test and model list through the admin API; a revoked key auto-disables the channel', async () => {
    const admin = (await loginAs(h.t, Role.Admin)).headers;
    const good = await channel('dify-test');
    const tested = await h.t.app.inject({ method: 'GET', url: `/api/channel/test/${good}?model=dify`, headers: admin });
    expect(tested.json()).toMatchObject({ success: true });
    // Dify has no model-list endpoint (the app is the model): fetch_models offers the type's default, asking nothing.
    const before = fake.requests.length;
    const listed = await h.t.app.inject({ method: 'GET', url: `/api/channel/fetch_models/${good}`, headers: admin });
    expect(listed.json()).toMatchObject({ success: true, data: ['dify'] });
    expect(fake.requests.length).toBe(before);

    // The upload is the first call of a request with an inline picture: its 401 takes the key out too.
    const dead = await channel('dify-dead', { key: 'app-revoked' });
    const p = await payer(h);
    const err = await h
      .client(p.key)
      .chat.completions.create({
        model: 'dify-dead',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: PNG_1PX } }] }],
      })
      .catch((e: { status?: number }) => e);
    expect(err).toMatchObject({ status: 401 });
    expect(fake.requests.at(-1)!.path).toBe('/v1/files/upload');
    expect(await channelStatus(h, dead)).toBe(ChannelStatus.AutoDisabled);
    expect(await p.charges()).toEqual([]);
  });
});
