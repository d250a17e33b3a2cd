import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateOpenAI } from '../../../../scripts/fake-upstream/strict/index.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { parseRelayBody } from '../../schemas.ts';
import { payer, PNG_1PX } from '../../../../test/provider-fixtures.ts';

/*
 * The internal form rendered for OpenAI and OpenAI-compatible upstreams (docs/conversion.md § OpenAI),
 * through the official SDKs: a Claude Code request mapped to an OpenAI reasoning model, reasoning
 * from an OpenRouter-style vendor shown as thinking to an Anthropic client, and the plain OpenAI
 * body still relayed byte for byte. What the upstream received is also run through the strict
 * OpenAI validator of the conformance suite (the 400 OpenAI itself would answer).
 */

let h: RelayHarness;
const models = ['cc-o3', 'cc-gpt5', 'or-think', 'gpt-4o', 'o4-mini'];

beforeAll(async () => {
  h = await startRelayHarness();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, 1]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, 4]))),
  });
  await insertChannel(h.deps, {
    type: 1,
    baseUrl: h.fake.url,
    models: ['cc-o3', 'cc-gpt5', 'gpt-4o', 'o4-mini'],
    modelMapping: { 'cc-o3': 'o3', 'cc-gpt5': 'gpt-5' },
  });
  await insertChannel(h.deps, {
    type: 20,
    baseUrl: h.fake.url,
    models: ['or-think'],
    modelMapping: { 'or-think': 'deepseek/deepseek-r1+or-reasoning-3+chunks-2' },
  });
});
afterAll(async () => {
  await h.close();
});

const anthropic = (key: string) =>
  new Anthropic({ apiKey: key, baseURL: h.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
const ephemeral = { type: 'ephemeral' as const };
const lastSent = () => h.fake.requests.at(-1)!;
const strictVerdict = (body: Record<string, unknown>) => validateOpenAI('/v1/chat/completions', {}, body);

/** A turn of Claude Code after two tool calls: a screenshot (an image) and a failed read (is_error). */
function claudeCodeTurn(model: string) {
  return {
    model,
    max_tokens: 32000,
    system: [
      {
        type: 'text' as const,
        text: "You are Claude Code, Anthropic's official CLI for Claude.",
        cache_control: ephemeral,
      },
      { type: 'text' as const, text: 'Use the tools available.', cache_control: ephemeral },
    ],
    thinking: { type: 'enabled' as const, budget_tokens: 31999 },
    temperature: 1,
    metadata: { user_id: 'user_abc_account__session_1' },
    tools: [
      {
        name: 'Screenshot',
        description: 'Takes a screenshot',
        input_schema: { type: 'object' as const, properties: {} },
      },
      {
        name: 'Read',
        description: 'Reads a file',
        input_schema: {
          type: 'object' as const,
          properties: { file_path: { type: 'string' } },
          required: ['file_path'],
        },
        cache_control: ephemeral,
      },
    ],
    messages: [
      {
        role: 'user' as const,
        content: [{ type: 'text' as const, text: 'What is on my screen?', cache_control: ephemeral }],
      },
      {
        role: 'assistant' as const,
        content: [
          { type: 'thinking' as const, thinking: 'I should take a screenshot.', signature: 'EqQBCkYIBxgCKkB' },
          { type: 'tool_use' as const, id: 'toolu_01', name: 'Screenshot', input: {} },
          { type: 'tool_use' as const, id: 'toolu_02', name: 'Read', input: { file_path: '/nope' } },
        ],
      },
      {
        role: 'user' as const,
        content: [
          {
            type: 'tool_result' as const,
            tool_use_id: 'toolu_01',
            content: [
              { type: 'text' as const, text: 'Screenshot taken' },
              {
                type: 'image' as const,
                source: { type: 'base64' as const, media_type: 'image/png' as const, data: PNG_1PX.split(',')[1] },
              },
            ],
          },
          { type: 'tool_result' as const, tool_use_id: 'toolu_02', content: 'File does not exist.', is_error: true },
          { type: 'text' as const, text: 'Describe it.', cache_control: ephemeral },
        ],
      },
    ],
  };
}

describe('a Claude Code request on an OpenAI reasoning model (model_mapping to o3 / gpt-5)', () => {
  it('o3 receives what OpenAI accepts: max_completion_tokens, an effort from the budget, no extension fields, the screenshot after the tool message', async () => {
    const p = await payer(h);
    // Claude Code streams (and the SDK insists on it for 32,000 tokens).
    const m = await anthropic(p.key).messages.stream(claudeCodeTurn('cc-o3')).finalMessage();
    expect(m.content).toEqual([{ type: 'text', text: 'w0 w1 w2 w3 w4 ' }]);

    const sent = lastSent().body;
    expect(strictVerdict(sent)).toBeNull();
    expect(sent.model).toBe('o3');
    expect(sent.max_completion_tokens).toBe(32000);
    expect(sent).not.toHaveProperty('max_tokens');
    expect(sent.temperature).toBe(1); // the one value o3 takes
    expect(sent.reasoning_effort).toBe('high'); // 31,999 tokens of budget (canonical/reasoning.ts)
    expect(JSON.stringify(sent)).not.toMatch(
      /cache_control|thinking_blocks|thought_signature|is_error|reasoning_content|budget_tokens|"reasoning"|top_k/,
    );
    expect(sent.messages).toEqual([
      {
        role: 'system',
        content: "You are Claude Code, Anthropic's official CLI for Claude.\n\nUse the tools available.",
      },
      { role: 'user', content: 'What is on my screen?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'toolu_01', type: 'function', function: { name: 'Screenshot', arguments: '{}' } },
          { id: 'toolu_02', type: 'function', function: { name: 'Read', arguments: '{"file_path":"/nope"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_01', content: 'Screenshot taken\n(image attached below)' },
      { role: 'tool', tool_call_id: 'toolu_02', content: 'Error: File does not exist.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Attached by the tool result toolu_01:' },
          { type: 'image_url', image_url: { url: PNG_1PX } },
        ],
      },
      { role: 'user', content: 'Describe it.' },
    ]);
  });

  it('gpt-5, not streamed: a temperature other than 1 and stop sequences are left out', async () => {
    const p = await payer(h);
    const { thinking: _, ...noThinking } = claudeCodeTurn('cc-gpt5');
    // (This SDK's types no longer list `temperature`; Claude Code and older SDKs still send it.)
    const params = { ...noThinking, max_tokens: 4096, temperature: 0.3, stop_sequences: ['\n\nHuman:'] };
    const final = await anthropic(p.key).messages.create(params);
    expect(final.content).toEqual([{ type: 'text', text: 'w0 w1 w2 w3 w4 ' }]);
    expect(final.usage.output_tokens).toBe(5);
    const sent = lastSent().body;
    expect(strictVerdict(sent)).toBeNull();
    expect(sent).toMatchObject({ model: 'gpt-5', max_completion_tokens: 4096 });
    expect(sent).not.toHaveProperty('temperature');
    expect(sent).not.toHaveProperty('stop'); // GPT-5 refuses stop sequences
    expect(sent).not.toHaveProperty('reasoning_effort'); // no thinking asked: the model's default
  });

  it('an OpenAI client picking o4-mini with max_tokens and a temperature is accepted too', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'o4-mini',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 50,
      temperature: 0.2,
      reasoning_effort: 'minimal',
    });
    expect(r.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    const sent = lastSent().body;
    expect(strictVerdict(sent)).toBeNull();
    expect(sent).toEqual({
      model: 'o4-mini',
      messages: [{ role: 'user', content: 'hi' }],
      max_completion_tokens: 50,
      reasoning_effort: 'low', // o-series models know no "minimal"
    });
  });
});

