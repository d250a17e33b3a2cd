/*
 * The client-tool cases (matrix.ts: namespace tools, declared built-in tool left out, required
 * built-in tool), as agent clients declare their tools today (issue 29):
 * - Codex 0.171 groups client-side tools in a `namespace` tool and declares OpenAI's `web_search`;
 * - Claude Code declares Anthropic's server tool web_search_20250305, and forces it
 *   (`tool_choice: {type: "tool", name: "web_search"}`) in the request behind its WebSearch tool.
 * Where the upstream runs the built-in tool (OpenAI for Responses, Anthropic for Anthropic) the body
 * goes natively and keeps it; elsewhere a declared one is left out and named in the
 * X-Switchyard-Dropped-Tools header and the log row, and a required one is a 400 (deliberate-refusals.ts).
 */
import Anthropic from '@anthropic-ai/sdk';
import type { Message, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import OpenAI from 'openai';
import type {
  Response,
  ResponseFunctionToolCall,
  ResponseInputItem,
  ResponseStreamEvent,
  Tool,
} from 'openai/resources/responses/responses';
import { expect } from 'vitest';
import { CALL_ARGS, expectToolOffered, expectToolResultSent, QUESTION, TOOL_RESULT, WEATHER } from './checks.ts';
import type { Cell, DoorCases } from './harness.ts';
import { ANSWER } from './upstreams.ts';

type Json = Record<string, unknown>;

/** The header a converted answer names its left-out tools in (server/relay/dropped-tools.ts). */
export const DROPPED_HEADER = 'x-switchyard-dropped-tools';

const openai = (c: Cell) => new OpenAI({ apiKey: c.key, baseURL: c.g.h.baseURL, maxRetries: 0 });
const anthropic = (c: Cell) => new Anthropic({ apiKey: c.key, baseURL: c.g.origin, maxRetries: 0 });

const NAMESPACE = 'weather_v1';
/** The name a converted upstream knows the namespaced tool by (Codex's own flat spelling). */
const FLAT = `${NAMESPACE}__${WEATHER.name}`;
const weatherFunction = {
  type: 'function' as const,
  name: WEATHER.name,
  description: WEATHER.description,
  parameters: WEATHER.parameters as unknown as Record<string, unknown>,
  strict: false,
};
const namespaceTools = [
  { type: 'namespace', name: NAMESPACE, description: 'Weather tools.', tools: [weatherFunction] },
] as unknown as Tool[];
const webSearch = { type: 'web_search' } as unknown as Tool;

const user = (text: string): ResponseInputItem => ({ role: 'user', content: text });

/** The one function call of an answer: the namespaced weather tool, as OpenAI writes a call to it. */
function expectNamespacedCall(r: Response): ResponseFunctionToolCall {
  expect(r.status).toBe('completed');
  const calls = r.output.filter((i) => i.type === 'function_call');
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatchObject({ name: WEATHER.name, namespace: NAMESPACE });
  expect(JSON.parse(calls[0].arguments)).toEqual(CALL_ARGS);
  return calls[0];
}

/** The log rows of the cell's user, each row's `other.dropped_tools` (absent: none left out). */
async function droppedInLog(c: Cell): Promise<unknown[]> {
  const rows = await c.payer.logs();
  expect(rows.length, 'a log row per answered request').toBeGreaterThan(0);
  return rows.map((r) => (JSON.parse(String(r.other ?? '{}')) as Json).dropped_tools);
}

/** Native: the built-in tool reached the upstream and nothing is reported; converted: left out and reported. */
async function expectDropped(c: Cell, header: (string | null)[], type: string, native: boolean) {
  const toolTypes = c.sent().map((r) => JSON.stringify(r.body.tools ?? []));
  if (native) {
    expect(header, 'nothing left out').toEqual(header.map(() => null));
    for (const t of toolTypes) expect(t, 'the built-in tool reached the upstream').toContain(type);
    expect(await droppedInLog(c)).toEqual(header.map(() => undefined));
  } else {
    expect(header, 'the header names the tool left out').toEqual(header.map(() => type));
    for (const t of toolTypes) expect(t, 'the built-in tool was left out').not.toContain(type);
    expect(await droppedInLog(c)).toEqual(header.map(() => [type]));
  }
  for (const r of c.sent()) expectToolOffered(r);
}

export const responsesClientToolCases: DoorCases = {
  async 'namespace-tools'(c) {
    const sdk = openai(c);
    const base = {
      model: c.model(),
      instructions: 'You are a weather assistant.',
      tools: namespaceTools,
      store: false,
    };
    const input: ResponseInputItem[] = [user(QUESTION)];
    const r1 = await sdk.responses.create({ ...base, input });
    const call = expectNamespacedCall(r1);
    // Streamed: the call's item names its namespace when it opens and in the final response.
    const s = sdk.responses.stream({ ...base, input });
    const events: ResponseStreamEvent[] = [];
    for await (const e of s) events.push(e);
    expectNamespacedCall(await s.finalResponse());
    const added = events.find((e) => e.type === 'response.output_item.added');
    expect(added?.type === 'response.output_item.added' && added.item).toMatchObject({
      type: 'function_call',
      name: WEATHER.name,
      namespace: NAMESPACE,
    });
    // Turn 2: the call and its output, echoed as the SDK returned them.
    input.push(...(r1.output as ResponseInputItem[]), {
      type: 'function_call_output',
      call_id: call.call_id,
      output: TOOL_RESULT,
    });
    const r2 = await sdk.responses.create({ ...base, input });
    expect(r2.output_text).toBe(ANSWER);
    const sent = c.sent();
    expect(sent).toHaveLength(3);
    // The upstream knows the tool by its own name for it: the namespace natively, the flat name converted.
    const spelled = c.upstream === 'openai' ? `"namespace":"${NAMESPACE}"` : FLAT;
    for (const r of sent) {
      expectToolOffered(r);
      expect(JSON.stringify(r.body.tools ?? r.body), 'the tool as the upstream knows it').toContain(
        c.upstream === 'openai' ? NAMESPACE : FLAT,
      );
    }
    expectToolResultSent(sent[2]);
    expect(JSON.stringify(sent[2].body), 'the echoed call').toContain(spelled);
  },

  async 'declared-built-in'(c) {
    const sdk = openai(c);
    const body = { model: c.model(), input: [user(QUESTION)], tools: [weatherFunction, webSearch] };
    const json = await sdk.responses.create(body).withResponse();
    expect(json.data.output.find((i) => i.type === 'function_call')).toMatchObject({ name: WEATHER.name });
    const stream = await sdk.responses.create({ ...body, stream: true }).withResponse();
    for await (const e of stream.data) void e;
    const headers = [json.response.headers.get(DROPPED_HEADER), stream.response.headers.get(DROPPED_HEADER)];
    await expectDropped(c, headers, 'web_search', c.upstream === 'openai');
  },

  async 'required-built-in'(c) {
    // Refused (a 400 the SDK throws) wherever the body is converted: deliberate-refusals.ts.
    const r = await openai(c).responses.create({
      model: c.model(),
      input: 'Search the web for the weather in Paris.',
      tools: [webSearch],
      tool_choice: 'required',
    });
    expect(r.status).toBe('completed');
    expect(c.last().body).toMatchObject({ tool_choice: 'required', tools: [{ type: 'web_search' }] });
  },
};

const anthropicWeather = {
  name: WEATHER.name,
  description: WEATHER.description,
  input_schema: WEATHER.parameters as unknown as { type: 'object' },
};
const serverSearch = { type: 'web_search_20250305', name: 'web_search', max_uses: 5 } as unknown as ToolUnion;

export const anthropicServerToolCases: DoorCases = {
  async 'declared-built-in'(c) {
    const sdk = anthropic(c);
    const body = {
      model: c.model(),
      max_tokens: 200,
      messages: [{ role: 'user' as const, content: QUESTION }],
      tools: [anthropicWeather, serverSearch],
    };
    const json = await sdk.messages.create(body).withResponse();
    expect((json.data as Message).content.find((b) => b.type === 'tool_use')).toMatchObject({ name: WEATHER.name });
    const stream = await sdk.messages.create({ ...body, stream: true }).withResponse();
    for await (const e of stream.data) void e;
    const headers = [json.response.headers.get(DROPPED_HEADER), stream.response.headers.get(DROPPED_HEADER)];
    await expectDropped(c, headers, 'web_search_20250305', c.upstream === 'anthropic');
  },

  async 'required-built-in'(c) {
    // Claude Code's WebSearch request; refused wherever the body is converted: deliberate-refusals.ts.
    await anthropic(c).messages.create({
      model: c.model(),
      max_tokens: 200,
      messages: [{ role: 'user', content: 'Perform a web search for the query: weather in Paris' }],
      tools: [serverSearch],
      tool_choice: { type: 'tool', name: 'web_search' },
    });
    expect(c.last().body).toMatchObject({
      tool_choice: { type: 'tool', name: 'web_search' },
      tools: [{ type: 'web_search_20250305' }],
    });
  },
};
