/*
 * The upstream side of the matrix: one strict fake per dialect (scripts/fake-upstream/strict/), the
 * channel the suite gives it, the models a cell asks for, and what "the upstream received it in
 * its own way" means for each dialect.
 */
import { expect } from 'vitest';
import { fakePromptTokens, type ReasoningSpelling } from '../../scripts/fake-upstream/behaviour.ts';
import { fakeNativePrompt } from '../../scripts/fake-upstream/native-http.ts';
import type { FakeUpstream, RecordedRequest } from '../../scripts/fake-upstream/server.ts';
import { startStrictUpstream } from '../../scripts/fake-upstream/strict/index.ts';
import type { UpstreamId } from './matrix.ts';

/** The one place that chooses the fakes (switching fakes is this line). */
export const startUpstream = (id: UpstreamId): Promise<FakeUpstream> => startStrictUpstream(id);

export type ModelRole = 'plain' | 'thinking' | 'error' | 'cached';

/**
 * The upstream model behind each role. Real model names, so the gateway's per-model rules apply
 * (an OpenAI reasoning model takes `max_completion_tokens`, a Gemini 3 model checks thought
 * signatures); `+token`s choose the fakes' behaviours (behaviour.ts, native-http.ts).
 */
const UPSTREAM_MODELS: Record<UpstreamId, Record<ModelRole, string>> = {
  openai: { plain: 'gpt-4.1', thinking: 'gpt-5-mini', error: 'gpt-4.1+fail-400', cached: 'gpt-4.1+prompt-cache' },
  // deepseek-reasoner always reasons and answers `reasoning_content` (the fake's reasoning-<n>).
  'openai-chat-only': {
    plain: 'deepseek-chat',
    thinking: 'deepseek-reasoner+reasoning-3',
    error: 'deepseek-chat+fail-400',
    cached: 'deepseek-chat+prompt-cache',
  },
  // `cached`: prompt caches modelled per key, by breakpoints on Anthropic (anthropic-cache.ts), by prefix elsewhere (key-memory.ts).
  anthropic: {
    plain: 'claude-sonnet-4-5',
    thinking: 'claude-sonnet-4-5',
    error: 'claude-sonnet-4-5+fail-400',
    cached: 'claude-sonnet-4-5+prompt-cache',
  },
  gemini: {
    plain: 'gemini-2.5-flash',
    thinking: 'gemini-3-pro-preview',
    error: 'gemini-2.5-flash+fail-400',
    cached: 'gemini-2.5-flash+prompt-cache',
  },
};

const SHORT: Record<UpstreamId, string> = {
  openai: 'oa',
  'openai-chat-only': 'co',
  anthropic: 'an',
  gemini: 'ge',
};

/** The model name a client asks for (the channel maps it to the upstream model). */
export const clientModel = (u: UpstreamId, role: ModelRole) => `cf-${SHORT[u]}-${role}`;

export const upstreamModel = (u: UpstreamId, role: ModelRole) => UPSTREAM_MODELS[u][role];

/**
 * The chat-only vendor's models for the reasoning-spelling cases: each answers three reasoning
 * pieces (THOUGHTS) in one spelling (behaviour.ts: DeepSeek's, vLLM's and OpenRouter's).
 */
const SPELLING_MODELS: Record<ReasoningSpelling, string> = {
  reasoning_content: 'deepseek-reasoner+reasoning-3',
  reasoning: 'qwen3-32b+or-reasoning-3',
  details: 'deepseek/deepseek-r1+details-reasoning-3',
};

/** The reasoning text the spelling models answer. */
export const THOUGHTS = 'r0 r1 r2 ';

/** The model name a client asks for to get reasoning in this spelling (chat-only upstream). */
export const spellingModel = (s: ReasoningSpelling) => `cf-co-spelling-${s.replace('_', '-')}`;

export const modelMapping = (u: UpstreamId): Record<string, string> => ({
  ...Object.fromEntries(
    (['plain', 'thinking', 'error', 'cached'] as const).map((r) => [clientModel(u, r), upstreamModel(u, r)]),
  ),
  ...(u === 'openai-chat-only'
    ? Object.fromEntries(Object.entries(SPELLING_MODELS).map(([s, m]) => [spellingModel(s as ReasoningSpelling), m]))
    : {}),
});

/** The message of the fake's 400 for `+fail-400` (what the caller must read, in its own dialect). */
export const UPSTREAM_ERROR_MESSAGE: Record<UpstreamId, string> = {
  openai: 'The fake upstream failed with 400.',
  'openai-chat-only': 'The fake upstream failed with 400.',
  anthropic: 'messages: at least one message is required',
  gemini: 'Request contains an invalid argument.',
};

/** The fakes' answer text (five pieces, one completion token each). */
export const ANSWER = 'w0 w1 w2 w3 w4 ';
export const ANSWER_TOKENS = 5;
/** Any candidate's answer when there are several (the fakes may vary its case to tell candidates apart). */
export const CANDIDATE_ANSWER = expect.stringMatching(/^w0 w1 w2 w3 w4 $/i);

