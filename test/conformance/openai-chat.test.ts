/*
 * Conformance: the OpenAI Chat Completions door (`openai` SDK, chat.completions) against every
 * upstream dialect. See matrix.ts for the cases and harness.ts for how a cell is judged.
 */
import OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { expect } from 'vitest';
import {
  CALL_ARGS,
  expectBilled,
  expectHintsSent,
  expectToolOffered,
  expectToolResultSent,
  expectUpstreamError,
  FOLLOW_UP,
  FORECAST_SCHEMA,
  HINTS,
  PNG_BASE64,
  PNG_DATA_URL,
  QUESTION,
  SYSTEM_BLOCKS,
  TOOL_RESULT,
  WEATHER,
} from './checks.ts';
import { type Cell, conformanceSuite } from './harness.ts';
import { promptCacheCases } from './prompt-cache-cases.ts';
import { spellingCases } from './reasoning-spelling-cases.ts';
import {
  ANSWER,
  ANSWER_TOKENS,
  answersReasoningText,
  CANDIDATE_ANSWER,
  expectImageReached,
  expectReasoningAsked,
  expectSignaturesCarried,
  expectStructuredAsked,
  expectSystemKeptApart,
  upstreamPromptTokens,
} from './upstreams.ts';

const client = (c: Cell) => new OpenAI({ apiKey: c.key, baseURL: c.g.h.baseURL, maxRetries: 0 });
const tools: ChatCompletionTool[] = [{ type: 'function', function: { ...WEATHER } }];
const ask = (text = QUESTION): ChatCompletionMessageParam[] => [
  { role: 'system', content: 'You are a weather assistant.' },
  { role: 'user', content: text },
];

/** A chat message carries DeepSeek's `reasoning_content` when the gateway returns reasoning text. */
type WithReasoning = { reasoning_content?: string | null };

function expectCall(r: ChatCompletion) {
  const choice = r.choices[0];
  expect(choice.finish_reason).toBe('tool_calls');
  const calls = choice.message.tool_calls ?? [];
  expect(calls).toHaveLength(1);
  const call = calls[0];
  expect(call.type).toBe('function');
  if (call.type !== 'function') return call;
  expect(call.id).toBeTruthy();
  expect(call.function.name).toBe('get_weather');
  expect(JSON.parse(call.function.arguments)).toEqual(CALL_ARGS);
  return call;
}

function expectAnswer(r: ChatCompletion) {
  expect(r.choices[0].message.content).toBe(ANSWER);
  expect(r.choices[0].finish_reason).toBe('stop');
}

/** The SDK's stream helper over a streamed request; returns the assembled completion and the raw chunks. */
async function streamed(c: Cell, body: Omit<ChatCompletionCreateParamsNonStreaming, 'stream'>) {
  const s = client(c).chat.completions.stream({ ...body, stream: true });
  const chunks: ChatCompletionChunk[] = [];
  for await (const ch of s) chunks.push(ch);
  return { final: await s.finalChatCompletion(), chunks };
}

/**
 * call -> tool result -> answer -> follow-up question -> call again, echoing each answer's message as
 * the SDK returned it (what most chat clients do). Returns the upstream requests of the three turns.
 */
async function toolLoop(c: Cell, extra: Partial<ChatCompletionCreateParamsNonStreaming>, role: 'plain' | 'thinking') {
  const sdk = client(c);
  const base = { model: c.model(role), tools, ...extra };
  const messages = ask();
  const r1 = await sdk.chat.completions.create({ ...base, messages });
  const call = expectCall(r1);
  messages.push(r1.choices[0].message as ChatCompletionMessageParam);
  messages.push({ role: 'tool', tool_call_id: call.id, content: TOOL_RESULT });
  const r2 = await sdk.chat.completions.create({ ...base, messages });
  expectAnswer(r2);
  messages.push(r2.choices[0].message as ChatCompletionMessageParam, { role: 'user', content: FOLLOW_UP });
  const r3 = await sdk.chat.completions.create({ ...base, messages });
  expectCall(r3);
  const sent = c.sent();
  expect(sent).toHaveLength(3);
  expectToolResultSent(sent[1]);
  expectToolResultSent(sent[2]);
  return sent;
}

