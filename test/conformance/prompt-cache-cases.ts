/*
 * The prompt-cache case (matrix.ts `prompt-cache`, issue 29): an agent's three turns (a question that
 * calls the tool, its result, a follow-up) with a system prompt and a tool, through every door, on
 * the upstreams' `cached` models (upstreams.ts), whose fakes model their prompt caches per key: by
 * breakpoints on Anthropic (scripts/fake-upstream/anthropic-cache.ts), by prefix on OpenAI chat and
 * Gemini (key-memory.ts); the fake's Responses API reports no cache reads.
 * - On Anthropic, a converted request carries breakpoints where providers/anthropic/cache-breakpoints.ts
 *   puts them (the end of the system prompt, the last block, where the previous turn ended; at most
 *   4), so each turn reads all the turn before it sent; an Anthropic client's body goes as it came,
 *   its own breakpoints and no others.
 * - OpenAI gets the client's `prompt_cache_key` (chat and Responses doors).
 * - Whatever the upstream reports as cache reads comes back as the door's cached tokens, and each
 *   request is billed with the cache ratios (reads at 0.1, writes at 1.25 of the input price).
 */
import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, TextBlockParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { type Content, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { expect } from 'vitest';
import { fakePromptTokens } from '../../scripts/fake-upstream/behaviour.ts';
import { chatUnits, createKeyMemory, geminiUnits } from '../../scripts/fake-upstream/key-memory.ts';
import { fakeNativePrompt } from '../../scripts/fake-upstream/native-http.ts';
import type { RecordedRequest } from '../../scripts/fake-upstream/server.ts';
import { ascending, quotaOf } from '../provider-fixtures.ts';
import { FOLLOW_UP, QUESTION, TOOL_RESULT, WEATHER } from './checks.ts';
import { type Cell, type DoorCases, RATIOS } from './harness.ts';
import type { DoorId, UpstreamId } from './matrix.ts';
import { upstreamModel } from './upstreams.ts';

export const CACHE_KEY = 'agent-session-42';
const SYSTEM = 'You are a weather assistant. Call get_weather before you answer, then answer in one sentence.';
const ephemeral = { type: 'ephemeral' as const };
const text = (t: string, mark: boolean): TextBlockParam => ({
  type: 'text',
  text: t,
  ...(mark ? { cache_control: ephemeral } : {}),
});
type Json = Record<string, unknown>;
type Block = Json & { type?: string; cache_control?: unknown };

/** The cached tokens the client read on each of the three turns. */
type Turns = (c: Cell) => Promise<number[]>;

const openaiClient = (c: Cell) => new OpenAI({ apiKey: c.key, baseURL: c.g.h.baseURL, maxRetries: 0 });

const TURNS: Record<DoorId, Turns> = {
  async 'openai-chat'(c) {
    const sdk = openaiClient(c);
    const base = {
      model: c.model('cached'),
      tools: [{ type: 'function' as const, function: { ...WEATHER } }],
      max_tokens: 200,
      prompt_cache_key: CACHE_KEY,
    };
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: QUESTION },
    ];
    const r1 = await sdk.chat.completions.create({ ...base, messages });
    const call = r1.choices[0].message.tool_calls![0];
    messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    messages.push({ role: 'tool', tool_call_id: call.id, content: TOOL_RESULT });
    const r2 = await sdk.chat.completions.create({ ...base, messages });
    messages.push({ role: 'assistant', content: r2.choices[0].message.content }, { role: 'user', content: FOLLOW_UP });
    const r3 = await sdk.chat.completions.create({ ...base, messages });
    return [r1, r2, r3].map((r) => r.usage?.prompt_tokens_details?.cached_tokens ?? 0);
  },

  async responses(c) {
    const sdk = openaiClient(c);
    const tool = { type: 'function' as const, ...WEATHER, strict: false };
    const base = {
      model: c.model('cached'),
      instructions: SYSTEM,
      tools: [tool],
      store: false,
      prompt_cache_key: CACHE_KEY,
    };
    const input: ResponseInputItem[] = [{ role: 'user', content: QUESTION }];
    const r1 = await sdk.responses.create({ ...base, input });
    const call = r1.output.find((i) => i.type === 'function_call')!;
    input.push(...(r1.output as ResponseInputItem[]), {
      type: 'function_call_output',
      call_id: call.type === 'function_call' ? call.call_id : '',
      output: TOOL_RESULT,
    });
    const r2 = await sdk.responses.create({ ...base, input });
    input.push(...(r2.output as ResponseInputItem[]), { role: 'user', content: FOLLOW_UP });
    const r3 = await sdk.responses.create({ ...base, input });
    return [r1, r2, r3].map((r) => r.usage?.input_tokens_details.cached_tokens ?? 0);
  },

  // As Claude Code does: its own breakpoints on the system prompt and on the newest message.
  async anthropic(c) {
    const sdk = new Anthropic({ apiKey: c.key, baseURL: c.g.origin, maxRetries: 0 });
    const base = {
      model: c.model('cached'),
      max_tokens: 200,
      system: [{ type: 'text' as const, text: SYSTEM, cache_control: ephemeral }],
      tools: [
        {
          name: WEATHER.name,
          description: WEATHER.description,
          input_schema: WEATHER.parameters as unknown as Tool['input_schema'],
        },
      ],
    };
    const question = (mark: boolean): MessageParam => ({ role: 'user', content: [text(QUESTION, mark)] });
    const m1 = await sdk.messages.create({ ...base, messages: [question(true)] });
    const use = m1.content.find((b) => b.type === 'tool_use')!;
    const result = (mark: boolean): MessageParam => ({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: use.id,
          content: TOOL_RESULT,
          ...(mark ? { cache_control: ephemeral } : {}),
        },
      ],
    });
    const turn1: MessageParam[] = [question(false), { role: 'assistant', content: m1.content }];
    const m2 = await sdk.messages.create({ ...base, messages: [...turn1, result(true)] });
    const m3 = await sdk.messages.create({
      ...base,
      messages: [
        ...turn1,
        result(false),
        { role: 'assistant', content: m2.content },
        { role: 'user', content: [text(FOLLOW_UP, true)] },
      ],
    });
    return [m1, m2, m3].map((m) => m.usage.cache_read_input_tokens ?? 0);
  },

  async gemini(c) {
    const ai = new GoogleGenAI({ apiKey: c.key, httpOptions: { baseUrl: c.g.origin } });
    const model = c.model('cached');
    const tool = { name: WEATHER.name, description: WEATHER.description, parametersJsonSchema: WEATHER.parameters };
    const config = { systemInstruction: SYSTEM, tools: [{ functionDeclarations: [tool] }] };
    const contents: Content[] = [{ role: 'user', parts: [{ text: QUESTION }] }];
    const r1 = await ai.models.generateContent({ model, contents, config });
    const call = r1.functionCalls![0];
    contents.push(r1.candidates![0].content!, {
      role: 'user',
      parts: [{ functionResponse: { id: call.id, name: call.name, response: { output: TOOL_RESULT } } }],
    });
    const r2 = await ai.models.generateContent({ model, contents, config });
    contents.push(r2.candidates![0].content!, { role: 'user', parts: [{ text: FOLLOW_UP }] });
    const r3 = await ai.models.generateContent({ model, contents, config });
    return [r1, r2, r3].map((r) => r.usageMetadata?.cachedContentTokenCount ?? 0);
  },
};

