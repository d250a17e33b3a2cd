import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus, Role } from '../../../../shared/constants.ts';
import {
  COZE_BOT,
  COZE_BROKEN_BOT,
  COZE_FAILING_BOT,
  COZE_UNPUBLISHED_BOT,
  COZE_UNPUBLISHED_MSG,
  COZE_USAGE,
  startFakeCoze,
} from '../../../../scripts/fake-upstream/coze/server.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { channelStatus, payer, PNG_1PX, quotaOf } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { loginAs } from '../../../../test/users.ts';

/*
 * Coze channels (type 49) through the real gateway and the OpenAI SDK, against the strict fake of
 * Coze's v3 chat API (refusals in HTTP 200 answers, `event:`/`data:` streams).
 */

const TOKEN = 'pat_T3stT0kenQm8x2LkP0aZr';
const R = { model: 2, completion: 3 };
const USAGE = { prompt: COZE_USAGE.input_count, completion: COZE_USAGE.output_count };
let h: RelayHarness;
let fake: FakeUpstream;

const channel = (name: string, over: Partial<Parameters<typeof insertChannel>[1]> = {}) =>
  insertChannel(h.deps, { name, type: 49, key: TOKEN, baseUrl: fake.url, models: [name], autoBan: false, ...over });

const ask = async (model: string, content = 'hi') => {
  const p = await payer(h);
  const err = await h
    .client(p.key)
    .chat.completions.create({ model, messages: [{ role: 'user', content }] })
    .catch((e: { status?: number; message?: string }) => e);
  return { p, err: err as { status?: number; message?: string } };
};

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeCoze(TOKEN);
  const models = [
    'coze-bot',
    'coze-other',
    'coze-unpublished',
    'coze-failing',
    'coze-unknown',
    'coze-dead',
    'coze-broken',
  ];
  await setOptions(h.deps, {
    AutomaticDisableChannelEnabled: 'true',
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.completion]))),
  });
  await channel('coze-bot', { modelMapping: { 'coze-bot': COZE_BOT } });
  await channel('coze-other', { other: COZE_BOT });
  await channel('coze-unpublished', { modelMapping: { 'coze-unpublished': COZE_UNPUBLISHED_BOT } });
  await channel('coze-failing', { modelMapping: { 'coze-failing': COZE_FAILING_BOT } });
  await channel('coze-broken', { modelMapping: { 'coze-broken': COZE_BROKEN_BOT } });
  await channel('coze-unknown', { modelMapping: { 'coze-unknown': '7000000000000000000' } });
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

