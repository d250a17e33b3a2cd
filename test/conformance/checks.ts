/*
 * What every door's cases share: the conversation they hold (a weather tool, a screenshot, a JSON
 * Schema) and the checks a user would make whatever SDK they hold (the bill, the error they read).
 */
import { expect } from 'vitest';
import type { RecordedRequest } from '../../scripts/fake-upstream/server.ts';
import { ascending, PNG_1PX, quotaOf } from '../provider-fixtures.ts';
import { dialectError } from './dialect-errors.ts';
import { type Cell, RATIOS } from './harness.ts';
import { UPSTREAM_ERROR_MESSAGE } from './upstreams.ts';

export const PNG_DATA_URL = PNG_1PX;
export const PNG_BASE64 = PNG_1PX.split(',')[1];

export const QUESTION = 'What is the weather in Paris?';
export const FOLLOW_UP = 'And tomorrow?';
export const TOOL_RESULT = 'Sunny, 21 degrees Celsius.';
/** What a failed tool returns (the result marked as an error). */
export const TOOL_ERROR = 'Weather service unavailable for Paris.';

/**
 * Two system blocks, as Claude Code sends its system prompt (the product's, then the project's). Each
 * ends without a space, so text glued with no separator reads "...assistant.Answer..." and is caught.
 */
export const SYSTEM_BLOCKS = ['You are a weather assistant.', 'Answer in one short sentence.'] as const;

/** The weather tool as a JSON Schema (each door wraps it in its own tool shape). */
export const WEATHER = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: {
    type: 'object',
    properties: { location: { type: 'string', description: 'City name, e.g. Paris' } },
    required: ['location'],
  },
} as const;

/** The arguments every fake calls a tool with. */
export const CALL_ARGS = { location: 'Paris' };

/** The structured-output schema (strict-mode ready: every property required, no extras). */
export const FORECAST_SCHEMA = {
  type: 'object',
  properties: { location: { type: 'string' }, temperature: { type: 'number' } },
  required: ['location', 'temperature'],
  additionalProperties: false,
} as const;

/**
 * What OpenAI SDK users send besides the conversation: hints for caching, abuse detection, storage and
 * routing (OpenAI takes them all; Anthropic and Gemini refuse every field they do not know).
 */
export const HINTS = {
  prompt_cache_key: 'conversation-42',
  prompt_cache_retention: '24h' as const,
  safety_identifier: 'user-hash-42',
  user: 'user-42',
  metadata: { app: 'conformance' },
  store: false,
  service_tier: 'auto' as const,
};

/** The tool offered in a request reached the upstream with its name and its parameters' properties. */
export function expectToolOffered(r: RecordedRequest) {
  const text = JSON.stringify(r.body);
  expect(text, 'the tool reached the upstream').toContain('get_weather');
  expect(text, "the tool's parameters reached the upstream").toContain('City name, e.g. Paris');
}

/** The tool result's text reached the upstream. */
export function expectToolResultSent(r: RecordedRequest) {
  expect(JSON.stringify(r.body), 'the tool result reached the upstream').toContain(TOOL_RESULT);
}

export interface SeenUsage {
  prompt: number;
  completion: number;
}

/**
 * The log rows carry the usage the client saw (in any order: settlement runs after the answer), and
 * the user's and the token's quota went down by exactly the ratio-mode price of each.
 */
export async function expectBilled(c: Cell, seen: SeenUsage[]) {
  const logs = await c.payer.logs();
  const rows = logs.map((l) => `${Number(l.prompt_tokens)}+${Number(l.completion_tokens)}`).sort();
  expect(rows, 'log rows (prompt+completion)').toEqual(seen.map((u) => `${u.prompt}+${u.completion}`).sort());
  expect(await c.payer.charges(), 'charged quota').toEqual(
    ascending(seen.map((u) => quotaOf({ prompt: u.prompt, completion: u.completion }, RATIOS))),
  );
}

/** Nothing charged, nothing logged for the cell's user. */
export async function expectUnbilled(c: Cell) {
  expect(await c.payer.charges()).toEqual([]);
}

/**
 * The request fails the way the door's SDK reports an upstream error: its own error class, the
 * upstream's status, and the upstream's message.
 */
export async function expectUpstreamError(c: Cell, request: () => Promise<unknown>) {
  let caught: unknown;
  try {
    await request();
  } catch (err) {
    caught = err;
  }
  expect(caught, 'the request failed').toBeDefined();
  const d = dialectError(c.door, caught);
  expect(d, `an error in the ${c.door} dialect (got ${String(caught)})`).not.toBeNull();
  expect(d!.status).toBe(400);
  expect(d!.message).toContain(UPSTREAM_ERROR_MESSAGE[c.upstream]);
  await expectUnbilled(c);
}

/**
 * Where the hints went: OpenAI gets them all; an OpenAI-compatible vendor gets the cache hints, which
 * it reads (Mistral, Moonshot) or ignores; Anthropic and Gemini get none (their strict fakes would
 * refuse the request).
 */
export function expectHintsSent(c: Cell) {
  const body = c.last().body;
  if (c.upstream === 'openai') expect(body).toMatchObject(HINTS);
  const { prompt_cache_key, prompt_cache_retention } = HINTS;
  if (c.upstream === 'openai-chat-only') expect(body).toMatchObject({ prompt_cache_key, prompt_cache_retention });
}