/** The breakpoints of an Anthropic body, as `system.0`, `tools.1`, `messages.2.content.0`. */
function breakpoints(b: Json): string[] {
  const at: string[] = [];
  const scan = (blocks: unknown, path: string) =>
    (Array.isArray(blocks) ? (blocks as Block[]) : []).forEach((x, i) => x.cache_control && at.push(`${path}.${i}`));
  scan(b.system, 'system');
  scan(b.tools, 'tools');
  (b.messages as Json[]).forEach((m, i) => scan(m.content, `messages.${i}.content`));
  return at;
}

/** Where the gateway must have put them on a converted request (worked out apart from the gateway's code). */
function expectedBreakpoints(b: Json): string[] {
  const messages = b.messages as { role: string; content: Block[] }[];
  const lastOf = (end: number) => {
    for (let i = end - 1; i >= 0; i--) {
      const j = messages[i].content.findLastIndex((x) => x.type !== 'thinking' && x.type !== 'redacted_thinking');
      if (j >= 0) return `messages.${i}.content.${j}`;
    }
    return undefined;
  };
  const assistant = messages.findLastIndex((m) => m.role === 'assistant');
  const spots = [`system.${(b.system as Block[]).length - 1}`, lastOf(messages.length)];
  if (assistant > 0) spots.push(lastOf(assistant));
  return [...new Set(spots.filter((s): s is string => s !== undefined))].sort();
}

