/*
 * Conformance: the OpenAI Responses door (`openai` SDK, responses.create / responses.stream) against
 * every upstream dialect. The requests are stateless as Codex CLI sends them (`store: false`, the whole
 * conversation in `input`). See matrix.ts and harness.ts.
 */
import OpenAI from 'openai';
import type {
  FunctionTool,
  Response,
  ResponseCreateParamsNonStreaming,
  ResponseInputItem,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses';
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
import { responsesClientToolCases } from './client-tools-cases.ts';
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
  upstreamPromptTokens,
} from './upstreams.ts';

const client = (c: Cell) => new OpenAI({ apiKey: c.key, baseURL: c.g.h.baseURL, maxRetries: 0 });
const INSTRUCTIONS = 'You are a weather assistant.';
const tools: FunctionTool[] = [
  {
    type: 'function',
    name: WEATHER.name,
    description: WEATHER.description,
    parameters: WEATHER.parameters as unknown as Record<string, unknown>,
    strict: false,
  },
];
const user = (text: string): ResponseInputItem => ({ role: 'user', content: text });

function expectAnswer(r: Response) {
  expect(r.status).toBe('completed');
  expect(r.output_text).toBe(ANSWER);
  expect(r.output.filter((i) => i.type === 'function_call')).toEqual([]);
}

function expectCall(r: Response) {
  expect(r.status).toBe('completed');
  const calls = r.output.filter((i) => i.type === 'function_call');
  expect(calls).toHaveLength(1);
  expect(calls[0].name).toBe('get_weather');
  expect(JSON.parse(calls[0].arguments)).toEqual(CALL_ARGS);
  expect(calls[0].call_id).toBeTruthy();
  return calls[0];
}

/** The reasoning summary text of an answer. */
const summaryOf = (r: Response) =>
  r.output
    .filter((i) => i.type === 'reasoning')
    .flatMap((i) => (i.type === 'reasoning' ? i.summary.map((s) => s.text) : []))
    .join('');

async function streamed(c: Cell, body: Omit<ResponseCreateParamsNonStreaming, 'stream'>) {
  const s = client(c).responses.stream(body);
  const events: ResponseStreamEvent[] = [];
  for await (const e of s) events.push(e);
  return { final: await s.finalResponse(), types: events.map((e) => e.type), events };
}

/** The event sequence of a streamed answer, as the Responses API sends it. */
function expectTextEvents(types: string[]) {
  const order = [
    'response.created',
    'response.output_item.added',
    'response.content_part.added',
    'response.output_text.delta',
    'response.output_text.done',
    'response.content_part.done',
    'response.output_item.done',
    'response.completed',
  ];
  const at = order.map((t) => types.indexOf(t));
  expect(
    at.every((i) => i >= 0),
    `events ${types.join(', ')}`,
  ).toBe(true);
  expect(at).toEqual([...at].sort((a, b) => a - b));
  expect(types.at(-1)).toBe('response.completed');
}

/** call -> function_call_output -> answer -> follow-up -> call again, echoing each answer's output items. */
async function toolLoop(c: Cell, extra: Partial<ResponseCreateParamsNonStreaming>, role: 'plain' | 'thinking') {
  const sdk = client(c);
  const base = { model: c.model(role), instructions: INSTRUCTIONS, tools, store: false, ...extra };
  const input: ResponseInputItem[] = [user(QUESTION)];
  const r1 = await sdk.responses.create({ ...base, input });
  const call = expectCall(r1);
  input.push(...(r1.output as ResponseInputItem[]), {
    type: 'function_call_output',
    call_id: call.call_id,
    output: TOOL_RESULT,
  });
  const r2 = await sdk.responses.create({ ...base, input });
  expectAnswer(r2);
  input.push(...(r2.output as ResponseInputItem[]), user(FOLLOW_UP));
  expectCall(await sdk.responses.create({ ...base, input }));
  const sent = c.sent();
  expect(sent).toHaveLength(3);
  expectToolResultSent(sent[1]);
  expectToolResultSent(sent[2]);
  return { sent, r1 };
}

