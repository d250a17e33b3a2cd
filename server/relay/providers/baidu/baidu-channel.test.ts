import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus, Role } from '../../../../shared/constants.ts';
import {
  FAKE_BAIDU_API_KEY,
  FAKE_BAIDU_SECRET_KEY,
  type FakeBaidu,
  startFakeBaidu,
} from '../../../../scripts/fake-upstream/baidu/index.ts';
import { channelStatus, failedChat, payer, quotaOf, streamUntilFailure } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { loginAs } from '../../../../test/users.ts';

/*
 * Baidu legacy ERNIE channels (type 15) through the real gateway and the OpenAI SDK, against the
 * strict fake that issues access tokens for the test's API Key / Secret Key only and checks them.
 */

const KEY = `${FAKE_BAIDU_API_KEY}|${FAKE_BAIDU_SECRET_KEY}`;
const R = { model: 2, completion: 3 };
let h: RelayHarness;
let fake: FakeBaidu;

const tokenCalls = () => fake.requests.filter((r) => r.path.startsWith('/oauth/2.0/token')).length;
const chatCalls = () => fake.requests.filter((r) => r.path.includes('/wenxinworkshop/'));

const channel = (name: string, upstream: string, over: Partial<Parameters<typeof insertChannel>[1]> = {}) =>
  insertChannel(h.deps, {
    name,
    type: 15,
    key: KEY,
    baseUrl: fake.url,
    models: [name],
    modelMapping: { [name]: upstream },
    ...over,
  });

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeBaidu();
  const names = ['bd-plain', 'bd-mid', 'bd-embed', 'bd-dead', 'bd-odd', 'bd-cold'];
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
  await channel('bd-plain', 'ERNIE-4.0-8K', { autoBan: false });
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

