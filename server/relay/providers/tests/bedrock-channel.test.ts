import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_BEDROCK_SECRET, startFakeBedrock } from '../../../../scripts/fake-upstream/bedrock.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { payer, quotaOf } from './fixtures.ts';

let h: RelayHarness;
let fake: FakeUpstream;
let mainChannel: number;
let badKeyChannel: number;
const R = { model: 1.5, completion: 5, cache: 0.1, creation: 1.25 };
const HAIKU = 'claude-3-5-haiku-20241022';
const models = [
  HAIKU,
  'claude-b-cache',
  'claude-b-midfail',
  'claude-b-429',
  'claude-b-403',
  'claude-b-badkey',
  'claude-b-nokey',
  'nova-b',
  'llama-b-cache',
];

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeBedrock();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.completion]))),
    CacheRatio: JSON.stringify({ 'claude-b-cache': R.cache, 'llama-b-cache': R.cache }),
    CacheCreationRatio: JSON.stringify({ 'claude-b-cache': R.creation, 'llama-b-cache': R.creation }),
    'claude.model_headers_settings': JSON.stringify({ [HAIKU]: { 'anthropic-beta': ['b1'] } }),
    AutomaticDisableChannelEnabled: 'true',
  });
  mainChannel = await insertChannel(h.deps, {
    type: 33,
    key: `AKIAFAKE|${FAKE_BEDROCK_SECRET}|us-east-1`,
    baseUrl: fake.url,
    models: models.filter((m) => m !== 'claude-b-badkey' && m !== 'claude-b-nokey'),
    modelMapping: {
      'claude-b-cache': 'anthropic.claude-b-v1:0+cache-40+cachew-12',
      'claude-b-midfail': 'anthropic.claude-b-midfail-v1:0',
      'claude-b-429': 'anthropic.claude-b-v1:0+fail-429',
      'claude-b-403': 'anthropic.claude-b-v1:0+fail-403',
      'nova-b': 'amazon.nova-lite-v1:0',
      'llama-b-cache': 'meta.llama3-70b-instruct-v1:0+cache-30+cachew-6',
    },
  });
  badKeyChannel = await insertChannel(h.deps, {
    type: 33,
    key: 'AKIAFAKE|not-the-secret|us-east-1',
    baseUrl: fake.url,
    models: ['claude-b-badkey'],
  });
  await insertChannel(h.deps, { type: 33, key: 'sk-not-aws', baseUrl: fake.url, models: ['claude-b-nokey'] });
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

