import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus, Role } from '../../../../shared/constants.ts';
import {
  FAKE_TENCENT_SECRET_ID,
  FAKE_TENCENT_SECRET_KEY,
  startFakeTencent,
} from '../../../../scripts/fake-upstream/tencent/index.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { channelStatus, failedChat, payer, quotaOf } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { loginAs } from '../../../../test/users.ts';
import { tencentCall } from './adapter.ts';
import { signTencentRequest } from './sign.ts';

/*
 * Tencent Hunyuan channels (type 23) through the real gateway and the OpenAI SDK, against the strict
 * fake that recomputes every TC3-HMAC-SHA256 signature with the test's SecretKey.
 */

const KEY = `1300000001|${FAKE_TENCENT_SECRET_ID}|${FAKE_TENCENT_SECRET_KEY}`;
const R = { model: 2, completion: 3 };
let h: RelayHarness;
let fake: FakeUpstream;

const price = async (models: string[]) =>
  setOptions(h.deps, {
    ModelRatio: JSON.stringify({
      ...h.deps.services.options.get('ModelRatio'),
      ...Object.fromEntries(models.map((m) => [m, R.model])),
    }),
    CompletionRatio: JSON.stringify({
      ...h.deps.services.options.get('CompletionRatio'),
      ...Object.fromEntries(models.map((m) => [m, R.completion])),
    }),
  });

const channel = (name: string, over: Partial<Parameters<typeof insertChannel>[1]> = {}) =>
  insertChannel(h.deps, { name, type: 23, key: KEY, other: 'ap-beijing', baseUrl: fake.url, models: [name], ...over });

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeTencent();
  await setOptions(h.deps, { AutomaticDisableChannelEnabled: 'true' });
  await price(['hy-plain', 'hy-tools', 'hy-mid', 'hy-override', 'hy-dead', 'hy-embed']);
  await channel('hy-plain', { modelMapping: { 'hy-plain': 'hunyuan-lite' }, autoBan: false });
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