describe('Baidu legacy ERNIE channels (type 15)', () => {
  it("one access token serves many calls; the body is Baidu's (system apart, turns alternating, ranges kept)", async () => {
    const p = await payer(h);
    const client = h.client(p.key);
    const before = tokenCalls();
    const r = await client.chat.completions.create({
      model: 'bd-plain',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'one' },
        { role: 'user', content: 'two' },
      ],
      temperature: 1.5,
      top_p: 0.9,
      frequency_penalty: 1,
      max_tokens: 1,
      user: 'u-1',
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    expect(r.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 5 });
    const sent = chatCalls().at(-1)!;
    // ERNIE-4.0-8K is served by the completions_pro endpoint (new-api's table).
    expect(sent.path).toMatch(/^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/chat\/completions_pro\?access_token=24\./);
    expect(sent.body).toEqual({
      messages: [{ role: 'user', content: 'one\n\ntwo' }],
      system: 'Be brief.',
      stream: false,
      temperature: 1,
      top_p: 0.9,
      penalty_score: 1.5,
      max_output_tokens: 2,
      user_id: 'u-1',
    });
    const stream = await client.chat.completions.create({
      model: 'bd-plain',
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
    expect(text).toBe('w0 w1 w2 w3 w4 ');
    expect(usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 5 });
    // One exchange for both calls (the first of this fake): the token is cached per key.
    expect(tokenCalls() - before).toBe(1);
    const token = fake.requests.find((x) => x.path.startsWith('/oauth/2.0/token'))!;
    expect(token.method).toBe('POST');
    expect(new URL(token.path, 'http://x').searchParams.get('client_id')).toBe(FAKE_BAIDU_API_KEY);
    expect(await p.charges()).toEqual([
      quotaOf({ prompt: 9, completion: 5 }, R),
      quotaOf({ prompt: 9, completion: 5 }, R),
    ]);
  });

  it('an expired token (Baidu error 111) is dropped, a fresh one fetched and the call made once more', async () => {
    const p = await payer(h);
    fake.expireTokens();
    const tokensBefore = tokenCalls();
    const callsBefore = chatCalls().length;
    const r = await h.client(p.key).chat.completions.create({
      model: 'bd-plain',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    expect(tokenCalls() - tokensBefore).toBe(1);
    const [refused, retried] = chatCalls().slice(callsBefore);
    expect(new URL(refused.path, 'http://x').searchParams.get('access_token')).not.toBe(
      new URL(retried.path, 'http://x').searchParams.get('access_token'),
    );
    expect(await p.charges()).toEqual([quotaOf({ prompt: 9, completion: 5 }, R)]);
  });

  it('concurrent first calls of a key share one token exchange', async () => {
    const cold = await startFakeBaidu();
    try {
      await insertChannel(h.deps, {
        name: 'bd-cold',
        type: 15,
        key: KEY,
        baseUrl: cold.url,
        models: ['bd-cold'],
        modelMapping: { 'bd-cold': 'ERNIE-Speed-8K' },
      });
      const p = await payer(h);
      const answers = await Promise.all(
        [1, 2, 3, 4].map(() =>
          h.client(p.key).chat.completions.create({ model: 'bd-cold', messages: [{ role: 'user', content: 'hi' }] }),
        ),
      );
      expect(answers.map((a) => a.choices[0].message.content)).toEqual(Array(4).fill('w0 w1 w2 w3 w4 '));
      expect(cold.requests.filter((r) => r.path.startsWith('/oauth/2.0/token'))).toHaveLength(1);
    } finally {
      await cold.close();
    }
  });

  it('turns Baidu refuses (an opening assistant turn) fail with 400 and its message, charging nothing', async () => {
    await channel('bd-odd', 'ERNIE-Speed-8K');
    const p = await payer(h);
    const err = await h
      .client(p.key)
      .chat.completions.create({
        model: 'bd-odd',
        messages: [
          { role: 'assistant', content: 'Hello' },
          { role: 'user', content: 'hi' },
        ],
      })
      .catch((e: { status?: number; message?: string }) => e);
    expect(err).toMatchObject({ status: 400 });
    expect(String((err as Error).message)).toContain('the length of messages must be an odd number');
    expect(await p.charges()).toEqual([]);
  });

  it('an error inside the stream ends it with an error after the pieces already sent', async () => {
    await channel('bd-mid', 'ernie_speed+fail-mid');
    const p = await payer(h);
    const { text, failure } = await streamUntilFailure(h, p.key, 'bd-mid');
    expect(text).toBe('w0 w1 ');
    expect(String(failure)).toContain('try again later (336100)');
  });

  it("embeddings: the model's embeddings endpoint, answered as OpenAI embeddings and billed", async () => {
    await channel('bd-embed', 'Embedding-V1');
    const p = await payer(h);
    const r = await h.client(p.key).embeddings.create({ model: 'bd-embed', input: ['a', 'b'], user: 'u-2' });
    expect(r.data.map((d) => d.embedding)).toEqual([
      [0, 0.5, -0.5],
      [1, 0.5, -0.5],
    ]);
    expect(r.usage.prompt_tokens).toBe(6);
    const sent = chatCalls().at(-1)!;
    expect(sent.path).toMatch(/\/wenxinworkshop\/embeddings\/embedding-v1\?access_token=/);
    expect(sent.body).toEqual({ input: ['a', 'b'], user_id: 'u-2' });
    expect(await p.charges()).toEqual([quotaOf({ prompt: 6, completion: 0 }, R)]);
  });

  it('channel test and model list through the admin API; a wrong Secret Key is a dead key', async () => {
    const admin = (await loginAs(h.t, Role.Admin)).headers;
    const test = async (id: number) =>
      (
        await h.t.app.inject({ method: 'GET', url: `/api/channel/test/${id}?model=ERNIE-3.5-8K`, headers: admin })
      ).json<{ success: boolean; message: string }>();
    const good = await channel('bd-good-test', 'ERNIE-3.5-8K');
    expect(await test(good)).toMatchObject({ success: true });
    const before = fake.requests.length;
    const listed = await h.t.app.inject({ method: 'GET', url: `/api/channel/fetch_models/${good}`, headers: admin });
    expect(listed.json()).toMatchObject({ success: true, data: expect.arrayContaining(['ERNIE-4.0-8K']) });
    expect(fake.requests.length).toBe(before);

    const dead = await channel('bd-dead', 'ERNIE-3.5-8K', { key: `${FAKE_BAIDU_API_KEY}|wrong-secret` });
    const failed = await test(dead);
    expect(failed.success).toBe(false);
    expect(failed.message).toContain('invalid_client');
    const p = await payer(h);
    const err = await failedChat(h, p.key, 'bd-dead');
    expect(err).toMatchObject({ status: 401 });
    expect(await channelStatus(h, dead)).toBe(ChannelStatus.AutoDisabled);
    expect(await p.charges()).toEqual([]);
  });
});
