import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { type Content, GoogleGenAI } from '@google/genai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_REASONING_ENCRYPTED, FAKE_REASONING_SIGNATURE } from '../../../../scripts/fake-upstream/behaviour.ts';
import { validateOpenAI } from '../../../../scripts/fake-upstream/strict/index.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';
import { payer } from '../../../../test/provider-fixtures.ts';

/*
 * OpenRouter's `reasoning_details` (docs/conversion.md § Reasoning), beyond the text the
 * conformance cases check: what they hold besides the text (the signature, an encrypted block) goes
 * back to the upstream with the tool calls of the turn when a client of another dialect returns
 * them; OpenAI itself never receives them; the channel option that shows reasoning as <think> text
 * and billing read the text once. The fake answers `details-reasoning-<n>`: `reasoning` and
 * `reasoning_details` together, as OpenRouter does (scripts/fake-upstream/behaviour.ts).
 */

let h: RelayHarness;
const THOUGHTS = 'r0 r1 r2 ';
const models = ['or-details', 'or-string', 'or-details-ttc', 'gpt-4o'];

beforeAll(async () => {
  h = await startRelayHarness();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, 1]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, 1]))),
  });
  await insertChannel(h.deps, {
    type: 20, // OpenRouter
    baseUrl: h.fake.url,
    models: ['or-details', 'or-string'],
    modelMapping: {
      'or-details': 'anthropic/claude-sonnet-4.5+details-reasoning-3+chunks-2+no-usage',
      'or-string': 'anthropic/claude-sonnet-4.5+or-reasoning-3+chunks-2+no-usage',
    },
  });
  await insertChannel(h.deps, {
    type: 20,
    baseUrl: h.fake.url,
    models: ['or-details-ttc'],
    modelMapping: { 'or-details-ttc': 'anthropic/claude-sonnet-4.5+details-reasoning-3+chunks-2' },
    setting: { thinking_to_content: true },
  });
  await insertChannel(h.deps, { type: 1, baseUrl: h.fake.url, models: ['gpt-4o'] });
});
afterAll(async () => {
  await h.close();
});

const lastSent = () => h.fake.requests.at(-1)!;
const anthropic = (key: string) =>
  new Anthropic({ apiKey: key, baseURL: h.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
const tools: Tool[] = [
  { name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: {} } },
];

/** The whole items the fake answered (streamed, its fragments merged back into them). */
const ANSWERED_DETAILS = [
  {
    type: 'reasoning.text',
    text: THOUGHTS,
    signature: FAKE_REASONING_SIGNATURE,
    format: 'anthropic-claude-v1',
    index: 0,
  },
  { type: 'reasoning.encrypted', data: FAKE_REASONING_ENCRYPTED, format: 'anthropic-claude-v1', index: 1 },
];

describe('an Anthropic client in a tool loop on OpenRouter', () => {
  for (const stream of [false, true])
    it(`gets the thinking once, and OpenRouter gets its reasoning_details back with the call (${stream ? 'streamed' : 'JSON'})`, async () => {
      const p = await payer(h);
      const sdk = anthropic(p.key);
      const base = {
        model: 'or-details',
        max_tokens: 4096,
        tools,
        thinking: { type: 'enabled' as const, budget_tokens: 2048 },
      };
      const messages: MessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
      const m1 = stream
        ? await sdk.messages.stream({ ...base, messages }).finalMessage()
        : await sdk.messages.create({ ...base, messages });
      expect(m1.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
      expect(m1.content[0]).toMatchObject({ thinking: THOUGHTS });
      const use = m1.content[1];
      if (use.type !== 'tool_use') throw new Error('no tool call');
      messages.push(
        { role: 'assistant', content: m1.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'Sunny.' }] },
      );
      await sdk.messages.create({ ...base, messages });
      const turn = (lastSent().body.messages as Record<string, unknown>[]).find((x) => x.role === 'assistant')!;
      expect(turn.tool_calls).toEqual([expect.objectContaining({ id: use.id })]);
      expect(turn.reasoning_details).toEqual(ANSWERED_DETAILS);
      // The details hold the text: it is not sent a second time.
      expect(turn).not.toHaveProperty('reasoning_content');
      expect(turn).not.toHaveProperty('reasoning');
    });

  it('another user returning the same call id gets nothing of it', async () => {
    const owner = await payer(h);
    const other = await payer(h);
    const base = { model: 'or-details', max_tokens: 4096, tools };
    const m1 = await anthropic(owner.key).messages.create({ ...base, messages: [{ role: 'user', content: 'q' }] });
    const use = m1.content.find((b) => b.type === 'tool_use')!;
    await anthropic(other.key).messages.create({
      ...base,
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [use] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'Sunny.' }] },
      ],
    });
    const turn = (lastSent().body.messages as Record<string, unknown>[]).find((x) => x.role === 'assistant')!;
    expect(turn).not.toHaveProperty('reasoning_details');
  });
});