describe('reasoning from an OpenRouter-style vendor reaches an Anthropic client as thinking', () => {
  const ask = (model: string) => ({
    model,
    max_tokens: 4096,
    thinking: { type: 'enabled' as const, budget_tokens: 2048 },
    messages: [{ role: 'user' as const, content: 'Why is the sky blue?' }],
  });

  it('streamed: `delta.reasoning` becomes a thinking block before the text', async () => {
    const p = await payer(h);
    const final = await anthropic(p.key).messages.stream(ask('or-think')).finalMessage();
    expect(final.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    expect(final.content[0]).toMatchObject({ type: 'thinking', thinking: 'r0 r1 r2 ' });
    expect(final.content[1]).toMatchObject({ type: 'text', text: 'w0 w1 ' });
    // OpenRouter takes the budget in its own `reasoning` shape.
    expect(lastSent().body.reasoning).toEqual({ max_tokens: 2048 });
  });

  it('not streamed: `message.reasoning` becomes a thinking block too', async () => {
    const p = await payer(h);
    const m = await anthropic(p.key).messages.create(ask('or-think'));
    expect(m.content[0]).toMatchObject({ type: 'thinking', thinking: 'r0 r1 r2 ' });
    expect(m.content[1]).toEqual({ type: 'text', text: 'w0 w1 ' });
    // Reasoning is output: 3 reasoning + 2 content tokens.
    expect(m.usage.output_tokens).toBe(5);
  });

  it('an OpenAI client on the same channel gets the vendor answer as it came (`reasoning`)', async () => {
    const p = await payer(h);
    const r = await h
      .client(p.key)
      .chat.completions.create({ model: 'or-think', messages: [{ role: 'user', content: 'q' }] });
    expect((r.choices[0].message as { reasoning?: string }).reasoning).toBe('r0 r1 r2 ');
  });
});

describe('the plain OpenAI body stays a pass-through', () => {
  it('an OpenAI client on an OpenAI channel: the upstream receives the bytes the client sent', async () => {
    const p = await payer(h);
    const params = {
      model: 'gpt-4o',
      messages: [
        { role: 'system' as const, content: [{ type: 'text' as const, text: 'Be brief.' }] },
        {
          role: 'user' as const,
          content: [
            { type: 'text' as const, text: 'What is this?' },
            { type: 'image_url' as const, image_url: { url: PNG_1PX, detail: 'low' as const } },
          ],
        },
        {
          role: 'assistant' as const,
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function' as const, function: { name: 'look', arguments: '{}' } }],
        },
        { role: 'tool' as const, tool_call_id: 'call_1', content: [{ type: 'text' as const, text: 'a pixel' }] },
      ],
      temperature: 0.3,
      max_tokens: 20,
      seed: 7,
      prompt_cache_key: 'k1',
    };
    await h.client(p.key).chat.completions.create(params);
    const rec = lastSent();
    expect(rec.body).toEqual(params);
    // Byte for byte what the relay sent before conversion existed: the validated body (zod puts the
    // fields it reads first), nothing added, removed or re-ordered by the OpenAI adapter.
    expect(JSON.stringify(rec.body)).toBe(JSON.stringify(parseRelayBody('chat', params)));
    expect(strictVerdict(rec.body)).toBeNull();
  });
});