conformanceSuite('openai-chat', {
  ...promptCacheCases('openai-chat'),
  ...spellingCases('openai-chat'),
  async text(c) {
    const r = await client(c).chat.completions.create({ model: c.model(), messages: ask('hi'), max_tokens: 50 });
    expectAnswer(r);
    expect(r.object).toBe('chat.completion');
  },

  async stream(c) {
    const { final, chunks } = await streamed(c, { model: c.model(), messages: ask('hi'), max_tokens: 50 });
    expect(final.choices[0].message.content).toBe(ANSWER);
    expect(final.choices[0].finish_reason).toBe('stop');
    expect(chunks.length).toBeGreaterThan(1);
    // Usage was not asked for: no chunk of the stream carries it.
    expect(chunks.filter((ch) => ch.usage)).toEqual([]);
  },

  async 'tool-call'(c) {
    const r = await client(c).chat.completions.create({ model: c.model(), messages: ask(), tools, max_tokens: 200 });
    expectCall(r);
    expectToolOffered(c.last());
  },

  async 'stream-tool-call'(c) {
    const { final } = await streamed(c, { model: c.model(), messages: ask(), tools, max_tokens: 200 });
    expectCall(final);
    expectToolOffered(c.last());
  },

  async 'tool-round-trip'(c) {
    await toolLoop(c, { max_tokens: 200 }, 'plain');
  },

  async 'thinking-tool-loop'(c) {
    const sent = await toolLoop(c, { reasoning_effort: 'low', max_completion_tokens: 8000 }, 'thinking');
    expectReasoningAsked(c.upstream, sent[0]);
    expectSignaturesCarried(c.upstream, sent[1]);
  },

  async 'usage-billing'(c) {
    const sdk = client(c);
    const r = await sdk.chat.completions.create({ model: c.model(), messages: ask('hi'), max_tokens: 50 });
    let usage: ChatCompletionChunk['usage'] | undefined;
    for await (const ch of await sdk.chat.completions.create({
      model: c.model(),
      messages: ask('hello'),
      max_tokens: 50,
      stream: true,
      stream_options: { include_usage: true },
    }))
      if (ch.usage) usage = ch.usage;
    const [a, b] = c.sent();
    expect(r.usage).toMatchObject({
      prompt_tokens: upstreamPromptTokens(c.upstream, a),
      completion_tokens: ANSWER_TOKENS,
    });
    expect(usage).toMatchObject({
      prompt_tokens: upstreamPromptTokens(c.upstream, b),
      completion_tokens: ANSWER_TOKENS,
    });
    await expectBilled(c, [
      { prompt: r.usage!.prompt_tokens, completion: r.usage!.completion_tokens },
      { prompt: usage!.prompt_tokens, completion: usage!.completion_tokens },
    ]);
  },

  async 'image-in'(c) {
    const r = await client(c).chat.completions.create({
      model: c.model(),
      max_tokens: 50,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url: PNG_DATA_URL } },
          ],
        },
      ],
    });
    expectAnswer(r);
    expectImageReached(c.last(), PNG_BASE64);
  },

  async 'image-in-tool-result'(c) {
    const sdk = client(c);
    const messages = ask();
    const r1 = await sdk.chat.completions.create({ model: c.model(), messages, tools, max_tokens: 200 });
    const call = expectCall(r1);
    messages.push(r1.choices[0].message as ChatCompletionMessageParam, {
      role: 'tool',
      tool_call_id: call.id,
      // The canonical form's tool parts with an image (a tool that returned a weather map).
      content: [
        { type: 'text', text: TOOL_RESULT },
        { type: 'image_url', image_url: { url: PNG_DATA_URL } },
      ] as unknown as string,
    });
    const r2 = await sdk.chat.completions.create({ model: c.model(), messages, tools, max_tokens: 200 });
    expectAnswer(r2);
    expectToolResultSent(c.last());
    expectImageReached(c.last(), PNG_BASE64);
  },

  async 'system-blocks'(c) {
    const r = await client(c).chat.completions.create({
      model: c.model(),
      max_tokens: 50,
      messages: [
        { role: 'system', content: SYSTEM_BLOCKS.map((text) => ({ type: 'text' as const, text })) },
        { role: 'user', content: 'hi' },
      ],
    });
    expectAnswer(r);
    expectSystemKeptApart(c.upstream, c.last(), SYSTEM_BLOCKS);
  },

  async reasoning(c) {
    const sdk = client(c);
    const body = {
      model: c.model('thinking'),
      messages: ask('Why is the sky blue?'),
      reasoning_effort: 'high' as const,
      max_completion_tokens: 20000,
    };
    const r = await sdk.chat.completions.create(body);
    expectAnswer(r);
    expectReasoningAsked(c.upstream, c.last());
    const shows = answersReasoningText(c.upstream);
    if (shows) expect((r.choices[0].message as WithReasoning).reasoning_content).toMatch(/\S/);
    let content = '';
    let reasoning = '';
    for await (const ch of await sdk.chat.completions.create({ ...body, stream: true })) {
      const d = ch.choices[0]?.delta as (ChatCompletionChunk.Choice.Delta & WithReasoning) | undefined;
      content += d?.content ?? '';
      reasoning += d?.reasoning_content ?? '';
    }
    expect(content).toBe(ANSWER);
    expectReasoningAsked(c.upstream, c.last());
    if (shows) expect(reasoning).toMatch(/\S/);
  },

  async 'structured-output'(c) {
    const r = await client(c).chat.completions.create({
      model: c.model(),
      messages: ask('Forecast for Paris as JSON.'),
      max_tokens: 200,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'forecast', schema: FORECAST_SCHEMA, strict: true },
      },
    });
    const { forcedTool } = expectStructuredAsked(c.upstream, c.last());
    const m = r.choices[0].message;
    expect(m.tool_calls ?? []).toEqual([]);
    expect(r.choices[0].finish_reason).toBe('stop');
    expect(m.content).toMatch(/\S/);
    if (forcedTool) expect(JSON.parse(m.content!)).toMatchObject(CALL_ARGS);
  },

  async n(c) {
    const sdk = client(c);
    const body = { model: c.model(), messages: ask('hi'), max_tokens: 50, n: 2 };
    const r = await sdk.chat.completions.create(body);
    expect(r.choices.map((ch) => [ch.index, ch.message.content])).toEqual([
      [0, CANDIDATE_ANSWER],
      [1, CANDIDATE_ANSWER],
    ]);
    const texts: string[] = [];
    for await (const ch of await sdk.chat.completions.create({ ...body, stream: true }))
      for (const choice of ch.choices) texts[choice.index] = (texts[choice.index] ?? '') + (choice.delta.content ?? '');
    expect(texts).toEqual([CANDIDATE_ANSWER, CANDIDATE_ANSWER]);
    const logs = await c.payer.logs();
    expect(logs.map((l) => Number(l.completion_tokens))).toEqual([2 * ANSWER_TOKENS, 2 * ANSWER_TOKENS]);
  },

  async hints(c) {
    const r = await client(c).chat.completions.create({
      model: c.model(),
      messages: ask('hi'),
      max_tokens: 50,
      ...HINTS,
    });
    expectAnswer(r);
    expectHintsSent(c);
  },

  async 'upstream-error'(c) {
    await expectUpstreamError(c, () =>
      client(c).chat.completions.create({ model: c.model('error'), messages: ask('hi'), max_tokens: 50 }),
    );
  },
});