/** The cache reads each fake reported for the requests it received, in order (its cache was empty before). */
function upstreamCacheReads(u: UpstreamId, sent: RecordedRequest[]): number[] {
  // Anthropic: each turn reads all that the turn before it sent (written at its last block).
  if (u === 'anthropic')
    return sent.map((_, i) => (i === 0 ? 0 : fakeNativePrompt(sent[i - 1].body.messages, sent[i - 1].body.system)));
  const memory = createKeyMemory();
  const model = upstreamModel(u, 'cached');
  return sent.map((r) => {
    const b = r.body;
    if (u === 'gemini') {
      const key = String(r.headers['x-goog-api-key'] ?? new URL(r.path, 'http://x').searchParams.get('key') ?? '');
      return memory.cachedTokens(model, key, geminiUnits(b), fakeNativePrompt(b.contents, b.systemInstruction)) ?? 0;
    }
    if (r.path.endsWith('/responses')) return 0;
    const key = String(r.headers.authorization ?? '').replace(/^Bearer /, '');
    return memory.cachedTokens(model, key, chatUnits(b), fakePromptTokens(b)) ?? 0;
  });
}

/** Each log row is charged with the cache ratios applied to its cache reads and writes. */
async function expectCacheBilled(c: Cell, cached: number[]) {
  const rows = (await c.payer.logs()).map((l) => ({ l, other: JSON.parse(String(l.other ?? '{}')) as Json }));
  expect(ascending(rows.map((r) => Number(r.other.cache_tokens))), 'cache reads in the log rows').toEqual(
    ascending(cached),
  );
  const quotas = rows.map(({ l, other }) =>
    quotaOf(
      {
        prompt: Number(l.prompt_tokens),
        completion: Number(l.completion_tokens),
        cached: Number(other.cache_tokens),
        creation: Number(other.cache_creation_tokens),
      },
      RATIOS,
    ),
  );
  expect(await c.payer.charges(), 'charged with the cache ratios').toEqual(ascending(quotas));
}

async function promptCache(c: Cell, turns: Turns) {
  const cached = await turns(c);
  const sent = c.sent();
  expect(sent).toHaveLength(3);
  expect(cached, "the upstream's cache reads, as the client reads them").toEqual(upstreamCacheReads(c.upstream, sent));
  if (c.upstream === 'anthropic') {
    for (const r of sent) expect(breakpoints(r.body).length, 'at most 4 breakpoints').toBeLessThanOrEqual(4);
    if (c.door === 'anthropic')
      // Native: the client's own breakpoints, none added.
      expect(sent.map((r) => breakpoints(r.body))).toEqual([
        ['system.0', 'messages.0.content.0'],
        ['system.0', 'messages.2.content.0'],
        ['system.0', 'messages.4.content.0'],
      ]);
    else for (const r of sent) expect(breakpoints(r.body).sort()).toEqual(expectedBreakpoints(r.body));
  }
  if (c.upstream !== 'openai' || c.door !== 'responses')
    expect(cached[2], 'the third turn reads more than the second').toBeGreaterThan(cached[1]);
  if (c.upstream === 'openai' && (c.door === 'openai-chat' || c.door === 'responses'))
    for (const r of sent) expect(r.body.prompt_cache_key).toBe(CACHE_KEY);
  await expectCacheBilled(c, cached);
}

export const promptCacheCases = (door: DoorId): DoorCases => ({
  'prompt-cache': (c) => promptCache(c, TURNS[door]),
});