describe('Tencent Hunyuan channels (type 23)', () => {
  it('a signed ChatCompletions call: PascalCase body, Tencent headers, the answer and its usage billed', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'hy-plain',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'one' },
        { role: 'user', content: 'two' },
      ],
      temperature: 0.5,
      top_p: 0.9,
      max_tokens: 50,
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    expect(r.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 5 });
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/');
    expect(sent.headers).toMatchObject({
      'x-tc-action': 'ChatCompletions',
      'x-tc-version': '2023-09-01',
      'x-tc-region': 'ap-beijing',
    });
    const date = new Date(Number(sent.headers['x-tc-timestamp']) * 1000).toISOString().slice(0, 10);
    expect(sent.headers.authorization).toMatch(
      new RegExp(
        `^TC3-HMAC-SHA256 Credential=${FAKE_TENCENT_SECRET_ID}/${date}/hunyuan/tc3_request, SignedHeaders=content-type;host, Signature=[0-9a-f]{64}$`,
      ),
    );
    // Consecutive user turns joined (Hunyuan wants them alternating); max_tokens has no Hunyuan twin.
    expect(sent.body).toEqual({
      Model: 'hunyuan-lite',
      Messages: [
        { Role: 'system', Content: 'Be brief.' },
        { Role: 'user', Content: 'one\n\ntwo' },
      ],
      Stream: false,
      Temperature: 0.5,
      TopP: 0.9,
    });
    expect(await p.charges()).toEqual([quotaOf({ prompt: 11, completion: 5 }, R)]);
  });

  it("the signature covers the channel's param_override (the fake recomputes it over the bytes it got)", async () => {
    await channel('hy-override', {
      modelMapping: { 'hy-override': 'hunyuan-standard' },
      paramOverride: { EnableEnhancement: false },
    });
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'hy-override',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    expect(fake.requests.at(-1)!.body).toMatchObject({ Model: 'hunyuan-standard', EnableEnhancement: false });
  });

  it('a signature older than five minutes is refused as Tencent does (SignatureExpire, HTTP 200)', async () => {
    const req = signTencentRequest(
      tencentCall(fake.url, 'ChatCompletions', 'ap-guangzhou', {
        Model: 'hunyuan-lite',
        Messages: [{ Role: 'user', Content: 'hi' }],
      }),
      { appId: '1', secretId: FAKE_TENCENT_SECRET_ID, secretKey: FAKE_TENCENT_SECRET_KEY },
      Date.now() - 6 * 60_000,
    );
    const res = await fetch(req.url, { method: 'POST', headers: req.headers, body: String(req.body) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ Response: { Error: { Code: 'AuthFailure.SignatureExpire' } } });
  });

  it('tools: a streamed ToolCalls answer, then the result sent back as a tool turn after the call', async () => {
    await channel('hy-tools', { modelMapping: { 'hy-tools': 'hunyuan-turbos-latest' } });
    const p = await payer(h);
    const client = h.client(p.key);
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'weather',
          description: 'Weather of a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ];
    const messages = [{ role: 'user' as const, content: 'Weather in Paris?' }];
    const stream = await client.chat.completions.create({ model: 'hy-tools', messages, tools, stream: true });
    const calls: { id?: string; name?: string; args: string }[] = [];
    let finish: string | null = null;
    for await (const c of stream) {
      for (const t of c.choices[0]?.delta.tool_calls ?? [])
        calls[t.index] = {
          id: t.id ?? calls[t.index]?.id,
          name: t.function?.name ?? calls[t.index]?.name,
          args: (calls[t.index]?.args ?? '') + (t.function?.arguments ?? ''),
        };
      finish = c.choices[0]?.finish_reason ?? finish;
    }
    expect(calls).toEqual([{ id: 'call_fake_0', name: 'weather', args: '{"city":"Paris"}' }]);
    expect(finish).toBe('tool_calls');
    expect(fake.requests.at(-1)!.body).toMatchObject({
      Stream: true,
      Tools: [
        {
          Type: 'function',
          Function: {
            Name: 'weather',
            Description: 'Weather of a city',
            Parameters: JSON.stringify(tools[0].function.parameters),
          },
        },
      ],
    });

    const r = await client.chat.completions.create({
      model: 'hy-tools',
      tools,
      messages: [
        ...messages,
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_fake_0', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_fake_0', content: 'Sunny, 21 C' },
      ],
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    expect((fake.requests.at(-1)!.body as { Messages: unknown[] }).Messages.slice(1)).toEqual([
      {
        Role: 'assistant',
        Content: '',
        ToolCalls: [
          { Id: 'call_fake_0', Type: 'function', Function: { Name: 'weather', Arguments: '{"city":"Paris"}' } },
        ],
      },
      { Role: 'tool', Content: 'Sunny, 21 C', ToolCallId: 'call_fake_0' },
    ]);
  });

  it('an error inside the stream (ErrorMsg) ends it with an error after the pieces already sent', async () => {
    await channel('hy-mid', { modelMapping: { 'hy-mid': 'hunyuan-lite+error-mid-stream' } });
    const p = await payer(h);
    const stream = await h.client(p.key).chat.completions.create({
      model: 'hy-mid',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let text = '';
    const failure = await (async () => {
      for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
    })().catch((e: Error) => e);
    expect(text).toBe('w0 w1 ');
    expect(String(failure)).toContain('The service is busy');
  });

  it('a refused stream (Response.Error in a 200 JSON answer) fails before any chunk, with the status of its code', async () => {
    await channel('hy-refused', { modelMapping: { 'hy-refused': 'hunyuan-lite+fail-400' }, models: ['hy-refused'] });
    await price(['hy-refused']);
    const p = await payer(h);
    const err = await h
      .client(p.key)
      .chat.completions.create({ model: 'hy-refused', messages: [{ role: 'user', content: 'hi' }], stream: true })
      .catch((e: { status?: number; message?: string }) => e);
    expect(err).toMatchObject({ status: 400 });
    expect(String((err as Error).message)).toContain('does not pass review');
    expect(await p.charges()).toEqual([]);
  });

  it('embeddings: GetEmbedding with Inputs, answered as OpenAI embeddings and billed by their tokens', async () => {
    await channel('hy-embed', { modelMapping: { 'hy-embed': 'hunyuan-embedding' } });
    const p = await payer(h);
    const r = await h.client(p.key).embeddings.create({ model: 'hy-embed', input: ['abcdefgh', 'abcd'] });
    expect(r.data.map((d) => d.embedding.length)).toEqual([4, 4]);
    expect(r.usage.prompt_tokens).toBe(3);
    const sent = fake.requests.at(-1)!;
    expect(sent.headers['x-tc-action']).toBe('GetEmbedding');
    expect(sent.body).toEqual({ Inputs: ['abcdefgh', 'abcd'] });
    expect(await p.charges()).toEqual([quotaOf({ prompt: 3, completion: 0 }, R)]);
  });

  it('the channel test passes through the admin API; a wrong SecretKey fails it and auto-disables the channel when relayed', async () => {
    const admin = (await loginAs(h.t, Role.Admin)).headers;
    const test = async (id: number) =>
      (
        await h.t.app.inject({ method: 'GET', url: `/api/channel/test/${id}?model=hunyuan-lite`, headers: admin })
      ).json<{
        success: boolean;
        message: string;
      }>();
    const good = await channel('hy-good-test', { modelMapping: {} });
    expect(await test(good)).toMatchObject({ success: true });
    // Hunyuan has no model-list action: fetch_models offers the type's default models, asking nothing.
    const before = fake.requests.length;
    const listed = await h.t.app.inject({ method: 'GET', url: `/api/channel/fetch_models/${good}`, headers: admin });
    expect(listed.json()).toMatchObject({
      success: true,
      data: expect.arrayContaining(['hunyuan-lite', 'hunyuan-embedding']),
    });
    expect(fake.requests.length).toBe(before);

    const dead = await channel('hy-dead', {
      key: `1300000001|${FAKE_TENCENT_SECRET_ID}|not-the-secret`,
      modelMapping: { 'hy-dead': 'hunyuan-lite' },
    });
    const failed = await test(dead);
    expect(failed.success).toBe(false);
    expect(failed.message).toContain('AuthFailure.SignatureFailure');

    const p = await payer(h);
    const err = await failedChat(h, p.key, 'hy-dead');
    expect(err).toMatchObject({ status: 401 });
    expect(await channelStatus(h, dead)).toBe(ChannelStatus.AutoDisabled);
    expect(await p.charges()).toEqual([]);
  });
});
