import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import type { RelayHarness } from '../../../../test/relay-fixtures.ts';
import {
  anthropicClient,
  HAIKU,
  R,
  startBedrockSetup,
  streamedText,
  streamedToolCall,
  weatherTool,
} from './bedrock-fixtures.ts';
import { payer, quotaOf } from '../../../../test/provider-fixtures.ts';

let h: RelayHarness;
let fake: FakeUpstream;
let mainChannel: number;
let badKeyChannel: number;

beforeAll(async () => {
  ({ h, fake, mainChannel, badKeyChannel } = await startBedrockSetup());
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

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

  it('automatic cache breakpoints reach InvokeModel only on a channel whose settings turn them on', async () => {
    const p = await payer(h);
    const messages = [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: 'hello' },
    ];
    await h.client(p.key).chat.completions.create({ model: 'claude-b-auto', messages, max_tokens: 100 });
    const cc = { type: 'ephemeral' };
    expect(fake.requests.at(-1)!.body).toMatchObject({
      system: [{ type: 'text', text: 'Be brief.', cache_control: cc }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello', cache_control: cc }] }],
    });
    await h.client(p.key).chat.completions.create({ model: HAIKU, messages, max_tokens: 100 });
    expect(JSON.stringify(fake.requests.at(-1)!.body)).not.toContain('cache_control');
  });

  it('OpenAI client, streamed over the binary event stream: text, usage chunk, cache tokens billed', async () => {
    const p = await payer(h);
    const { text, usage } = await streamedText(h, p.key, 'claude-b-cache');
    expect(text).toBe('w0 w1 w2 w3 w4 ');
    expect(fake.requests.at(-1)!.path).toMatch(/\/invoke-with-response-stream$/);
    expect(usage?.completion_tokens).toBe(5);
    // The client's prompt_tokens counts cache reads and writes; billing's prompt excludes the writes (relay.md §5).
    const prompt = usage!.prompt_tokens - 12;
    expect(await p.charges()).toEqual([quotaOf({ prompt, completion: 5, cached: 40, creation: 12 }, R)]);
  });

  it('streamed tool calls arrive as OpenAI tool_call deltas', async () => {
    const p = await payer(h);
    const { name, args, finish } = await streamedToolCall(
      await h.client(p.key).chat.completions.create({
        model: HAIKU,
        messages: [{ role: 'user', content: 'weather in Paris?' }],
        tools: [weatherTool],
        stream: true,
      }),
    );
    expect(name).toBe('get_weather');
    expect(JSON.parse(args)).toEqual({ location: 'Paris' });
    expect(finish).toBe('tool_calls');
  });

  it('the Anthropic SDK on /v1/messages goes through natively, streamed and not, its beta header in the body', async () => {
    const p = await payer(h);
    const c = anthropicClient(h, p.key);
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
