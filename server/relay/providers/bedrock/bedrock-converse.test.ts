import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { FAKE_BEDROCK_SECRET } from '../../../../scripts/fake-upstream/bedrock.ts';
import { insertChannel, type RelayHarness, setOptions } from '../../../../test/relay-fixtures.ts';
import {
  anthropicClient,
  R,
  startBedrockSetup,
  streamedText,
  streamedToolCall,
  weatherTool,
} from './bedrock-fixtures.ts';
import { payer, quotaOf } from '../../../../test/provider-fixtures.ts';

let h: RelayHarness;
let fake: FakeUpstream;

beforeAll(async () => {
  ({ h, fake } = await startBedrockSetup());
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

describe('AWS Bedrock channels (type 33): other model families over Converse', () => {
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

  it("a channel's param_override is in the body Bedrock receives, and inside the signature", async () => {
    await insertChannel(h.deps, {
      type: 33,
      key: `AKIAFAKE|${FAKE_BEDROCK_SECRET}|us-east-1`,
      baseUrl: fake.url,
      models: ['nova-override'],
      modelMapping: { 'nova-override': 'amazon.nova-lite-v1:0' },
      paramOverride: { inferenceConfig: { maxTokens: 64, topP: 0.5 } },
    });
    const ratios = { ...h.deps.services.options.get('ModelRatio'), 'nova-override': R.model };
    await setOptions(h.deps, { ModelRatio: JSON.stringify(ratios) });
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'nova-override',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 10,
    });
    // The fake answers 403 to a signature that does not match the bytes it received.
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    expect(fake.requests.at(-1)!.body).toMatchObject({ inferenceConfig: { maxTokens: 64, topP: 0.5 } });
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
    const { id, args, finish } = await streamedToolCall(stream);
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
    const { text, usage } = await streamedText(h, p.key, 'llama-b-cache');
    expect(text).toBe('w0 w1 w2 w3 w4 ');
    expect(usage?.completion_tokens).toBe(5);
    const prompt = usage!.prompt_tokens - 6;
    expect(await p.charges()).toEqual([quotaOf({ prompt, completion: 5, cached: 30, creation: 6 }, R)]);
  });

  it('the Anthropic SDK on /v1/messages is converted for a non-Claude model (not sent as a Messages body)', async () => {
    const p = await payer(h);
    const m = await anthropicClient(h, p.key).messages.create({
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

  it("an Anthropic client's system blocks reach Converse as separate system blocks", async () => {
    const p = await payer(h);
    const m = await anthropicClient(h, p.key).messages.create({
      model: 'nova-b',
      max_tokens: 50,
      system: [
        { type: 'text', text: 'You are a CLI.' },
        { type: 'text', text: 'Project rules.', cache_control: { type: 'ephemeral' } },
      ],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(m.content[0]).toMatchObject({ type: 'text', text: 'w0 w1 w2 w3 w4 ' });
    expect(fake.requests.at(-1)!.body.system).toEqual([{ text: 'You are a CLI.' }, { text: 'Project rules.' }]);
  });
});
