import type { ServerResponse } from 'node:http';
import { choiceCount, fakePromptTokens, parseBehaviour, reasoningDeltas, reasoningFields } from './behaviour.ts';

/*
 * What agent clients need of the OpenAI fake: a tool call on chat completions, and a Responses
 * API that answers like OpenAI's (reasoning summaries, function calls, incomplete answers), in
 * JSON and in its real event sequence. A plain request gets the fake's usual answer (5 words).
 * A tool is called, as the Anthropic and Gemini fakes do, when function tools are offered and
 * the turn is not an answer to tool results: the last message before the trailing user messages
 * is not a tool result (a user message right after tool results, such as a screenshot a gateway
 * moved out of a tool message, still belongs to the answer).
 */

const PIECES = ['w0 ', 'w1 ', 'w2 ', 'w3 ', 'w4 '];
const ARGS = '{"location":"Paris"}';
/** Output tokens of a tool call and of a reasoning summary. */
const CALL_TOKENS = 7;
const THOUGHT_TOKENS = 3;

const send = (res: ServerResponse, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

type Json = Record<string, unknown>;
/** Whether this turn calls a tool (above); `answersResults`: the turn follows tool results. */
const callsTool = (names: string[], answersResults: boolean, choice: unknown) =>
  names.length > 0 && !answersResults && choice !== 'none';

const functionNames = (tools: unknown): string[] =>
  (Array.isArray(tools) ? (tools as Json[]) : [])
    .map((t) => (t.type === 'function' ? ((t.function as Json | undefined)?.name ?? t.name) : undefined))
    .filter((n): n is string => typeof n === 'string');

/**
 * The Responses tools a call can go to, in order: function tools, and the function tools of a
 * namespace tool (a call to one names its namespace, as OpenAI writes it).
 */
const responsesCallables = (tools: unknown): { name: string; namespace?: string }[] =>
  (Array.isArray(tools) ? (tools as Json[]) : []).flatMap((t) =>
    t.type === 'namespace'
      ? functionNames(t.tools).map((name) => ({ name, namespace: String(t.name) }))
      : functionNames([t]).map((name) => ({ name })),
  );

/**
 * Chat completions with function tools, on a turn that calls one (above): a call to the first
 * tool (JSON, or streamed in two argument pieces). False for any other request. `cached`: the
 * prompt-cache reads of the key (key-memory.ts), reported as on a text answer.
 */
export function answerChatToolCall(res: ServerResponse, body: Json, model: string, cached?: number): boolean {
  const names = functionNames(body.tools);
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const beforeUser = messages.findLast((m) => m.role !== 'user');
  if (!callsTool(names, beforeUser?.role === 'tool', body.tool_choice)) return false;
  // A reasoning model's thoughts come first (reasoning-<n>, as on the fake's text answers).
  const b = parseBehaviour(model, '');
  const thoughts = Array.from({ length: b.reasoning }, (_, i) => `r${i} `);
  const prompt = fakePromptTokens(body);
  // `n` choices each make the call (OpenAI bills them all); each choice's call has its own id.
  const count = choiceCount(body);
  const indexes = Array.from({ length: count }, (_, index) => index);
  const completion = (CALL_TOKENS + thoughts.length) * count;
  const usage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...(cached === undefined ? {} : { prompt_tokens_details: { cached_tokens: cached } }),
  };
  const id = `chatcmpl-fake${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  const callOf = (index: number) => ({
    id: index === 0 ? 'call_fake1' : `call_fake1_${index}`,
    type: 'function',
    function: { name: names[0], arguments: ARGS },
  });
  const reasoning = reasoningFields(b.reasoningField, thoughts.join(''));
  if (body.stream !== true) {
    send(res, {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: indexes.map((index) => ({
        index,
        message: { role: 'assistant', content: null, ...reasoning, tool_calls: [callOf(index)] },
        finish_reason: 'tool_calls',
      })),
      usage,
    });
    return true;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (choices: unknown[], extra: object = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`,
    );
  for (const index of indexes) {
    chunk([{ index, delta: { role: 'assistant', content: null }, finish_reason: null }]);
    for (const delta of reasoningDeltas(b.reasoningField, thoughts)) chunk([{ index, delta, finish_reason: null }]);
    const call = callOf(index);
    chunk([
      {
        index,
        delta: { tool_calls: [{ index: 0, ...call, function: { name: names[0], arguments: '' } }] },
        finish_reason: null,
      },
    ]);
    for (const piece of [ARGS.slice(0, 6), ARGS.slice(6)])
      chunk([{ index, delta: { tool_calls: [{ index: 0, function: { arguments: piece } }] }, finish_reason: null }]);
    chunk([{ index, delta: {}, finish_reason: 'tool_calls' }]);
  }
  if ((body.stream_options as Json | undefined)?.include_usage) chunk([], { usage });
  res.write('data: [DONE]\n\n');
  res.end();
  return true;
}

