import type { ServerResponse } from 'node:http';
import { createAnthropicPromptCache } from './anthropic-cache.ts';
import type { FakeUpstream } from './server.ts';
import { redactedThinkingData, signThinking } from './strict/signatures.ts';
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
type Tool = { name?: string; input_schema?: { properties?: Record<string, { type?: string }> } };

/**
 * Answer-shaping tokens of the model name (besides native-http.ts's): `loop-<n>` calls a tool on
 * each of the first n-1 turns of a tool loop (default: one call, then text); `redacted` adds a
 * redacted_thinking block after the thinking.
 */
function answerTokens(model: string) {
  const parts = model.split('+');
  const loop = parts.map((p) => /^loop-(\d+)$/.exec(p)).find(Boolean);
  return { loop: loop ? Number(loop[1]) : 2, redacted: parts.includes('redacted') };
}

/** An input for a tool from its schema's properties (strings are "Paris", so get_weather asks for Paris). */
function sampleInput(tool: Tool): Record<string, unknown> {
  const props = tool.input_schema?.properties;
  if (!props || Object.keys(props).length === 0) return { location: 'Paris' };
  const sample = (t?: string) =>
    t === 'number' || t === 'integer' ? 1 : t === 'boolean' ? true : t === 'array' ? [] : t === 'object' ? {} : 'Paris';
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, sample(v?.type)]));
}

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
  // How many tool results the conversation holds: the loop's turn number.
  const results = messages
    .flatMap((m) => (Array.isArray(m.content) ? (m.content as { type?: string }[]) : []))
    .filter((c) => c.type === 'tool_result').length;
  const t = answerTokens(model);
  const tools = (body.tools ?? []) as Tool[];
  const choice = body.tool_choice as { type?: string; name?: string } | undefined;
  const thinking = (body.thinking as { type?: string } | undefined)?.type === 'enabled';
  const blocks: Record<string, unknown>[] = [];
  let output = 0;
  if (thinking) {
    // Signed like the real API's (strict/signatures.ts checks them when they come back).
    const text = results === 0 ? 'Let me think.' : `Let me think about result ${results}.`;
    blocks.push({ type: 'thinking', thinking: text, signature: signThinking(text) });
    if (t.redacted) blocks.push({ type: 'redacted_thinking', data: redactedThinkingData(`turn-${results}`) });
    output += 3;
  }
  let stop = 'end_turn';
  const forced = choice?.type === 'tool' || choice?.type === 'any';
  if (tools.length > 0 && choice?.type !== 'none' && (forced || !lastIsToolResult || results < t.loop - 1)) {
    const tool = (choice?.type === 'tool' && tools.find((x) => x.name === choice.name)) || tools[0];
    blocks.push({ type: 'tool_use', id: `toolu_fake${results + 1}`, name: tool.name, input: sampleInput(tool) });
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
  const cache = createAnthropicPromptCache();
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
    if (b.promptCache) Object.assign(message.usage, cache.account(key, body, message.usage.input_tokens));
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
    } else if (blk.type === 'redacted_thinking') {
      // Redacted thinking arrives whole in its start event, as the real API sends it.
      send('content_block_start', { index, content_block: blk });
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
