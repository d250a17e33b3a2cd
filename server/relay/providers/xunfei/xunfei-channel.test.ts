import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus, Role } from '../../../../shared/constants.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import {
  FAKE_SPARK_API_KEY,
  FAKE_SPARK_API_SECRET,
  FAKE_SPARK_APP_ID,
  FAKE_SPARK_KEY,
  SPARK_USAGE,
  startFakeSpark,
} from '../../../../scripts/fake-upstream/xunfei/index.ts';
import { channelStatus, failedChat, payer, quotaOf } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { loginAs } from '../../../../test/users.ts';
import { mapSparkError } from './answer.ts';
import { signSparkUrl } from './sign.ts';

/*
 * Xunfei Spark channels (type 18) through the real gateway and the OpenAI SDK, against the strict
 * fake WebSocket server that recomputes Spark's URL signature with the test's APISecret and checks
 * every request frame (app_id, the domain of the path, parameter ranges, turns).
 */

const R = { model: 2, completion: 3 };
const ANSWER = 'w0 w1 w2 w3 w4 ';
const USAGE = { prompt: SPARK_USAGE.prompt_tokens, completion: SPARK_USAGE.completion_tokens };
let h: RelayHarness;
let fake: FakeUpstream;

const channel = (name: string, over: Partial<Parameters<typeof insertChannel>[1]> = {}) =>
  insertChannel(h.deps, { name, type: 18, key: FAKE_SPARK_KEY, baseUrl: fake.url, models: [name], ...over });