describe('Coze channels (type 49)', () => {
  it('a conversation becomes one streamed v3 chat for the bot named by the model, gathered, its usage billed', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'coze-bot',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'two' },
        { role: 'user', content: 'three' },
      ],
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    expect(r.usage).toMatchObject({ prompt_tokens: USAGE.prompt, completion_tokens: USAGE.completion });
    const sent = fake.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(sent.body).toEqual({
      bot_id: COZE_BOT,
      user_id: 'switchyard',
      stream: true,
      additional_messages: [
        { role: 'user', content: 'Be brief.', content_type: 'text' },
        { role: 'user', content: 'one', content_type: 'text' },
        { role: 'assistant', type: 'answer', content: 'two', content_type: 'text' },
        { role: 'user', content: 'three', content_type: 'text' },
      ],
    });
    expect(await p.charges()).toEqual([quotaOf(USAGE, R)]);
  });

  it("the channel's other names the bot as in new-api, whatever the model; the client's user is the user_id", async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'coze-other',
      user: 'alice',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    expect(fake.requests.at(-1)!.body).toMatchObject({ bot_id: COZE_BOT, user_id: 'alice' });
  });

  it('a picture by URL goes as an object_string; a data URL is refused before Coze is asked', async () => {
    const p = await payer(h);
    const client = h.client(p.key);
    await client.chat.completions.create({
      model: 'coze-bot',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is it?' },
            { type: 'image_url', image_url: { url: 'https://img.example/cat.png' } },
          ],
        },
      ],
    });
    const [m] = (fake.requests.at(-1)!.body as { additional_messages: { content: string; content_type: string }[] })
      .additional_messages;
    expect(m.content_type).toBe('object_string');
    expect(JSON.parse(m.content)).toEqual([
      { type: 'text', text: 'What is it?' },
      { type: 'image', file_url: 'https://img.example/cat.png' },
    ]);
    const before = fake.requests.length;
    const err = await client.chat.completions
      .create({
        model: 'coze-bot',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: PNG_1PX } }] }],
      })
      .catch((e: { status?: number }) => e);
    expect(err).toMatchObject({ status: 400 });
    expect(fake.requests.length).toBe(before);
  });

  it('a stream: message deltas as chunks, the completed chat’s usage as the usage chunk', async () => {
    const p = await payer(h);
    const stream = await h.client(p.key).chat.completions.create({
      model: 'coze-bot',
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
    // The completed message repeating the whole answer is not sent again.
    expect(pieces).toEqual(['w0 ', 'w1 ', 'w2 ', 'w3 ', 'w4 ']);
    expect(usage).toMatchObject({ prompt_tokens: USAGE.prompt, completion_tokens: USAGE.completion });
    expect(await p.charges()).toEqual([quotaOf(USAGE, R)]);
  });

  it('refusals in HTTP 200 answers get their statuses: 4015 unpublished bot 400, 4200 unknown bot 404', async () => {
    const unpublished = await ask('coze-unpublished');
    expect(unpublished.err).toMatchObject({ status: 400 });
    expect(unpublished.err.message).toContain(COZE_UNPUBLISHED_MSG);
    const unknown = await ask('coze-unknown');
    expect(unknown.err).toMatchObject({ status: 404 });
    expect(await unpublished.p.charges()).toEqual([]);
  });

  it('a failed chat: mid-stream it ends the stream with its error; not streamed it fails the call', async () => {
    const p = await payer(h);
    const res = await fetch(`${h.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'coze-failing', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await res.text();
    expect(text).toContain('"content":"w1 "');
    expect(text).toContain('"error":{"message":"The bot broke."');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const whole = await ask('coze-failing');
    expect(whole.err).toMatchObject({ status: 500 });
    expect(whole.err.message).toContain('The bot broke.');
  });

  it('a chat failing before any delta fails a streamed call with its status, uncharged', async () => {
    const p = await payer(h);
    const err = await h
      .client(p.key)
      .chat.completions.create({ model: 'coze-broken', stream: true, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: { status?: number; message?: string }) => e);
    expect(err).toMatchObject({ status: 500 });
    expect((err as Error).message).toContain('The bot broke.');
    expect(await p.charges()).toEqual([]);
  });

  it('channel test through the admin API, no model list asked; a wrong token (4100) auto-disables the channel', async () => {
    const admin = (await loginAs(h.t, Role.Admin)).headers;
    const good = await channel('coze-test', { other: COZE_BOT });
    const tested = await h.t.app.inject({ method: 'GET', url: `/api/channel/test/${good}?model=bot`, headers: admin });
    expect(tested.json()).toMatchObject({ success: true });
    // Coze has no model-list endpoint for bots: fetch_models offers the type's (empty) defaults, asking nothing.
    const before = fake.requests.length;
    const listed = await h.t.app.inject({ method: 'GET', url: `/api/channel/fetch_models/${good}`, headers: admin });
    expect(listed.json()).toMatchObject({ success: true, data: [] });
    expect(fake.requests.length).toBe(before);

    const dead = await channel('coze-dead', { key: 'pat_revoked', other: COZE_BOT, autoBan: true });
    const { p, err } = await ask('coze-dead');
    expect(err).toMatchObject({ status: 401 });
    expect(err.message).toContain('authentication is invalid');
    expect(await channelStatus(h, dead)).toBe(ChannelStatus.AutoDisabled);
    expect(await p.charges()).toEqual([]);
  });
});