type Json = Record<string, unknown>;

/** The chat-completions-style requests of a dialect (ignores count_tokens and model listing). */
export function generationRequests(u: UpstreamId, requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) =>
    u === 'anthropic'
      ? r.path.split('?')[0] === '/v1/messages'
      : u === 'gemini'
        ? /:(generateContent|streamGenerateContent)/.test(r.path)
        : /\/(chat\/completions|responses)$/.test(r.path.split('?')[0]),
  );
}

/** The prompt tokens the fake reports for a request it received (the count the gateway must pass on). */
export function upstreamPromptTokens(u: UpstreamId, r: RecordedRequest): number {
  const b = r.body;
  if (u === 'anthropic') return fakeNativePrompt(b.messages, b.system);
  if (u === 'gemini') return fakeNativePrompt(b.contents, b.systemInstruction);
  if (r.path.endsWith('/responses'))
    return fakePromptTokens({ input: typeof b.input === 'string' ? b.input : JSON.stringify(b.input ?? '') });
  return fakePromptTokens(b);
}

const has = (v: unknown) => v !== undefined && v !== null;

/** Reasoning reached the upstream in its own way (the chat-only vendor's model always reasons). */
export function expectReasoningAsked(u: UpstreamId, r: RecordedRequest) {
  const b = r.body;
  switch (u) {
    case 'openai':
      if (r.path.endsWith('/responses')) expect((b.reasoning as Json | undefined)?.effort).toBeTruthy();
      else expect(b.reasoning_effort, 'reasoning_effort sent to OpenAI').toBeTruthy();
      return;
    case 'openai-chat-only':
      return;
    case 'anthropic': {
      const t = b.thinking as { type?: string; budget_tokens?: number } | undefined;
      expect(t?.type, 'Anthropic thinking.type').toMatch(/^(enabled|adaptive)$/);
      if (t?.type === 'enabled') expect(t.budget_tokens).toBeGreaterThanOrEqual(1024);
      return;
    }
    case 'gemini': {
      const tc = (b.generationConfig as Json | undefined)?.thinkingConfig as
        { thinkingBudget?: number; thinkingLevel?: string; includeThoughts?: boolean } | undefined;
      expect(tc, 'Gemini generationConfig.thinkingConfig').toBeDefined();
      expect(has(tc?.thinkingLevel) || (tc?.thinkingBudget ?? 0) !== 0, 'a thinking budget or level').toBe(true);
      expect(tc?.includeThoughts, 'includeThoughts (the client wants the text back)').toBe(true);
      return;
    }
  }
}

/**
 * Whether the fake upstream answers reasoning text: DeepSeek's `reasoning_content`, Anthropic's
 * thinking blocks, Gemini's thought parts. OpenAI's Chat Completions never returns reasoning text, and
 * the fake's Responses API gives no reasoning summaries, so on OpenAI only the request side is checked.
 */
export const answersReasoningText = (u: UpstreamId) => u !== 'openai';

/**
 * Structured output reached the upstream in its own form. Returns whether Anthropic was asked through
 * a forced tool (then the client's answer must be that tool's input as JSON text).
 */
export function expectStructuredAsked(u: UpstreamId, r: RecordedRequest): { forcedTool: boolean } {
  const b = r.body;
  switch (u) {
    case 'openai': {
      const f = r.path.endsWith('/responses')
        ? ((b.text as Json | undefined)?.format as Json | undefined)
        : (b.response_format as Json | undefined);
      expect(f?.type, 'OpenAI json_schema format').toBe('json_schema');
      return { forcedTool: false };
    }
    case 'openai-chat-only': {
      const f = b.response_format as Json | undefined;
      expect(String(f?.type), 'a JSON response_format').toMatch(/^json_(schema|object)$/);
      return { forcedTool: false };
    }
    case 'anthropic': {
      const native = ((b.output_config as Json | undefined)?.format ?? b.output_format) as Json | undefined;
      if (native) {
        expect(native.type).toBe('json_schema');
        return { forcedTool: false };
      }
      const choice = b.tool_choice as { type?: string; name?: string } | undefined;
      expect(choice?.type, 'Anthropic output_config.format, or a forced tool').toBe('tool');
      expect((b.tools as { name?: string }[]).map((t) => t.name)).toContain(choice?.name);
      return { forcedTool: true };
    }
    case 'gemini': {
      const g = (b.generationConfig ?? {}) as Json;
      expect(g.responseMimeType, 'Gemini responseMimeType').toBe('application/json');
      expect(has(g.responseJsonSchema) || has(g.responseSchema), 'Gemini responseJsonSchema').toBe(true);
      return { forcedTool: false };
    }
  }
}