/** A streamed chat with the usage chunk asked for: the text and the usage the client saw. */
async function streamedText(key: string, model: string) {
  const stream = await h.client(key).chat.completions.create({
    model,
    messages: [{ role: 'user', content: 'hello' }],
    max_tokens: 100,
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = '';
  let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
  for await (const c of stream) {
    text += c.choices[0]?.delta?.content ?? '';
    if (c.usage) usage = c.usage;
  }
  return { text, usage };
}

const anthropicClient = (key: string) =>
  new Anthropic({ apiKey: key, baseURL: h.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });

describe('AWS Bedrock channels (type 33): Anthropic models over InvokeModel, SigV4-signed', () => {
  it('OpenAI client, not streamed: model id, signed request, Bedrock body, converted answer, billing', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: HAIKU,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hello' },
      ],
      max_tokens: 100,
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    expect(r.choices[0].finish_reason).toBe('stop');
    const sent = fake.requests.at(-1)!;
    // The plain name became the Bedrock id, percent-encoded in the path (the fake checked the signature over it).
    expect(sent.path).toBe(`/model/${encodeURIComponent('anthropic.claude-3-5-haiku-20241022-v1:0')}/invoke`);
    expect(sent.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAFAKE\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=[^,]*host[^,]*, Signature=/,
    );
    expect(sent.body).toMatchObject({
      anthropic_version: 'bedrock-2023-05-31',
      system: 'Be brief.',
      max_tokens: 100,
      anthropic_beta: ['b1'],
    });
    expect(sent.body).not.toHaveProperty('model');
    expect(sent.body).not.toHaveProperty('stream');
    expect(await p.charges()).toEqual([quotaOf({ prompt: r.usage!.prompt_tokens, completion: 5 }, R)]);
  });

  it('OpenAI client, streamed over the binary event stream: text, usage chunk, cache tokens billed', async () => {
    const p = await payer(h);
    const { text, usage } = await streamedText(p.key, 'claude-b-cache');
    expect(text).toBe('w0 w1 w2 w3 w4 ');
    expect(fake.requests.at(-1)!.path).toMatch(/\/invoke-with-response-stream$/);
    expect(usage?.completion_tokens).toBe(5);
    // The client's prompt_tokens counts cache reads and writes; billing's prompt excludes the writes (relay.md §5).
    const prompt = usage!.prompt_tokens - 12;
    expect(await p.charges()).toEqual([quotaOf({ prompt, completion: 5, cached: 40, creation: 12 }, R)]);
  });

  it('streamed tool calls arrive as OpenAI tool_call deltas', async () => {
    const p = await payer(h);
    const stream = await h.client(p.key).chat.completions.create({
      model: HAIKU,
      messages: [{ role: 'user', content: 'weather in Paris?' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            parameters: { type: 'object', properties: { location: { type: 'string' } } },
          },
        },
      ],
      stream: true,
    });
    let args = '';
    let name = '';
    let finish: string | null | undefined;
    for await (const c of stream) {
      const call = c.choices[0]?.delta?.tool_calls?.[0];
      name ||= call?.function?.name ?? '';
      args += call?.function?.arguments ?? '';
      finish = c.choices[0]?.finish_reason ?? finish;
    }
    expect(name).toBe('get_weather');
    expect(JSON.parse(args)).toEqual({ location: 'Paris' });
    expect(finish).toBe('tool_calls');
  });

  it('the Anthropic SDK on /v1/messages goes through natively, streamed and not, its beta header in the body', async () => {
    const p = await payer(h);
    const c = anthropicClient(p.key);
    const m = await c.messages.create(
      { model: HAIKU, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] },
      { headers: { 'anthropic-beta': 'b2' } },
    );
    expect(m.content[0]).toMatchObject({ type: 'text', text: 'w0 w1 w2 w3 w4 ' });
    expect(m.usage.output_tokens).toBe(5);
    expect(fake.requests.at(-1)!.body.anthropic_beta).toEqual(['b1', 'b2']);

    const events: string[] = [];
    let text = '';
    const s = c.messages.stream({ model: HAIKU, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    for await (const e of s) {
      events.push(e.type);
      if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') text += e.delta.text;
    }
    expect(text).toBe('w0 w1 w2 w3 w4 ');
    expect(events[0]).toBe('message_start');
    expect(events.at(-1)).toBe('message_stop');
    const final = await s.finalMessage();
    expect(final.usage.output_tokens).toBe(5);
    const charges = await p.charges();
    expect(charges).toHaveLength(2);
    expect(charges.every((q) => q === quotaOf({ prompt: m.usage.input_tokens, completion: 5 }, R))).toBe(true);
  });

  it('the Gemini SDK streams from a Bedrock channel, converted both ways', async () => {
    const p = await payer(h);
    const ai = new GoogleGenAI({ apiKey: p.key, httpOptions: { baseUrl: h.baseURL.replace(/\/v1$/, '') } });
    let text = '';
    let output = 0;
    for await (const ch of await ai.models.generateContentStream({ model: HAIKU, contents: 'hi' })) {
      text += ch.text ?? '';
      output = ch.usageMetadata?.candidatesTokenCount ?? output;
    }
    expect(text).toBe('w0 w1 w2 w3 w4 ');
    expect(output).toBe(5);
    expect(fake.requests.at(-1)!.path).toMatch(/\/invoke-with-response-stream$/);
    expect(await p.charges()).toHaveLength(1);
  });

  it('an exception inside the stream reaches the OpenAI client as an error, and what was produced is billed', async () => {
    const p = await payer(h);
    const stream = await h.client(p.key).chat.completions.create({
      model: 'claude-b-midfail',
      messages: [{ role: 'user', content: 'hello' }],
      max_tokens: 100,
      stream: true,
    });
    let text = '';
    await expect(
      (async () => {
        for await (const c of stream) text += c.choices[0]?.delta?.content ?? '';
      })(),
    ).rejects.toThrow(/Too many tokens/);
    expect(text).toBe('w0 ');
    const [charged] = await p.charges();
    expect(charged).toBeGreaterThan(0);
  });

  it("Bedrock's errors in OpenAI terms: throttling is a 429; a wrong secret disables the channel", async () => {
    const p = await payer(h);
    const throttled = await h
      .client(p.key)
      .chat.completions.create({ model: 'claude-b-429', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: { status: number }) => e);
    expect(throttled).toMatchObject({ status: 429 });

    // A model the AWS account may not use (AccessDenied) is not a dead key: the channel stays on.
    const noAccess = await h
      .client(p.key)
      .chat.completions.create({ model: 'claude-b-403', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: { status: number; message: string }) => e);
    expect(noAccess).toMatchObject({ status: 403 });
    const status = (id: number) =>
      h.deps.db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect((await status(mainChannel)).status).toBe(1);

    const denied = await h
      .client(p.key)
      .chat.completions.create({ model: 'claude-b-badkey', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: { status: number }) => e);
    expect((denied as { status: number }).status).toBeGreaterThanOrEqual(400);
    expect((await status(badKeyChannel)).status).toBe(3);

    // A key not in AccessKeyId|SecretAccessKey|Region form never leaves the gateway; the error says what is wrong.
    const sent = fake.requests.length;
    const misconfigured = await h
      .client(p.key)
      .chat.completions.create({ model: 'claude-b-nokey', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: { status: number; message: string }) => e);
    expect(misconfigured).toMatchObject({ status: 500 });
    expect((misconfigured as { message: string }).message).toMatch(/AccessKeyId\|SecretAccessKey\|Region/);
    expect(fake.requests.length).toBe(sent);
    expect(await p.charges()).toEqual([]);
  });
});

