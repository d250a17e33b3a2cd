/*
 * Conformance: the Anthropic Messages door (`@anthropic-ai/sdk`: messages.create, messages.stream,
 * messages.countTokens) against every upstream dialect. See matrix.ts and harness.ts.
 */
import Anthropic from '@anthropic-ai/sdk';
import type {
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  RawMessageStreamEvent,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import { expect } from 'vitest';
import { fakeNativePrompt } from '../../scripts/fake-upstream/native-http.ts';
import {
  CALL_ARGS,
  expectBilled,
  expectToolOffered,
  expectToolResultSent,
  expectUnbilled,
  expectUpstreamError,
  FOLLOW_UP,
  FORECAST_SCHEMA,
  PNG_BASE64,
  QUESTION,
  SYSTEM_BLOCKS,
  TOOL_ERROR,
  TOOL_RESULT,
  WEATHER,
} from './checks.ts';
import { anthropicServerToolCases } from './client-tools-cases.ts';
import { type Cell, conformanceSuite } from './harness.ts';
import { promptCacheCases } from './prompt-cache-cases.ts';
import { spellingCases } from './reasoning-spelling-cases.ts';
import {
  ANSWER,
  ANSWER_TOKENS,
  answersReasoningText,
  expectImageReached,
  expectReasoningAsked,
  expectSignaturesCarried,
  expectStructuredAsked,
  expectSystemKeptApart,
  expectToolErrorSent,
  upstreamPromptTokens,
} from './upstreams.ts';

const client = (c: Cell) => new Anthropic({ apiKey: c.key, baseURL: c.g.origin, maxRetries: 0 });
const SYSTEM = 'You are a weather assistant.';
const tools: Tool[] = [
  {
    name: WEATHER.name,
    description: WEATHER.description,
    input_schema: WEATHER.parameters as unknown as Tool['input_schema'],
  },
];
const image = {
  type: 'image' as const,
  source: { type: 'base64' as const, media_type: 'image/png' as const, data: PNG_BASE64 },
};

const textOf = (m: Message) =>
  m.content
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('');

function expectAnswer(m: Message) {
  expect(m).toMatchObject({ type: 'message', role: 'assistant', stop_reason: 'end_turn' });
  expect(textOf(m)).toBe(ANSWER);
}

function expectCall(m: Message) {
  expect(m.stop_reason).toBe('tool_use');
  const uses = m.content.filter((b) => b.type === 'tool_use');
  expect(uses).toHaveLength(1);
  expect(uses[0]).toMatchObject({ name: 'get_weather', input: CALL_ARGS });
  expect(uses[0].id).toMatch(/^[a-zA-Z0-9_-]+$/);
  return uses[0];
}

/** call -> tool_result -> answer -> follow-up -> call again, echoing each answer's content as returned. */
async function toolLoop(c: Cell, extra: Partial<MessageCreateParamsNonStreaming>, role: 'plain' | 'thinking') {
  const sdk = client(c);
  const base = { model: c.model(role), max_tokens: 200, system: SYSTEM, tools, ...extra };
  const messages: MessageParam[] = [{ role: 'user', content: QUESTION }];
  const m1 = await sdk.messages.create({ ...base, messages });
  const use = expectCall(m1);
  messages.push(
    { role: 'assistant', content: m1.content },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: TOOL_RESULT }] },
  );
  const m2 = await sdk.messages.create({ ...base, messages });
  expectAnswer(m2);
  messages.push({ role: 'assistant', content: m2.content }, { role: 'user', content: FOLLOW_UP });
  const m3 = await sdk.messages.create({ ...base, messages });
  expectCall(m3);
  const sent = c.sent();
  expect(sent).toHaveLength(3);
  expectToolResultSent(sent[1]);
  expectToolResultSent(sent[2]);
  return { sent, m1 };
}