const MODELS = ['sp-35', 'sp-other', 'sp-v2', 'sp-128k', 'sp-dead', 'sp-ultra', 'sp-audit'];

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeSpark({ unlicensed: ['4.0Ultra'] });
  await setOptions(h.deps, {
    AutomaticDisableChannelEnabled: 'true',
    ModelRatio: JSON.stringify(Object.fromEntries(MODELS.map((m) => [m, R.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(MODELS.map((m) => [m, R.completion]))),
  });
  await channel('sp-35', { modelMapping: { 'sp-35': 'SparkDesk-v3.5' }, autoBan: false });
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

const frameOf = () => fake.requests.at(-1)!.body as { header: object; parameter: { chat: object }; payload: object };
const turnsOf = () => (frameOf().payload as { message: { text: unknown[] } }).message.text;

describe('Xunfei Spark channels (type 18)', () => {
  it('a signed session on the model’s version: the request frame, the gathered answer, its usage billed', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'sp-35',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [{ type: 'text', text: 'two' }] },
      ],
      temperature: 0.4,
      // More than Spark Max takes: capped to its 8192 (the fake refuses more).
      max_tokens: 20_000,
      user: 'end-user-7',
      // Anthropic and Gemini clients send larger top_k; Spark takes 1 to 6.
      ...({ top_k: 40 } as object),
    });
    expect(r.choices[0].message.content).toBe(ANSWER);
    expect(r.choices[0].finish_reason).toBe('stop');
    expect(r.usage).toMatchObject({ prompt_tokens: USAGE.prompt, completion_tokens: USAGE.completion });
    expect(fake.requests.at(-1)!.path).toBe('/v3.5/chat');
    expect(frameOf()).toEqual({
      header: { app_id: FAKE_SPARK_APP_ID, uid: 'end-user-7' },
      parameter: { chat: { domain: 'generalv3.5', temperature: 0.4, max_tokens: 8192, top_k: 6 } },
      payload: {
        message: {
          text: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'one' },
            { role: 'assistant', content: 'ok' },
            { role: 'user', content: 'two' },
          ],
        },
      },
    });
    expect(await p.charges()).toEqual([quotaOf(USAGE, R)]);
  });

  it('streams: one chunk per Spark frame, usage from the last frame', async () => {
    const p = await payer(h);
    const stream = await h.client(p.key).chat.completions.create({
      model: 'sp-35',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const pieces: string[] = [];
    let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
    for await (const c of stream) {
      const piece = c.choices[0]?.delta.content;
      if (piece) pieces.push(piece);
      if (c.usage) usage = c.usage;
    }
    expect(pieces).toEqual(['w0 ', 'w1 ', 'w2 ', 'w3 ', 'w4 ']);
    expect(usage).toMatchObject({ prompt_tokens: USAGE.prompt, completion_tokens: USAGE.completion });
    expect(await p.charges()).toEqual([quotaOf(USAGE, R)]);
  });

  it("the version from the channel's other (v2.1 when empty, system as an acknowledged user turn), Pro-128K's path", async () => {
    await channel('sp-other', { other: 'v4.0', modelMapping: { 'sp-other': 'spark' } });
    await channel('sp-v2', { modelMapping: { 'sp-v2': 'spark' } });
    await channel('sp-128k', { modelMapping: { 'sp-128k': 'SparkDesk-pro-128k' } });
    const p = await payer(h);
    const ask = (model: string) =>
      h.client(p.key).chat.completions.create({
        model,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'hi' },
        ],
        max_tokens: 5000,
      });
    // v4.0 has no licence on the fake's app: the path and domain went out, Spark refused the app.
    const ultra = await ask('sp-other').catch((e: { status?: number }) => e);
    expect(ultra).toMatchObject({ status: 403 });
    expect(fake.requests.at(-1)!.path).toBe('/v4.0/chat');
    expect(frameOf().parameter.chat).toMatchObject({ domain: '4.0Ultra' });

    expect((await ask('sp-v2')).choices[0].message.content).toBe(ANSWER);
    expect(fake.requests.at(-1)!.path).toBe('/v2.1/chat');
    expect(frameOf().parameter.chat).toEqual({ domain: 'generalv2', max_tokens: 5000 });
    expect(turnsOf()).toEqual([
      { role: 'user', content: 'Be brief.' },
      { role: 'assistant', content: 'Okay' },
      { role: 'user', content: 'hi' },
    ]);

    expect((await ask('sp-128k')).choices[0].message.content).toBe(ANSWER);
    expect(fake.requests.at(-1)!.path).toBe('/chat/pro-128k');
    expect(frameOf().parameter.chat).toEqual({ domain: 'pro-128k', max_tokens: 4096 });
  });

  it('an error frame mid-answer (10014) ends the stream with an error after the words already sent', async () => {
    const p = await payer(h);
    const stream = await h.client(p.key).chat.completions.create({
      model: 'sp-35',
      messages: [{ role: 'user', content: 'SPARK-RISKY-OUTPUT' }],
      stream: true,
    });
    let text = '';
    const failure = await (async () => {
      for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
    })().catch((e: Error) => e);
    expect(text).toBe('w0 w1 ');
    expect(String(failure)).toContain('Spark error 10014');
    // The cut stream is billed for what it sent (the relay's rule); not streamed, the frames are
    // gathered first: the whole request fails with the frame's status and costs nothing.
    const billed = await p.charges();
    expect(billed).toHaveLength(1);
    const whole = await h
      .client(p.key)
      .chat.completions.create({ model: 'sp-35', messages: [{ role: 'user', content: 'SPARK-RISKY-OUTPUT' }] })
      .catch((e: { status?: number }) => e);
    expect(whole).toMatchObject({ status: 400 });
    expect(await p.charges()).toEqual(billed);
  });

  it('an input the audit refuses (10013) is a 400, not charged, and leaves the channel serving', async () => {
    await channel('sp-audit', { modelMapping: { 'sp-audit': 'SparkDesk-v3.5' } });
    const p = await payer(h);
    const err = await h
      .client(p.key)
      .chat.completions.create({ model: 'sp-audit', messages: [{ role: 'user', content: 'SPARK-RISKY-INPUT' }] })
      .catch((e: { status?: number; message?: string }) => e);
    expect(err).toMatchObject({ status: 400 });
    expect((err as Error).message).toContain('Spark error 10013');
    const ok = await h
      .client(p.key)
      .chat.completions.create({ model: 'sp-audit', messages: [{ role: 'user', content: 'hi' }] });
    expect(ok.choices[0].message.content).toBe(ANSWER);
    expect(await p.charges()).toEqual([quotaOf(USAGE, R)]);
  });

  it('declared tools are left out and reported; a required call and a picture are refused', async () => {
    const p = await payer(h);
    const tools = [{ type: 'function' as const, function: { name: 'weather', parameters: { type: 'object' } } }];
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const { data, response } = await h
      .client(p.key)
      .chat.completions.create({ model: 'sp-35', messages, tools })
      .withResponse();
    expect(data.choices[0].message.content).toBe(ANSWER);
    expect(response.headers.get('x-switchyard-dropped-tools')).toBe('weather');
    expect(Object.keys(frameOf())).toEqual(['header', 'parameter', 'payload']);
    const sent = fake.requests.length;
    const required = await h
      .client(p.key)
      .chat.completions.create({ model: 'sp-35', messages, tools, tool_choice: 'required' })
      .catch((e: { status?: number }) => e);
    expect(required).toMatchObject({ status: 400 });
    const picture = await h
      .client(p.key)
      .chat.completions.create({
        model: 'sp-35',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }],
      })
      .catch((e: { status?: number }) => e);
    expect(picture).toMatchObject({ status: 400 });
    expect(fake.requests.length).toBe(sent);
  });

  it('a client that goes away mid-stream closes the Spark session', async () => {
    const p = await payer(h);
    const ctl = new AbortController();
    const res = await fetch(`${h.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sp-35', stream: true, messages: [{ role: 'user', content: 'SPARK-SLOW' }] }),
      signal: ctl.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    const session = fake.requests.at(-1)!;
    ctl.abort();
    for (let i = 0; i < 50 && !session.aborted; i++) await new Promise((r) => setTimeout(r, 20));
    expect(session.aborted).toBe(true);
  });

  it('the channel test passes through the admin API; a wrong APISecret fails it and auto-disables the channel', async () => {
    const admin = (await loginAs(h.t, Role.Admin)).headers;
    const test = async (id: number) =>
      (
        await h.t.app.inject({ method: 'GET', url: `/api/channel/test/${id}?model=SparkDesk-v3.5`, headers: admin })
      ).json<{ success: boolean; message: string }>();
    expect(await test(await channel('sp-good-test'))).toMatchObject({ success: true });

    const key = `${FAKE_SPARK_APP_ID}|not-the-secret|${FAKE_SPARK_API_KEY}`;
    const dead = await channel('sp-dead', { key, modelMapping: { 'sp-dead': 'SparkDesk-v3.5' } });
    const failed = await test(dead);
    expect(failed.success).toBe(false);
    expect(failed.message).toContain('HMAC signature does not match');

    const p = await payer(h);
    const err = await failedChat(h, p.key, 'sp-dead');
    expect(err).toMatchObject({ status: 401 });
    expect(await channelStatus(h, dead)).toBe(ChannelStatus.AutoDisabled);
    expect(await p.charges()).toEqual([]);
  });

  it('an app without a licence for the version (11200) is a dead key: the channel is auto-disabled', async () => {
    const id = await channel('sp-ultra', { modelMapping: { 'sp-ultra': 'SparkDesk-v4.0' } });
    const p = await payer(h);
    const err = await failedChat(h, p.key, 'sp-ultra');
    expect(err).toMatchObject({ status: 403 });
    expect((err as Error).message).toContain('AppIdNoAuthError');
    expect(await channelStatus(h, id)).toBe(ChannelStatus.AutoDisabled);
  });

  it("model listing offers the type's models (Spark has no list API)", async () => {
    const admin = (await loginAs(h.t, Role.Admin)).headers;
    const form = await h.t.app.inject({
      method: 'POST',
      url: '/api/channel/fetch_models',
      headers: admin,
      payload: { type: 18, base_url: fake.url, key: FAKE_SPARK_KEY, other: 'v3.5' },
    });
    expect(form.json()).toMatchObject({ success: true, data: expect.arrayContaining(['SparkDesk-v3.5']) });
  });

  it('a date more than five minutes off is refused with 403, which is the clock, not a dead key', async () => {
    const url = signSparkUrl(
      `${fake.url}/v3.5/chat`,
      { appId: FAKE_SPARK_APP_ID, apiSecret: FAKE_SPARK_API_SECRET, apiKey: FAKE_SPARK_API_KEY },
      new Date(Date.now() - 6 * 60_000),
    );
    const refused = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.on('open', () => reject(new Error('the handshake was accepted')));
      ws.on('error', () => undefined);
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += String(c)));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body });
          ws.terminate();
        });
      });
    });
    expect(refused.status).toBe(403);
    const e = mapSparkError(refused.status, refused.body);
    expect(e.message).toContain('a valid date or x-date header is required');
    expect(e.type).toBeUndefined();
  });
});