describe('AWS Bedrock channels (type 33): other model families over Converse', () => {
  const weatherTool = {
    type: 'function' as const,
    function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
  };

  it('OpenAI client, not streamed: Converse body (system, inference config), converted answer, billing', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'nova-b',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'two' },
      ],
      max_tokens: 100,
      temperature: 0.3,
      stop: 'END',
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    expect(r.choices[0].finish_reason).toBe('stop');
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe(`/model/${encodeURIComponent('amazon.nova-lite-v1:0')}/converse`);
    expect(sent.body).toEqual({
      system: [{ text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ text: 'one' }] },
        { role: 'assistant', content: [{ text: 'ok' }] },
        { role: 'user', content: [{ text: 'two' }] },
      ],
      inferenceConfig: { maxTokens: 100, temperature: 0.3, stopSequences: ['END'] },
    });
    expect(r.usage?.completion_tokens).toBe(5);
    expect(await p.charges()).toEqual([quotaOf({ prompt: r.usage!.prompt_tokens, completion: 5 }, R)]);
  });

  it('tool calls: streamed out of Converse, and the result sent back as a toolResult turn', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const stream = await c.chat.completions.create({
      model: 'nova-b',
      messages: [{ role: 'user', content: 'weather in Paris?' }],
      tools: [weatherTool],
      tool_choice: 'required',
      stream: true,
    });
    let args = '';
    let id = '';
    let finish: string | null | undefined;
    for await (const ch of stream) {
      const call = ch.choices[0]?.delta?.tool_calls?.[0];
      id ||= call?.id ?? '';
      args += call?.function?.arguments ?? '';
      finish = ch.choices[0]?.finish_reason ?? finish;
    }
    expect(fake.requests.at(-1)!.path).toMatch(/\/converse-stream$/);
    expect(fake.requests.at(-1)!.body.toolConfig).toMatchObject({
      tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object' } } } }],
      toolChoice: { any: {} },
    });
    expect(JSON.parse(args)).toEqual({ location: 'Paris' });
    expect(finish).toBe('tool_calls');

    const r = await c.chat.completions.create({
      model: 'nova-b',
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id, type: 'function', function: { name: 'get_weather', arguments: args } }],
        },
        { role: 'tool', tool_call_id: id, content: 'Sunny, 21°C' },
      ],
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    const turns = fake.requests.at(-1)!.body.messages as { role: string; content: object[] }[];
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user']);
    expect(turns[1].content).toEqual([
      { toolUse: { toolUseId: id, name: 'get_weather', input: { location: 'Paris' } } },
    ]);
    expect(turns[2].content).toEqual([{ toolResult: { toolUseId: id, content: [{ text: 'Sunny, 21°C' }] } }]);
    expect(await p.charges()).toHaveLength(2);
  });

  it('streamed text with the usage chunk; cache reads and writes billed at their ratios', async () => {
    const p = await payer(h);
    const { text, usage } = await streamedText(p.key, 'llama-b-cache');
    expect(text).toBe('w0 w1 w2 w3 w4 ');
    expect(usage?.completion_tokens).toBe(5);
    const prompt = usage!.prompt_tokens - 6;
    expect(await p.charges()).toEqual([quotaOf({ prompt, completion: 5, cached: 30, creation: 6 }, R)]);
  });

  it('the Anthropic SDK on /v1/messages is converted for a non-Claude model (not sent as a Messages body)', async () => {
    const p = await payer(h);
    const m = await anthropicClient(p.key).messages.create({
      model: 'nova-b',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(m.content[0]).toMatchObject({ type: 'text', text: 'w0 w1 w2 w3 w4 ' });
    expect(m.usage.output_tokens).toBe(5);
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toMatch(/\/converse$/);
    expect(sent.body).not.toHaveProperty('anthropic_version');
    expect(await p.charges()).toHaveLength(1);
  });
});
