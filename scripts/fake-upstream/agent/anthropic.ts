/*
 * The scripted agent on Anthropic's Messages API: the request read into the brain's items, the move
 * written back as a message (signed thinking first when thinking is on, then a tool_use or the text),
 * in JSON or in the real event sequence.
 */
import type { ServerResponse } from 'node:http';
import { fakeNativePrompt, sendJson } from '../native-http.ts';
import { signThinking } from '../strict/signatures.ts';
import { type Image, type Item, type Json, type Move, textOf, type Turn } from './conversation.ts';

const imageOf = (b: Json): Image | undefined => {
  const src = b.source as Json | undefined;
  return src?.type === 'base64' ? { mime: String(src.media_type), data: String(src.data) } : undefined;
};

export function readAnthropic(body: Json): Turn {
  const items: Item[] = [];
  for (const m of (body.messages ?? []) as Json[]) {
    // Claude Code's mid-conversation `system` messages (agent listings) are not the user's words.
    if (m.role === 'system') continue;
    const blocks: Json[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Json[]);
    for (const b of blocks) {
      if (m.role === 'assistant') {
        if (b.type === 'text') items.push({ kind: 'assistant', text: String(b.text) });
        if (b.type === 'tool_use')
          items.push({ kind: 'call', id: String(b.id), name: String(b.name), args: (b.input ?? {}) as Json });
        continue;
      }
      if (b.type === 'text') items.push({ kind: 'user', text: String(b.text), images: [] });
      if (b.type === 'image') items.push({ kind: 'user', text: '', images: [imageOf(b)].filter((i) => !!i) });
      if (b.type === 'tool_result') {
        const parts =
          typeof b.content === 'string' ? [{ type: 'text', text: b.content }] : ((b.content ?? []) as Json[]);
        items.push({
          kind: 'result',
          id: String(b.tool_use_id),
          text: textOf(parts.filter((p) => p.type === 'text')),
          images: parts.map((p) => (p.type === 'image' ? imageOf(p) : undefined)).filter((i) => !!i),
        });
      }
    }
  }
  const tools = ((body.tools ?? []) as Json[])
    .filter((t) => t.type === undefined || t.type === 'custom')
    .map((t) => ({ name: String(t.name), schema: (t.input_schema ?? {}) as Json }));
  const thinking = ['enabled', 'adaptive'].includes(String((body.thinking as Json | undefined)?.type));
  const format = ((body.output_config as Json | undefined)?.format ?? body.output_format) as Json | undefined;
  return { items, tools, thinking, jsonSchema: format?.type === 'json_schema' ? (format.schema as Json) : undefined };
}

export function answerAnthropic(res: ServerResponse, body: Json, turn: Turn, move: Move) {
  const content: Json[] = [];
  if (turn.thinking)
    content.push({ type: 'thinking', thinking: move.thinking, signature: signThinking(move.thinking) });
  const calls = turn.items.filter((i) => i.kind === 'call').length;
  if (move.call)
    content.push({ type: 'tool_use', id: `toolu_agent_${calls + 1}`, ...move.call, input: move.call.args });
  else content.push({ type: 'text', text: move.text ?? '' });
  for (const b of content) delete b.args;
  const message = {
    id: `msg_agent_${Date.now()}`,
    type: 'message',
    role: 'assistant',
    model: String(body.model),
    content,
    stop_reason: move.call ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: fakeNativePrompt(body.messages, body.system),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 12,
    },
  };
  if (body.stream !== true) return sendJson(res, 200, message);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (type: string, data: Json) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('message_start', {
    message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } },
  });
  content.forEach((b, index) => {
    if (b.type === 'thinking') {
      send('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      send('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: b.thinking } });
      send('content_block_delta', { index, delta: { type: 'signature_delta', signature: b.signature } });
    } else if (b.type === 'tool_use') {
      send('content_block_start', { index, content_block: { ...b, input: {} } });
      const json = JSON.stringify(b.input);
      for (const partial_json of [json.slice(0, 8), json.slice(8)])
        send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
    } else {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const text of String(b.text).match(/\S+\s*/g) ?? [])
        send('content_block_delta', { index, delta: { type: 'text_delta', text } });
    }
    send('content_block_stop', { index });
  });
  send('message_delta', {
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: 12 },
  });
  send('message_stop', {});
  res.end();
}
