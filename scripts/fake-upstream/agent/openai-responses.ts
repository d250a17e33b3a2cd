/*
 * The scripted agent on the Responses API: input items read into the brain's items (function_call_output
 * with input_image parts, images in user messages), the move written back as a Response: a reasoning item
 * first when reasoning is asked (its summary when `reasoning.summary` is set, its encrypted content when
 * `include` asks for it, as with `store: false`), then a function_call or a message; JSON or the real event
 * sequence with sequence numbers.
 */
import type { ServerResponse } from 'node:http';
import { fakePromptTokens } from '../behaviour.ts';
import { sendJson } from '../native-http.ts';
import { streamItem } from '../openai-agent.ts';
import { imageOfDataUrl, type Item, type Json, type Move, parseArgs, textOf, type Turn } from './conversation.ts';

const imagesOf = (parts: Json[]) =>
  parts.map((p) => (p.type === 'input_image' ? imageOfDataUrl(p.image_url) : undefined)).filter((i) => !!i);

export function readResponses(body: Json): Turn {
  const items: Item[] = [];
  const input: Json[] =
    typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : ((body.input ?? []) as Json[]);
  for (const it of input) {
    const type = it.type ?? 'message';
    if (type === 'message' && it.role === 'user') {
      const parts: Json[] =
        typeof it.content === 'string' ? [{ type: 'input_text', text: it.content }] : (it.content as Json[]);
      for (const p of parts) {
        if (p.type === 'input_text') items.push({ kind: 'user', text: String(p.text), images: [] });
        if (p.type === 'input_image') items.push({ kind: 'user', text: '', images: imagesOf([p]) });
      }
    }
    if (type === 'message' && it.role === 'assistant') items.push({ kind: 'assistant', text: textOf(it.content) });
    if (type === 'function_call')
      items.push({ kind: 'call', id: String(it.call_id), name: String(it.name), args: parseArgs(it.arguments) });
    if (type === 'function_call_output') {
      const parts: Json[] =
        typeof it.output === 'string' ? [{ type: 'input_text', text: it.output }] : (it.output as Json[]);
      items.push({ kind: 'result', id: String(it.call_id), text: textOf(parts), images: imagesOf(parts) });
    }
  }
  const tools = ((body.tools ?? []) as Json[])
    .flatMap((t) => (t.type === 'namespace' ? ((t.tools ?? []) as Json[]) : [t]))
    .filter((t) => t.type === 'function')
    .map((t) => ({ name: String(t.name), schema: (t.parameters ?? {}) as Json }));
  const reasoning = body.reasoning as Json | undefined;
  const format = (body.text as Json | undefined)?.format as Json | undefined;
  return {
    items,
    tools,
    thinking: !!reasoning && reasoning.effort !== 'none',
    jsonSchema: format?.type === 'json_schema' ? (format.schema as Json) : undefined,
  };
}

/** What an encrypted reasoning item holds: the thinking, sealed as base64 (opaque to the client). */
const seal = (text: string) => Buffer.from(`agent-reasoning:${text}`).toString('base64');

export function answerResponses(res: ServerResponse, body: Json, turn: Turn, move: Move) {
  const calls = turn.items.filter((i) => i.kind === 'call').length;
  const reasoning = body.reasoning as Json | undefined;
  const include = Array.isArray(body.include) ? body.include : [];
  const output: Json[] = [];
  if (turn.thinking)
    output.push({
      id: `rs_agent_${calls + 1}`,
      type: 'reasoning',
      summary: reasoning?.summary ? [{ type: 'summary_text', text: move.thinking }] : [],
      ...(include.includes('reasoning.encrypted_content') ? { encrypted_content: seal(move.thinking) } : {}),
    });
  if (move.call)
    output.push({
      id: `fc_agent_${calls + 1}`,
      type: 'function_call',
      status: 'completed',
      call_id: `call_agent_${calls + 1}`,
      name: move.call.name,
      arguments: JSON.stringify(move.call.args),
    });
  else
    output.push({
      id: `msg_agent_${calls + 1}`,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: move.text ?? '', annotations: [] }],
    });
  const input = fakePromptTokens({ input: JSON.stringify(body.input ?? '') });
  const usage = {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: turn.thinking ? 8 : 0 },
    total_tokens: input + 20,
  };
  const base = { id: `resp_agent_${Date.now()}`, object: 'response', created_at: Math.floor(Date.now() / 1000) };
  const done = { ...base, model: body.model, status: 'completed', output, usage };
  if (body.stream !== true) return sendJson(res, 200, done);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let seq = 0;
  const ev = (type: string, data: object) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  const pending = { ...base, model: body.model, status: 'in_progress', output: [], usage: null };
  ev('response.created', { response: pending });
  ev('response.in_progress', { response: pending });
  output.forEach((item, output_index) => streamItem(ev, item, output_index));
  ev('response.completed', { response: done });
  res.end();
}
