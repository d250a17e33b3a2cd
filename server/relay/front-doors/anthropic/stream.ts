import type { StreamConverter } from '../../providers/types.ts';
import { type CanonicalChunk, reencodeStream } from '../canonical-stream.ts';
import { GATEWAY_SIGNATURE } from './request.ts';
import { anthropicUsageOf, stopReasonOf } from './response.ts';

export const frame = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

export const anthropicErrorFrames = (message: string) => [frame('error', { error: { type: 'api_error', message } })];

/**
 * Canonical OpenAI chunks (from any adapter's converter) -> Anthropic SSE events:
 * message_start (input_tokens: the prompt as the gateway counts it, `promptTokens`) and a ping
 * first, one content block per kind (thinking, text, each tool call by its index) with its
 * deltas, then message_delta (stop reason, the upstream's usage) and message_stop once the inner
 * stream is done (usage arrives after the finish reason).
 */
export function toAnthropicStream(inner: StreamConverter, model: string, promptTokens = () => 0): StreamConverter {
  let started = false;
  let finished = false;
  let block = -1;
  let kind: 'text' | 'thinking' | 'tool' | '' = '';
  let stop = 'end_turn';
  /** Tool calls by their OpenAI index: the content block they stream into and the id it opened with. */
  const toolBlocks = new Map<number, { block: number; id?: string }>();

  const close = (out: string[]) => {
    if (kind === '') return;
    // Anthropic clients expect a signature on every thinking block: the gateway's own (request.ts).
    if (kind === 'thinking')
      out.push(
        frame('content_block_delta', {
          index: block,
          delta: { type: 'signature_delta', signature: GATEWAY_SIGNATURE },
        }),
      );
    out.push(frame('content_block_stop', { index: block }));
  };

  const open = (out: string[], k: typeof kind, content: object) => {
    close(out);
    block++;
    kind = k;
    out.push(frame('content_block_start', { index: block, content_block: content }));
  };

  const start = (out: string[], id?: string) => {
    if (started) return;
    started = true;
    const msgId = id?.startsWith('msg_') ? id : `msg_${id ?? Date.now()}`;
    const message = {
      id: msgId,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: promptTokens(), output_tokens: 0 },
    };
    out.push(frame('message_start', { message }), frame('ping', {}));
  };

  const finish = (out: string[]) => {
    if (finished) return;
    finished = true;
    start(out);
    close(out);
    // message_delta's counts are cumulative: the upstream's input count replaces message_start's estimate.
    out.push(
      frame('message_delta', {
        delta: { stop_reason: stop, stop_sequence: null },
        usage: anthropicUsageOf(inner.usage(), promptTokens()),
      }),
    );
    out.push(frame('message_stop', {}));
  };

  const chunk = (c: CanonicalChunk, out: string[]) => {
    start(out, c.id);
    for (const ch of c.choices ?? []) {
      const d = ch.delta ?? {};
      if (d.reasoning_content) {
        if (kind !== 'thinking') open(out, 'thinking', { type: 'thinking', thinking: '', signature: '' });
        const delta = { type: 'thinking_delta', thinking: d.reasoning_content };
        out.push(frame('content_block_delta', { index: block, delta }));
      }
      if (d.content) {
        if (kind !== 'text') open(out, 'text', { type: 'text', text: '' });
        out.push(frame('content_block_delta', { index: block, delta: { type: 'text_delta', text: d.content } }));
      }
      for (const t of d.tool_calls ?? []) {
        const i = t.index ?? 0;
        const known = toolBlocks.get(i);
        // A call is keyed by its index: some providers repeat the id on every chunk of the same call,
        // which must not open a block per chunk; a different id at a known index is a new call.
        if (!known || (t.id && known.id && t.id !== known.id)) {
          open(out, 'tool', { type: 'tool_use', id: t.id ?? `toolu_${i}`, name: t.function?.name ?? '', input: {} });
          toolBlocks.set(i, { block, id: t.id });
        }
        if (t.function?.arguments)
          out.push(
            frame('content_block_delta', {
              index: toolBlocks.get(i)!.block,
              delta: { type: 'input_json_delta', partial_json: t.function.arguments },
            }),
          );
      }
      if (ch.finish_reason) stop = stopReasonOf(ch.finish_reason);
    }
  };

  return reencodeStream(inner, {
    chunk,
    error(e, out) {
      finished = true;
      out.push(frame('error', { error: { type: e.type ?? 'api_error', message: e.message ?? '' } }));
    },
    finish,
    errorFrames: anthropicErrorFrames,
  });
}
