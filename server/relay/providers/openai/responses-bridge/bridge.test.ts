import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStrictUpstream } from '../../../../../scripts/fake-upstream/strict/index.ts';
import type { FakeUpstream } from '../../../../../scripts/fake-upstream/server.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../../test/relay-fixtures.ts';
import { ascending, payer, quotaOf } from '../../../../../test/provider-fixtures.ts';

/*
 * The reverse bridge: chat-completions clients (and, through the canonical form, Anthropic
 * clients) on a model that only answers on OpenAI's Responses API. The OpenAI fake is strict: it
 * answers /v1/responses only with a body the real API accepts.
 */

let h: RelayHarness;
let openai: FakeUpstream;
const R = { model: 3, completion: 4 };
const models = ['codex-m', 'pro-m', 'vendor-resp', 'gpt-plain'];

beforeAll(async () => {
  h = await startRelayHarness();
  openai = await startStrictUpstream('openai');
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.model]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(models.map((m) => [m, R.completion]))),
  });
  await insertChannel(h.deps, {
    type: 1,
    baseUrl: openai.url,
    models: ['codex-m', 'pro-m', 'gpt-plain'],
    modelMapping: { 'codex-m': 'gpt-5-codex', 'pro-m': 'o3-pro', 'gpt-plain': 'gpt-4o' },
  });
  // An OpenAI-compatible vendor serving only the Responses API, said so in the channel's settings.
  await insertChannel(h.deps, {
    type: 8,
    baseUrl: openai.url,
    models: ['vendor-resp'],
    setting: { responses_only: true },
  });
});
afterAll(async () => {
  await h.close();
  await openai.close();
});

const WORDS = 'w0 w1 w2 w3 w4 ';
const sent = () => openai.requests.at(-1)!;
const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather',
    parameters: { type: 'object', properties: { location: { type: 'string' } } },
  },
};

