import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus, Role } from '../../../../shared/constants.ts';
import { FAKE_ZHIPU_ID, FAKE_ZHIPU_SECRET, startFakeZhipu } from '../../../../scripts/fake-upstream/zhipu/index.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { channelStatus, failedChat, payer, quotaOf, streamUntilFailure } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { loginAs } from '../../../../test/users.ts';

/*
 * Zhipu legacy v3 channels (type 16) through the real gateway and the OpenAI SDK,
 * against the strict fake that verifies every JWT with the test's secret.
 */

const KEY = `${FAKE_ZHIPU_ID}.${FAKE_ZHIPU_SECRET}`;
const R = { model: 2, completion: 3 };
let h: RelayHarness;
let fake: FakeUpstream;

const channel = (name: string, upstream: string, over: Partial<Parameters<typeof insertChannel>[1]> = {}) =>
  insertChannel(h.deps, {
    name,
    type: 16,
    key: KEY,
    baseUrl: fake.url,
    models: [name],
    modelMapping: { [name]: upstream },
    ...over,
  });

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeZhipu();
  const names = ['zp-plain', 'zp-lines', 'zp-mid', 'zp-dead', 'zp-arrears'];
  await setOptions(h.deps, {
    AutomaticDisableChannelEnabled: 'true',
    ModelRatio: JSON.stringify({
      ...h.deps.services.options.get('ModelRatio'),
      ...Object.fromEntries(names.map((m) => [m, R.model])),
    }),
    CompletionRatio: JSON.stringify({
      ...h.deps.services.options.get('CompletionRatio'),
      ...Object.fromEntries(names.map((m) => [m, R.completion])),
    }),
  });
  await channel('zp-plain', 'chatglm_turbo', { autoBan: false });
  await channel('zp-lines', 'chatglm_std+multiline');
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

describe('Zhipu legacy v3 channels (type 16)', () => {
  it('a signed JWT (reused across calls) and the v3 prompt: system opening the first user turn, turns joined', async () => {
    const p = await payer(h);
    const client = h.client(p.key);
    const r = await client.chat.completions.create({
      model: 'zp-plain',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'two' },
        { role: 'user', content: 'three' },
      ],
      temperature: 1.7,
      top_p: 1,
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    expect(r.usage).toMatchObject({ prompt_tokens: 8, completion_tokens: 5 });
    const first = fake.requests.at(-1)!;
    expect(first.path).toBe('/api/paas/v3/model-api/chatglm_turbo/invoke');
    expect(first.body).toEqual({
      prompt: [
        { role: 'user', content: 'Be brief.\n\none' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'two\n\nthree' },
      ],
      temperature: 1,
      top_p: 0.99,
    });
    const jwt = String(first.headers.authorization);
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'HS256', sign_type: 'SIGN' });
    const claims = decodeJwt(jwt);
    expect(claims.api_key).toBe(FAKE_ZHIPU_ID);
    // Milliseconds, as Zhipu reads them.
    expect(Number(claims.exp)).toBeGreaterThan(Date.now() + 60 * 60 * 1000);

    await client.chat.completions.create({ model: 'zp-plain', messages: [{ role: 'user', content: 'again' }] });
    expect(fake.requests.at(-1)!.headers.authorization).toBe(jwt);
    expect(await p.charges()).toEqual([
      quotaOf({ prompt: 8, completion: 5 }, R),
      quotaOf({ prompt: 8, completion: 5 }, R),
    ]);
  });

  it("sse-invoke: add events become chunks, the finish's meta line the usage; multi-line data keeps its line breaks", async () => {
    const p = await payer(h);
    const client = h.client(p.key);
    const read = async (model: string) => {
      const stream = await client.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      let usage: unknown;
      for await (const c of stream) {
        text += c.choices[0]?.delta.content ?? '';
        usage = c.usage ?? usage;
      }
      return { text, usage };
    };
    expect(await read('zp-plain')).toEqual({
      text: 'w0 w1 w2 w3 w4 ',
      usage: expect.objectContaining({ prompt_tokens: 8, completion_tokens: 5 }),
    });
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/api/paas/v3/model-api/chatglm_turbo/sse-invoke');
    expect(sent.body).toMatchObject({ incremental: true });
    expect((await read('zp-lines')).text).toBe('line one\nline two');
    // The same answer, not streamed: v3's quoted content read back with its line break.
    const whole = await client.chat.completions.create({
      model: 'zp-lines',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(whole.choices[0].message.content).toBe('line one\nline two');
  });

  it('an error event inside the stream ends it with an error after the pieces already sent', async () => {
    await channel('zp-mid', 'chatglm_turbo+fail-mid');
    const p = await payer(h);
    const { text, failure } = await streamUntilFailure(h, p.key, 'zp-mid');
    expect(text).toBe('w0 w1 ');
    expect(String(failure)).toContain('系统繁忙');
  });

  it('an account in arrears (1113, HTTP 200) is a dead key: 402 to the caller, the channel auto-disabled', async () => {
    const id = await channel('zp-arrears', 'chatglm_turbo+arrears');
    const p = await payer(h);
    const err = await failedChat(h, p.key, 'zp-arrears');
    expect(err).toMatchObject({ status: 402 });
    expect(await channelStatus(h, id)).toBe(ChannelStatus.AutoDisabled);
    expect(await p.charges()).toEqual([]);
  });

  it('channel test and model list through the admin API; a wrong secret fails the JWT check and the channel', async () => {
    const admin = (await loginAs(h.t, Role.Admin)).headers;
    const test = async (id: number) =>
      (await h.t.app.inject({ method: 'GET', url: `/api/channel/test/${id}?model=chatglm_pro`, headers: admin })).json<{
        success: boolean;
        message: string;
      }>();
    const good = await channel('zp-good-test', 'chatglm_pro');
    expect(await test(good)).toMatchObject({ success: true });
    const before = fake.requests.length;
    const listed = await h.t.app.inject({ method: 'GET', url: `/api/channel/fetch_models/${good}`, headers: admin });
    expect(listed.json()).toMatchObject({ success: true, data: expect.arrayContaining(['chatglm_turbo']) });
    expect(fake.requests.length).toBe(before);

    const dead = await channel('zp-dead', 'chatglm_pro', { key: `${FAKE_ZHIPU_ID}.wrong-secret` });
    const failed = await test(dead);
    expect(failed.success).toBe(false);
    expect(failed.message).toContain('1004');
    const p = await payer(h);
    const err = await failedChat(h, p.key, 'zp-dead');
    expect(err).toMatchObject({ status: 401 });
    expect(await channelStatus(h, dead)).toBe(ChannelStatus.AutoDisabled);
    expect(await p.charges()).toEqual([]);
  });
});