/**
 * POST /responses: a reasoning item when `reasoning.summary` is asked (its encrypted content with
 * include reasoning.encrypted_content), a function call on a turn that calls one (above), else
 * the five words (cut by max_output_tokens: incomplete).
 */
export function answerResponses(res: ServerResponse, body: Json, model: string): void {
  const input = fakePromptTokens({
    input: typeof body.input === 'string' ? body.input : JSON.stringify(body.input ?? ''),
  });
  const items = Array.isArray(body.input) ? (body.input as Json[]) : [];
  const callables = responsesCallables(body.tools);
  const names = callables.map((c) => c.name);
  const reasoning = body.reasoning as Json | undefined;
  const include = Array.isArray(body.include) ? body.include : [];
  const output: Json[] = [];
  let tokens: number;
  let thoughts = 0;
  let incomplete = false;
  if (reasoning?.summary) {
    output.push({
      id: 'rs_fake',
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Let me think.' }],
      ...(include.includes('reasoning.encrypted_content') ? { encrypted_content: 'enc-fake' } : {}),
    });
    thoughts = THOUGHT_TOKENS;
  }
  const beforeUser = items.findLast((i) => !(i.role === 'user' && (i.type ?? 'message') === 'message'));
  if (callsTool(names, beforeUser?.type === 'function_call_output', body.tool_choice)) {
    output.push({
      id: 'fc_fake',
      type: 'function_call',
      status: 'completed',
      call_id: 'call_fake1',
      ...callables[0],
      arguments: ARGS,
    });
    tokens = CALL_TOKENS;
  } else {
    const limit = typeof body.max_output_tokens === 'number' ? body.max_output_tokens : Infinity;
    const n = Math.min(PIECES.length, limit);
    incomplete = n < PIECES.length;
    output.push({
      id: 'msg_fake',
      type: 'message',
      status: incomplete ? 'incomplete' : 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: PIECES.slice(0, n).join(''), annotations: [] }],
    });
    tokens = n;
  }
  const usage = {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: tokens + thoughts,
    output_tokens_details: { reasoning_tokens: thoughts },
    total_tokens: input + tokens + thoughts,
  };
  const base = {
    id: 'resp_fake',
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model,
    output: [] as unknown[],
    status: 'in_progress',
    usage: null as unknown,
  };
  const final = {
    ...base,
    status: incomplete ? 'incomplete' : 'completed',
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    output,
    usage,
  };
  if (body.stream !== true) return send(res, final);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let seq = 0;
  const ev = (type: string, data: object) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  ev('response.created', { response: base });
  ev('response.in_progress', { response: base });
  output.forEach((item, output_index) => streamItem(ev, item, output_index));
  ev(incomplete ? 'response.incomplete' : 'response.completed', { response: final });
  res.end();
}

/**
 * One output item of a Responses stream in OpenAI's event sequence: a reasoning item's summary parts, a
 * function call's arguments in two pieces, a message's text word by word (the agent fakes' too, agent/).
 */
export function streamItem(ev: (type: string, data: object) => void, item: Json, output_index: number) {
  const item_id = item.id;
  if (item.type === 'reasoning') {
    ev('response.output_item.added', { output_index, item: { ...item, summary: [] } });
    for (const [summary_index, part] of (item.summary as Json[]).entries()) {
      const at = { item_id, output_index, summary_index };
      ev('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } });
      ev('response.reasoning_summary_text.delta', { ...at, delta: part.text });
      ev('response.reasoning_summary_text.done', { ...at, text: part.text });
      ev('response.reasoning_summary_part.done', { ...at, part });
    }
  } else if (item.type === 'function_call') {
    ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
    const args = String(item.arguments);
    for (const delta of [args.slice(0, 6), args.slice(6)])
      ev('response.function_call_arguments.delta', { item_id, output_index, delta });
    ev('response.function_call_arguments.done', { item_id, output_index, name: item.name, arguments: args });
  } else {
    ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
    const part = (item.content as Json[])[0];
    const at = { item_id, output_index, content_index: 0 };
    ev('response.content_part.added', { ...at, part: { type: 'output_text', text: '', annotations: [] } });
    for (const delta of String(part.text).match(/\S+\s*/g) ?? []) ev('response.output_text.delta', { ...at, delta });
    ev('response.output_text.done', { ...at, text: part.text });
    ev('response.content_part.done', { ...at, part });
  }
  ev('response.output_item.done', { output_index, item });
}