describe('Gemini and Responses clients in a tool loop on OpenRouter', () => {
  const assistantTurn = () =>
    (lastSent().body.messages as Record<string, unknown>[]).find((x) => x.role === 'assistant')!;
  const functionTool = { type: 'object', properties: {} };

  it('a Gemini client: the details go back with the functionCall it echoes', async () => {
    const p = await payer(h);
    const ai = new GoogleGenAI({ apiKey: p.key, httpOptions: { baseUrl: h.baseURL.replace(/\/v1$/, '') } });
    const config = { tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: functionTool }] }] };
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }];
    const r1 = await ai.models.generateContent({ model: 'or-details', contents, config });
    const call = r1.functionCalls![0];
    contents.push(r1.candidates![0].content!, {
      role: 'user',
      parts: [{ functionResponse: { id: call.id, name: call.name, response: { output: 'Sunny.' } } }],
    });
    await ai.models.generateContent({ model: 'or-details', contents, config });
    expect(assistantTurn().reasoning_details).toEqual(ANSWERED_DETAILS);
    expect(assistantTurn()).not.toHaveProperty('reasoning_content');
  });

  it('a Responses client (stateless, as Codex sends it): the same with the call it echoes', async () => {
    const p = await payer(h);
    const sdk = h.client(p.key);
    const base = {
      model: 'or-details',
      store: false,
      tools: [{ type: 'function' as const, name: 'get_weather', parameters: functionTool, strict: false }],
    };
    const input: ResponseInputItem[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const r1 = await sdk.responses.create({ ...base, input });
    const call = r1.output.find((i) => i.type === 'function_call')!;
    input.push(...(r1.output as ResponseInputItem[]), {
      type: 'function_call_output',
      call_id: call.call_id,
      output: 'Sunny.',
    });
    await sdk.responses.create({ ...base, input });
    expect(assistantTurn().reasoning_details).toEqual(ANSWERED_DETAILS);
    expect(assistantTurn()).not.toHaveProperty('reasoning_content');
  });
});

describe('an OpenAI chat client', () => {
  const history = [
    { role: 'user' as const, content: 'Weather in Paris?' },
    {
      role: 'assistant' as const,
      content: null,
      reasoning: THOUGHTS,
      reasoning_details: ANSWERED_DETAILS,
      tool_calls: [{ id: 'call_1', type: 'function' as const, function: { name: 'get_weather', arguments: '{}' } }],
    },
    { role: 'tool' as const, tool_call_id: 'call_1', content: 'Sunny.' },
  ];

  it("sends OpenRouter its reasoning history as it wrote it, and OpenAI none of it (which OpenAI's 400 would refuse)", async () => {
    const p = await payer(h);
    await h.client(p.key).chat.completions.create({ model: 'or-string', messages: history as never });
    expect((lastSent().body.messages as unknown[])[1]).toEqual(history[1]);
    await h.client(p.key).chat.completions.create({ model: 'gpt-4o', messages: history as never });
    const sent = lastSent().body;
    expect((sent.messages as unknown[])[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: history[1].tool_calls,
    });
    expect(validateOpenAI('/v1/chat/completions', {}, sent)).toBeNull();
  });

  it("sees OpenRouter's two spellings as one <think> text on a thinking_to_content channel, JSON and streamed", async () => {
    const p = await payer(h);
    const messages = [{ role: 'user' as const, content: 'Why?' }];
    const r = await h.client(p.key).chat.completions.create({ model: 'or-details-ttc', messages });
    expect(r.choices[0].message).toEqual({ role: 'assistant', content: `<think>\n${THOUGHTS}\n</think>\n\nw0 w1 ` });
    let text = '';
    for await (const c of await h
      .client(p.key)
      .chat.completions.create({ model: 'or-details-ttc', messages, stream: true })) {
      const d = c.choices[0]?.delta as Record<string, unknown> | undefined;
      expect(d ?? {}).not.toHaveProperty('reasoning_details');
      text += typeof d?.content === 'string' ? d.content : '';
    }
    expect(text).toBe(`<think>\n${THOUGHTS}\n</think>\n\nw0 w1 `);
  });

  it('is billed for the reasoning once: without upstream usage, both spellings cost what `reasoning` alone does', async () => {
    const details = await payer(h);
    const plain = await payer(h);
    const messages = [{ role: 'user' as const, content: 'Why?' }];
    for (const [p, model] of [
      [details, 'or-details'],
      [plain, 'or-string'],
    ] as const) {
      await h.client(p.key).chat.completions.create({ model, messages });
      for await (const _ of await h.client(p.key).chat.completions.create({ model, messages, stream: true }));
    }
    const rows = async (x: typeof plain) =>
      (await x.logs()).map((l) => [l.is_stream, l.completion_tokens, l.quota]).sort();
    expect(await rows(details)).toEqual(await rows(plain));
  });
});
