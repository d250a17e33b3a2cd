import type { ServerResponse } from 'node:http';
import type { FakeUpstream } from './server.ts';
import type { StrictValidator } from './strict/types.ts';
import { fakeNativePrompt, nativeBehaviour, PIECES, sendJson, sleep, startRecordingServer } from './native-http.ts';

/** Anthropic's real error bodies for the statuses the fake can produce. */
export function anthropicFailure(status: number) {
  const [type, message] =
    status === 529
      ? ['overloaded_error', 'Overloaded']
      : status === 401
        ? ['authentication_error', 'invalid x-api-key']
        : status === 400
          ? ['invalid_request_error', 'messages: at least one message is required']
          : status === 429
            ? ['rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit']
            : ['api_error', 'Internal server error'];
  return { type: 'error', error: { type, message } };
}

type Msg = { role?: string; content?: unknown };

/** The answer the fake gives to a Messages body (also what the Bedrock fake wraps). */
export function anthropicAnswer(
  body: Record<string, unknown>,
  b: ReturnType<typeof nativeBehaviour>,
  model = String(body.model ?? ''),
) {
  const messages = (body.messages ?? []) as Msg[];
  const last = messages.at(-1);
  const lastIsToolResult =
    Array.isArray(last?.content) && (last.content as { type?: string }[]).some((c) => c.type === 'tool_result');
  const tools = (body.tools ?? []) as { name?: string }[];
  const thinking = (body.thinking as { type?: string } | undefined)?.type === 'enabled';
  const blocks: Record<string, unknown>[] = [];
  let output = 0;
  if (thinking) {
    blocks.push({ type: 'thinking', thinking: 'Let me think.', signature: 'sig-fake' });
    output += 3;
  }
  let stop = 'end_turn';
  if (tools.length > 0 && !lastIsToolResult) {
    blocks.push({ type: 'tool_use', id: 'toolu_fake1', name: tools[0].name, input: { location: 'Paris' } });
    output += 7;
    stop = 'tool_use';
  } else {
    const limit = Number(body.max_tokens ?? 5) - output;
    const n = Math.max(0, Math.min(PIECES.length, limit));
    blocks.push({ type: 'text', text: PIECES.slice(0, n).join('') });
    output += n;
    if (n < PIECES.length) stop = 'max_tokens';
  }
  const usage = {
    input_tokens: fakeNativePrompt(messages, body.system),
    cache_creation_input_tokens: b.cacheWrite,
    cache_read_input_tokens: b.cacheRead,
    output_tokens: output,
  };
  return {
    id: 'msg_fake01',
    type: 'message',
    role: 'assistant',
    model,
    content: blocks,
    stop_reason: stop,
    stop_sequence: null,
    usage,
  };
}

/**
 * A fake Anthropic Messages API (`POST /v1/messages`, JSON and SSE; `/v1/messages/count_tokens`) with real event
 * sequences: text, tool_use (when tools are offered and the last turn is not a
 * tool result), thinking (when `thinking` is enabled), usage with cache tokens.
 * Output tokens: one per text piece, 3 for thinking, 7 for a tool call.
 */
export function startFakeAnthropic(port = 0, opts: { validate?: StrictValidator } = {}): Promise<FakeUpstream> {
  return startRecordingServer(async (req, res, body) => {
    // Strict mode (strict/index.ts): what the real API refuses is refused before any answer.
    const refusal = opts.validate?.(req.url ?? '', req.headers, body);
    if (refusal) return sendJson(res, refusal.status, refusal.body);
    const key = String(req.headers['x-api-key'] ?? '');
    const model = String(body.model ?? '');
    const b = nativeBehaviour(model, key);
    if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v1/messages'))
      return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'Not found' } });
    if (b.badKey) return sendJson(res, 401, anthropicFailure(401));
    if (b.failStatus) return sendJson(res, b.failStatus, anthropicFailure(b.failStatus));
    if (!req.headers['anthropic-version'])
      return sendJson(res, 400, {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' },
      });
    // Token counting: a deterministic count of the same prompt the answers' usage reports.
    if (req.url === '/v1/messages/count_tokens')
      return sendJson(res, 200, { input_tokens: fakeNativePrompt(body.messages, body.system) });
    const message = anthropicAnswer(body, b);
    if (body.stream !== true) return sendJson(res, 200, message);
    await streamMessage(res, message, b.resetMidStream);
  }, port);
}

type AnthropicAnswer = ReturnType<typeof anthropicAnswer>;

async function streamMessage(res: ServerResponse, m: AnthropicAnswer, reset: boolean) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const e of anthropicStreamEvents(m)) {
    if (reset && e.type === 'message_delta') {
      // Let the content reach the client before the connection dies.
      await sleep(30);
      return void res.socket?.destroy();
    }
    res.write(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
  }
  res.end();
}

/** Anthropic's streaming event sequence for an answer, each event with its `type`. */
export function anthropicStreamEvents(m: AnthropicAnswer): ({ type: string } & Record<string, unknown>)[] {
  const events: ({ type: string } & Record<string, unknown>)[] = [];
  const send = (type: string, data: object) => events.push({ type, ...data });
  send('message_start', { message: { ...m, content: [], stop_reason: null, usage: { ...m.usage, output_tokens: 1 } } });
  send('ping', {});
  m.content.forEach((blk, index) => {
    if (blk.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const p of (blk.text as string).match(/\S+ /g) ?? [])
        send('content_block_delta', { index, delta: { type: 'text_delta', text: p } });
    } else if (blk.type === 'thinking') {
      send('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      send('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: blk.thinking } });
      send('content_block_delta', { index, delta: { type: 'signature_delta', signature: blk.signature } });
    } else {
      send('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: blk.id, name: blk.name, input: {} },
      });
      const json = JSON.stringify(blk.input);
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(0, 5) } });
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(5) } });
    }
    send('content_block_stop', { index });
  });
  send('message_delta', {
    delta: { stop_reason: m.stop_reason, stop_sequence: null },
    usage: { output_tokens: m.usage.output_tokens },
  });
  send('message_stop', {});
  return events;
}