/** The image's base64 bytes are somewhere in what the upstream received. */
export function expectImageReached(r: RecordedRequest, base64: string) {
  expect(JSON.stringify(r.body).includes(base64), 'the image bytes reached the upstream').toBe(true);
}

/**
 * On turn 2 of a thinking tool loop the upstream got back its own signature: Anthropic's signed
 * thinking block before the tool_use, Gemini 3's thoughtSignature on the functionCall. (OpenAI's
 * encrypted reasoning is checked by the Responses door's own cell: Chat Completions has none.)
 */
export function expectSignaturesCarried(u: UpstreamId, r: RecordedRequest) {
  const b = r.body;
  if (u === 'anthropic') {
    const turn = (b.messages as { role: string; content: unknown }[]).find(
      (m) => Array.isArray(m.content) && (m.content as Json[]).some((c) => c.type === 'tool_use'),
    );
    const first = (turn?.content as Json[] | undefined)?.[0];
    expect(first?.type, 'the assistant turn starts with its thinking block').toBe('thinking');
    expect(first?.signature, 'with its signature').toBeTruthy();
  } else if (u === 'gemini') {
    const parts = (b.contents as { parts?: Json[] }[]).flatMap((c) => c.parts ?? []);
    const call = parts.find((p) => p.functionCall);
    expect(call?.thoughtSignature, 'the functionCall part carries its thoughtSignature').toBeTruthy();
  }
}

const textsOf = (content: unknown): string[] =>
  typeof content === 'string'
    ? [content]
    : Array.isArray(content)
      ? (content as Json[]).map((p) => (typeof p.text === 'string' ? p.text : '')).filter(Boolean)
      : [];

/**
 * A tool result marked as failed reached the upstream as a failure in its own way: Anthropic's
 * `tool_result.is_error`, Gemini's `functionResponse.response.error`, or, for OpenAI-compatible
 * upstreams (whose tool messages have no error flag), the text starting with "Error: ".
 */
export function expectToolErrorSent(u: UpstreamId, r: RecordedRequest, text: string) {
  const b = r.body;
  switch (u) {
    case 'anthropic': {
      const results = (b.messages as { content: unknown }[])
        .flatMap((m) => (Array.isArray(m.content) ? (m.content as Json[]) : []))
        .filter((c) => c.type === 'tool_result');
      expect(results, 'one tool_result').toHaveLength(1);
      expect(results[0].is_error, 'tool_result.is_error').toBe(true);
      expect(JSON.stringify(results[0].content)).toContain(text);
      return;
    }
    case 'gemini': {
      const responses = (b.contents as { parts?: Json[] }[])
        .flatMap((c) => c.parts ?? [])
        .map((p) => p.functionResponse as { response?: Json } | undefined)
        .filter((f) => f !== undefined);
      expect(responses, 'one functionResponse').toHaveLength(1);
      expect(responses[0].response?.error, 'functionResponse.response.error').toBeDefined();
      expect(JSON.stringify(responses[0].response?.error)).toContain(text);
      return;
    }
    default: {
      const tool = (b.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'tool');
      expect(tool, 'one tool message').toHaveLength(1);
      expect(textsOf(tool[0].content).join(''), 'the tool text, marked as an error').toMatch(/^Error: /);
      expect(textsOf(tool[0].content).join('')).toContain(text);
    }
  }
}

/** The system texts an upstream received, one entry per block, part or message. */
function systemTextsOf(u: UpstreamId, r: RecordedRequest): string[] {
  const b = r.body;
  if (u === 'anthropic') return textsOf(b.system);
  if (u === 'gemini') {
    const si = b.systemInstruction as { parts?: Json[] } | string | undefined;
    return typeof si === 'string' ? [si] : textsOf(si?.parts);
  }
  if (r.path.endsWith('/responses')) {
    const items = Array.isArray(b.input) ? (b.input as Json[]) : [];
    return [
      ...textsOf(b.instructions),
      ...items.filter((i) => i.role === 'system' || i.role === 'developer').flatMap((i) => textsOf(i.content)),
    ];
  }
  return (b.messages as Json[])
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .flatMap((m) => textsOf(m.content));
}

/**
 * Every system block reached the upstream, and no two were glued together: each stands alone, or
 * is joined to the next with a separator (a newline or a space), in the upstream's system field.
 */
export function expectSystemKeptApart(u: UpstreamId, r: RecordedRequest, blocks: readonly string[]) {
  const texts = systemTextsOf(u, r);
  for (const block of blocks)
    expect(
      texts.some((t) => t.includes(block)),
      `system text "${block}" reached the upstream (got ${JSON.stringify(texts)})`,
    ).toBe(true);
  for (let i = 1; i < blocks.length; i++)
    expect(
      texts.some((t) => t.includes(blocks[i - 1] + blocks[i])),
      `blocks glued with no separator (got ${JSON.stringify(texts)})`,
    ).toBe(false);
}
