/*
 * The scripted agent on Chat Completions: the request read into the brain's items, the move written back
 * as a chat completion (JSON, or chunks ending in [DONE], usage last when stream_options asks). Reasoning
 * text goes in `reasoning_content` for a vendor that returns it (DeepSeek's reasoner); OpenAI's own Chat
 * Completions never return reasoning text, so there the thinking stays upstream (counted in the usage).
 */
import type { ServerResponse } from 'node:http';
import { fakePromptTokens } from '../behaviour.ts';
import { sendJson } from '../native-http.ts';
import { imageOfDataUrl, type Item, type Json, type Move, parseArgs, textOf, type Turn } from './conversation.ts';

function partsOf(content: unknown): Json[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
}

export function readChat(body: Json): Turn {
  const items: Item[] = [];
  for (const m of (body.messages ?? []) as Json[]) {
    if (m.role === 'user')
      for (const p of partsOf(m.content)) {
        if (p.type === 'text') items.push({ kind: 'user', text: String(p.text), images: [] });
        const image = p.type === 'image_url' ? imageOfDataUrl((p.image_url as Json | undefined)?.url) : undefined;
        if (image) items.push({ kind: 'user', text: '', images: [image] });
      }
    if (m.role === 'assistant') {
      const text = textOf(m.content);
      if (text) items.push({ kind: 'assistant', text });
      for (const c of (m.tool_calls ?? []) as Json[]) {
        const fn = (c.function ?? {}) as Json;
        items.push({ kind: 'call', id: String(c.id), name: String(fn.name), args: parseArgs(fn.arguments) });
      }
    }
    if (m.role === 'tool') {
      const parts = partsOf(m.content);
      items.push({
        kind: 'result',
        id: String(m.tool_call_id),
        text: textOf(parts),
        images: parts
          .map((p) => (p.type === 'image_url' ? imageOfDataUrl((p.image_url as Json | undefined)?.url) : undefined))
          .filter((i) => !!i),
      });
    }
  }
  const tools = ((body.tools ?? []) as Json[])
    .map((t) => (t.function ?? {}) as Json)
    .map((f) => ({ name: String(f.name), schema: (f.parameters ?? {}) as Json }));
  const rf = body.response_format as Json | undefined;
  return {
    items,
    tools,
    thinking: body.reasoning_effort !== undefined && body.reasoning_effort !== 'none',
    jsonSchema: rf?.type === 'json_schema' ? ((rf.json_schema as Json | undefined)?.schema as Json) : undefined,
  };
}

export interface ChatManner {
  /** The field reasoning text comes back in, or undefined when the upstream returns none (OpenAI). */
  reasoningField?: string;
}

export function answerChat(res: ServerResponse, body: Json, turn: Turn, move: Move, manner: ChatManner) {
  const calls = turn.items.filter((i) => i.kind === 'call').length;
  const call = move.call && {
    id: `call_agent_${calls + 1}`,
    type: 'function',
    function: { name: move.call.name, arguments: JSON.stringify(move.call.args) },
  };
  const reasoning = manner.reasoningField ? { [manner.reasoningField]: move.thinking } : {};
  const prompt = fakePromptTokens(body);
  const usage = {
    prompt_tokens: prompt,
    completion_tokens: 20,
    total_tokens: prompt + 20,
    completion_tokens_details: { reasoning_tokens: 8 },
  };
  const id = `chatcmpl-agent${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  const finish = call ? 'tool_calls' : 'stop';
  if (body.stream !== true)
    return sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model: body.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: call ? null : (move.text ?? ''),
            ...reasoning,
            ...(call && { tool_calls: [call] }),
          },
          finish_reason: finish,
        },
      ],
      usage,
    });
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: Json | null, finishReason: string | null = null, extra: Json = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: delta ? [{ index: 0, delta, finish_reason: finishReason }] : [], ...extra })}\n\n`,
    );
  chunk({ role: 'assistant', content: '' });
  if (manner.reasoningField)
    for (const piece of move.thinking.match(/\S+\s*/g) ?? []) chunk({ [manner.reasoningField]: piece });
  if (call) {
    const args = call.function.arguments;
    chunk({
      tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
    });
    for (const piece of [args.slice(0, 8), args.slice(8)])
      chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] });
  } else for (const piece of (move.text ?? '').match(/\S+\s*/g) ?? []) chunk({ content: piece });
  chunk({}, finish);
  if ((body.stream_options as Json | undefined)?.include_usage) chunk(null, null, { usage });
  res.write('data: [DONE]\n\n');
  res.end();
}