conformanceSuite('responses', {
  ...promptCacheCases('responses'),
  ...spellingCases('responses'),
  ...responsesClientToolCases,
  async text(c) {
    const r = await client(c).responses.create({
      model: c.model(),
      instructions: INSTRUCTIONS,
      input: 'hi',
      max_output_tokens: 50,
    });
    expectAnswer(r);
    expect(r.object).toBe('response');
  },

  async stream(c) {
    const { final, types } = await streamed(c, {
      model: c.model(),
      instructions: INSTRUCTIONS,
      input: 'hi',
      max_output_tokens: 50,
    });
    expectAnswer(final);
    expectTextEvents(types);
    expect(final.usage?.output_tokens).toBe(ANSWER_TOKENS);
  },

  async 'tool-call'(c) {
    expectCall(await client(c).responses.create({ model: c.model(), input: [user(QUESTION)], tools }));
    expectToolOffered(c.last());
  },

  async 'stream-tool-call'(c) {
    const { final, types } = await streamed(c, { model: c.model(), input: [user(QUESTION)], tools });
    expectCall(final);
    expect(types).toContain('response.function_call_arguments.delta');
    expect(types).toContain('response.function_call_arguments.done');
    expect(types.at(-1)).toBe('response.completed');
    expectToolOffered(c.last());
  },

  async 'tool-round-trip'(c) {
    await toolLoop(c, {}, 'plain');
  },

  async 'thinking-tool-loop'(c) {
    const { sent, r1 } = await toolLoop(
      c,
      { reasoning: { effort: 'low', summary: 'auto' }, include: ['reasoning.encrypted_content'] },
      'thinking',
    );
    expectReasoningAsked(c.upstream, sent[0]);
    if (answersReasoningText(c.upstream)) expect(summaryOf(r1)).toMatch(/\S/);
    expectSignaturesCarried(c.upstream, sent[1]);
    // Stateless reasoning with OpenAI itself (store: false): the reasoning item goes back with its
    // encrypted content. (Other upstreams' signatures are checked above, whatever carried them.)
    if (c.upstream === 'openai' && r1.output.some((i) => i.type === 'reasoning')) {
      const echoed = (sent[1].body.input as { type?: string; encrypted_content?: string }[]).find(
        (i) => i.type === 'reasoning',
      );
      expect(echoed?.encrypted_content, 'the reasoning item went back to OpenAI').toBeTruthy();
    }
  },

  async 'usage-billing'(c) {
    const sdk = client(c);
    const r = await sdk.responses.create({ model: c.model(), input: 'hi', max_output_tokens: 50 });
    const { final } = await streamed(c, { model: c.model(), input: 'hello', max_output_tokens: 50 });
    const [a, b] = c.sent();
    expect(r.usage).toMatchObject({ input_tokens: upstreamPromptTokens(c.upstream, a), output_tokens: ANSWER_TOKENS });
    expect(final.usage).toMatchObject({
      input_tokens: upstreamPromptTokens(c.upstream, b),
      output_tokens: ANSWER_TOKENS,
    });
    await expectBilled(c, [
      { prompt: r.usage!.input_tokens, completion: r.usage!.output_tokens },
      { prompt: final.usage!.input_tokens, completion: final.usage!.output_tokens },
    ]);
  },

  async 'image-in'(c) {
    const r = await client(c).responses.create({
      model: c.model(),
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is in this picture?' },
            { type: 'input_image', image_url: PNG_DATA_URL, detail: 'auto' },
          ],
        },
      ],
    });
    expectAnswer(r);
    expectImageReached(c.last(), PNG_BASE64);
  },

  async 'image-in-tool-result'(c) {
    const sdk = client(c);
    const base = { model: c.model(), tools, store: false };
    const input: ResponseInputItem[] = [user(QUESTION)];
    const r1 = await sdk.responses.create({ ...base, input });
    const call = expectCall(r1);
    input.push(...(r1.output as ResponseInputItem[]), {
      type: 'function_call_output',
      call_id: call.call_id,
      output: [
        { type: 'input_text', text: TOOL_RESULT },
        { type: 'input_image', image_url: PNG_DATA_URL, detail: 'auto' },
      ],
    });
    expectAnswer(await sdk.responses.create({ ...base, input }));
    expectToolResultSent(c.last());
    expectImageReached(c.last(), PNG_BASE64);
  },

  async 'system-blocks'(c) {
    const r = await client(c).responses.create({
      model: c.model(),
      max_output_tokens: 50,
      input: [
        { role: 'developer', content: SYSTEM_BLOCKS.map((text) => ({ type: 'input_text' as const, text })) },
        user('hi'),
      ],
    });
    expectAnswer(r);
    expectSystemKeptApart(c.upstream, c.last(), SYSTEM_BLOCKS);
  },

  async reasoning(c) {
    const body = {
      model: c.model('thinking'),
      input: 'Why is the sky blue?',
      reasoning: { effort: 'high' as const, summary: 'auto' as const },
    };
    const shows = answersReasoningText(c.upstream);
    const r = await client(c).responses.create(body);
    expectAnswer(r);
    expectReasoningAsked(c.upstream, c.last());
    if (shows) expect(summaryOf(r)).toMatch(/\S/);
    const { final, types } = await streamed(c, body);
    expectAnswer(final);
    expectReasoningAsked(c.upstream, c.last());
    if (shows) {
      expect(summaryOf(final)).toMatch(/\S/);
      expect(types).toContain('response.reasoning_summary_text.delta');
    }
  },

  async 'structured-output'(c) {
    const r = await client(c).responses.create({
      model: c.model(),
      input: 'Forecast for Paris as JSON.',
      text: { format: { type: 'json_schema', name: 'forecast', schema: FORECAST_SCHEMA, strict: true } },
    });
    const { forcedTool } = expectStructuredAsked(c.upstream, c.last());
    expect(r.status).toBe('completed');
    expect(r.output.filter((i) => i.type === 'function_call')).toEqual([]);
    expect(r.output_text).toMatch(/\S/);
    if (forcedTool) expect(JSON.parse(r.output_text)).toMatchObject(CALL_ARGS);
  },

  async hints(c) {
    const r = await client(c).responses.create({
      model: c.model(),
      input: 'hi',
      max_output_tokens: 50,
      ...HINTS,
    });
    expectAnswer(r);
    expectHintsSent(c);
  },

  async 'upstream-error'(c) {
    await expectUpstreamError(c, () => client(c).responses.create({ model: c.model('error'), input: 'hi' }));
  },
});