conformanceSuite('anthropic', {
  ...promptCacheCases('anthropic'),
  ...spellingCases('anthropic'),
  ...anthropicServerToolCases,
  async text(c) {
    const m = await client(c).messages.create({
      model: c.model(),
      max_tokens: 50,
      system: SYSTEM,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expectAnswer(m);
  },

  async stream(c) {
    const s = client(c).messages.stream({
      model: c.model(),
      max_tokens: 50,
      system: SYSTEM,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const events: RawMessageStreamEvent[] = [];
    s.on('streamEvent', (e) => events.push(e));
    const m = await s.finalMessage();
    expectAnswer(m);
    expect(m.usage.output_tokens).toBe(ANSWER_TOKENS);
    // Claude Code shows the context size from message_start: it must not be 0.
    const start = events.find((e) => e.type === 'message_start');
    expect(start?.type === 'message_start' && start.message.usage.input_tokens).toBeGreaterThan(0);
    expect(events.at(-1)?.type).toBe('message_stop');
  },

  async 'tool-call'(c) {
    const m = await client(c).messages.create({
      model: c.model(),
      max_tokens: 200,
      system: SYSTEM,
      tools,
      messages: [{ role: 'user', content: QUESTION }],
    });
    expectCall(m);
    expectToolOffered(c.last());
  },

  async 'stream-tool-call'(c) {
    const m = await client(c)
      .messages.stream({
        model: c.model(),
        max_tokens: 200,
        system: SYSTEM,
        tools,
        messages: [{ role: 'user', content: QUESTION }],
      })
      .finalMessage();
    expectCall(m);
    expectToolOffered(c.last());
  },

  async 'tool-round-trip'(c) {
    await toolLoop(c, {}, 'plain');
  },

  async 'thinking-tool-loop'(c) {
    const { sent, m1 } = await toolLoop(
      c,
      { max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 } },
      'thinking',
    );
    expectReasoningAsked(c.upstream, sent[0]);
    if (answersReasoningText(c.upstream)) expect(m1.content[0].type).toBe('thinking');
    expectSignaturesCarried(c.upstream, sent[1]);
  },

  async 'usage-billing'(c) {
    const sdk = client(c);
    const body = {
      model: c.model(),
      max_tokens: 50,
      system: SYSTEM,
      messages: [{ role: 'user' as const, content: 'hi' }],
    };
    const m = await sdk.messages.create(body);
    const s = await sdk.messages.stream({ ...body, messages: [{ role: 'user', content: 'hello' }] }).finalMessage();
    const [a, b] = c.sent();
    expect(m.usage).toMatchObject({ input_tokens: upstreamPromptTokens(c.upstream, a), output_tokens: ANSWER_TOKENS });
    expect(s.usage).toMatchObject({ input_tokens: upstreamPromptTokens(c.upstream, b), output_tokens: ANSWER_TOKENS });
    await expectBilled(c, [
      { prompt: m.usage.input_tokens, completion: m.usage.output_tokens },
      { prompt: s.usage.input_tokens, completion: s.usage.output_tokens },
    ]);
  },

  async 'image-in'(c) {
    const m = await client(c).messages.create({
      model: c.model(),
      max_tokens: 50,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }, image] }],
    });
    expectAnswer(m);
    expectImageReached(c.last(), PNG_BASE64);
  },

  async 'image-in-tool-result'(c) {
    const sdk = client(c);
    const base = { model: c.model(), max_tokens: 200, system: SYSTEM, tools };
    const messages: MessageParam[] = [{ role: 'user', content: QUESTION }];
    const m1 = await sdk.messages.create({ ...base, messages });
    const use = expectCall(m1);
    messages.push(
      { role: 'assistant', content: m1.content },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: use.id, content: [{ type: 'text', text: TOOL_RESULT }, image] }],
      },
    );
    expectAnswer(await sdk.messages.create({ ...base, messages }));
    expectToolResultSent(c.last());
    expectImageReached(c.last(), PNG_BASE64);
  },

  async 'tool-error'(c) {
    const sdk = client(c);
    const base = { model: c.model(), max_tokens: 200, system: SYSTEM, tools };
    const messages: MessageParam[] = [{ role: 'user', content: QUESTION }];
    const m1 = await sdk.messages.create({ ...base, messages });
    const use = expectCall(m1);
    messages.push(
      { role: 'assistant', content: m1.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: TOOL_ERROR, is_error: true }] },
    );
    expectAnswer(await sdk.messages.create({ ...base, messages }));
    expectToolErrorSent(c.upstream, c.last(), TOOL_ERROR);
  },

  async 'system-blocks'(c) {
    // Claude Code's shape: the product's prompt, then the project's with a cache breakpoint.
    const m = await client(c).messages.create({
      model: c.model(),
      max_tokens: 50,
      system: [
        { type: 'text', text: SYSTEM_BLOCKS[0] },
        { type: 'text', text: SYSTEM_BLOCKS[1], cache_control: { type: 'ephemeral' } },
      ],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expectAnswer(m);
    expectSystemKeptApart(c.upstream, c.last(), SYSTEM_BLOCKS);
  },

  async reasoning(c) {
    const sdk = client(c);
    const body = {
      model: c.model('thinking'),
      max_tokens: 8192,
      thinking: { type: 'enabled' as const, budget_tokens: 4096 },
      messages: [{ role: 'user' as const, content: 'Why is the sky blue?' }],
    };
    const shows = answersReasoningText(c.upstream);
    for (const m of [await sdk.messages.create(body), await sdk.messages.stream(body).finalMessage()]) {
      expectAnswer(m);
      expectReasoningAsked(c.upstream, c.last());
      if (!shows) continue;
      const thinking = m.content[0];
      expect(thinking.type, 'a thinking block first').toBe('thinking');
      if (thinking.type !== 'thinking') continue;
      expect(thinking.thinking).toMatch(/\S/);
      expect(typeof thinking.signature).toBe('string');
    }
  },

  async 'structured-output'(c) {
    const m = await client(c).messages.create({
      model: c.model(),
      max_tokens: 200,
      messages: [{ role: 'user', content: 'Forecast for Paris as JSON.' }],
      output_config: { format: { type: 'json_schema', schema: FORECAST_SCHEMA } },
    });
    const { forcedTool } = expectStructuredAsked(c.upstream, c.last());
    expect(m.stop_reason).toBe('end_turn');
    expect(m.content.map((b) => b.type)).toEqual(['text']);
    expect(textOf(m)).toMatch(/\S/);
    if (forcedTool) expect(JSON.parse(textOf(m))).toMatchObject(CALL_ARGS);
  },

  async 'upstream-error'(c) {
    await expectUpstreamError(c, () =>
      client(c).messages.create({
        model: c.model('error'),
        max_tokens: 50,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
  },

  async 'count-tokens'(c) {
    const body = {
      model: c.model(),
      system: SYSTEM,
      tools,
      messages: [{ role: 'user' as const, content: QUESTION }],
    };
    const r = await client(c).messages.countTokens(body);
    expect(r.input_tokens).toBeGreaterThan(0);
    if (c.upstream === 'anthropic') {
      const counted = c.all().filter((x) => x.path === '/v1/messages/count_tokens');
      expect(counted, "the Anthropic channel's own count endpoint").toHaveLength(1);
      expect(r.input_tokens).toBe(fakeNativePrompt(counted[0].body.messages, counted[0].body.system));
    }
    expect(c.sent(), 'no generation upstream').toEqual([]);
    await expectUnbilled(c);
  },
});