describe('chat clients on a Responses-only model', () => {
  it('JSON: /v1/responses gets a Responses body (input items, max_output_tokens, store false); the answer is a chat completion', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'codex-m',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      max_tokens: 100,
      reasoning_effort: 'high',
      temperature: 0.2,
    });
    expect(r.object).toBe('chat.completion');
    expect(r.choices[0].message.content).toBe(WORDS);
    expect(r.choices[0].finish_reason).toBe('stop');
    expect(sent().path).toBe('/v1/responses');
    expect(sent().body).toEqual({
      model: 'gpt-5-codex',
      input: [
        { type: 'message', role: 'system', content: 'Be brief.' },
        { type: 'message', role: 'user', content: 'hi' },
      ],
      store: false,
      max_output_tokens: 100,
      reasoning: { effort: 'high' },
    });
    const u = r.usage!;
    expect(u.completion_tokens).toBe(5);
    expect(u.total_tokens).toBe(u.prompt_tokens + 5);
    expect(await p.charges()).toEqual([quotaOf({ prompt: u.prompt_tokens, completion: 5 }, R)]);
  });

  it("a reasoning model's default sampling (temperature 1, as Gemini CLI sends it) is left out: Responses refuses the field", async () => {
    const p = await payer(h);
    const r = await h.client(p.key).chat.completions.create({
      model: 'codex-m',
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 1,
      top_p: 1,
    });
    expect(r.choices[0].message.content).toBe(WORDS);
    expect(sent().path).toBe('/v1/responses');
    expect(sent().body).not.toHaveProperty('temperature');
    expect(sent().body).not.toHaveProperty('top_p');
  });

  it('stream: content deltas, the usage chunk when asked, [DONE]; billed from response.completed', async () => {
    const p = await payer(h);
    const s = await h.client(p.key).chat.completions.create({
      model: 'pro-m',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage;
    let finish;
    for await (const c of s) {
      text += c.choices[0]?.delta.content ?? '';
      finish = c.choices[0]?.finish_reason ?? finish;
      if (c.usage) usage = c.usage;
    }
    expect(text).toBe(WORDS);
    expect(finish).toBe('stop');
    expect(sent().body).toMatchObject({ model: 'o3-pro', stream: true });
    expect(sent().body).not.toHaveProperty('stream_options');
    expect(usage).toMatchObject({ completion_tokens: 5 });
    expect(await p.charges()).toEqual([quotaOf({ prompt: usage!.prompt_tokens, completion: 5 }, R)]);
  });

  it('tool calls both ways (JSON and stream), and the tool result round trip as function_call_output', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const messages = [{ role: 'user' as const, content: 'Weather in Paris?' }];
    const r = await c.chat.completions.create({ model: 'codex-m', messages, tools: [weather] });
    expect(r.choices[0].finish_reason).toBe('tool_calls');
    expect(r.choices[0].message.tool_calls).toEqual([
      { id: 'call_fake1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } },
    ]);
    // Chat tools are lax unless they say strict; Responses tools are strict unless told otherwise.
    expect(sent().body.tools).toEqual([{ ...weather.function, type: 'function', strict: false }]);

    const final = await c.chat.completions
      .stream({ model: 'codex-m', messages, tools: [weather] })
      .finalChatCompletion();
    expect(final.choices[0].message.tool_calls).toMatchObject([
      { id: 'call_fake1', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } },
    ]);

    const back = await c.chat.completions.create({
      model: 'codex-m',
      tools: [weather],
      messages: [...messages, r.choices[0].message, { role: 'tool', tool_call_id: 'call_fake1', content: 'sunny' }],
    });
    expect(back.choices[0].message.content).toBe(WORDS);
    expect(sent().body.input).toEqual([
      { type: 'message', role: 'user', content: 'Weather in Paris?' },
      { type: 'function_call', call_id: 'call_fake1', name: 'get_weather', arguments: '{"location":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_fake1', output: 'sunny' },
    ]);
    expect(await p.charges()).toHaveLength(3);
  });

  it('a channel whose settings say responses_only bridges every chat request; other models stay on chat', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const r = await c.chat.completions.create({ model: 'vendor-resp', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.choices[0].message.content).toBe(WORDS);
    expect(sent().path).toBe('/v1/responses');
    await c.chat.completions.create({ model: 'gpt-plain', messages: [{ role: 'user', content: 'hi' }] });
    expect(sent().path).toBe('/v1/chat/completions');
  });

  it('an Anthropic client (Claude Code mapped to a codex model) gets its answer through the bridge', async () => {
    const p = await payer(h);
    const a = new Anthropic({ apiKey: p.key, baseURL: h.baseURL.replace(/\/v1$/, ''), maxRetries: 0 });
    const m = await a.messages
      .stream({
        model: 'codex-m',
        max_tokens: 2000,
        system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }],
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [{ role: 'user', content: 'hi' }],
      })
      .finalMessage();
    // The thinking budget became an effort, and the reasoning summary came back as thinking.
    expect(m.content).toMatchObject([
      { type: 'thinking', thinking: 'Let me think.' },
      { type: 'text', text: WORDS },
    ]);
    expect(sent().path).toBe('/v1/responses');
    expect(sent().body).toMatchObject({
      max_output_tokens: 2000,
      stream: true,
      reasoning: { effort: 'low', summary: 'auto' },
    });
    expect(JSON.stringify(sent().body)).not.toMatch(/cache_control|thinking/);
    // 5 words and 3 reasoning tokens.
    expect(m.usage.output_tokens).toBe(8);
    expect(await p.charges()).toEqual([quotaOf({ prompt: m.usage.input_tokens, completion: 8 }, R)]);
  });

  it('refuses what the Responses API cannot carry (n > 1, stop) with a clear 400', async () => {
    const p = await payer(h);
    const c = h.client(p.key);
    const messages = [{ role: 'user' as const, content: 'hi' }];
    await expect(c.chat.completions.create({ model: 'vendor-resp', messages, n: 2 })).rejects.toMatchObject({
      status: 400,
      code: 'unsupported_parameter',
      message: expect.stringMatching(/"n" cannot be sent to this model/),
    });
    await expect(c.chat.completions.create({ model: 'vendor-resp', messages, stop: ['END'] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/"stop" cannot be sent/),
    });
    expect(await p.charges()).toEqual(ascending([]));
  });
});
