import type { StreamConverter } from '../../providers/types.ts';
import { type CanonicalChunk, reencodeStream } from '../canonical-stream.ts';
import { anthropicUsageOf, stopReasonOf } from './response.ts';

export const frame = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

export const anthropicErrorFrames = (message: string) => [frame('error', { error: { type: 'api_error', message } })];

/**
 * Canonical OpenAI chunks (from any adapter's converter) -> Anthropic SSE events:
 * message_start and a ping first, one content block per kind (thinking, text, each
 * tool call) with its deltas, then message_delta (stop reason, usage) and
 * message_stop once the inner stream is done (usage arrives after the finish reason).
 */
export function toAnthropicStream(inner: StreamConverter, model: string): StreamConverter {
  let started = false;
  let finished = false;
  let block = -1;
  let kind: 'text' | 'thinking' | 'tool' | '' = '';
  let stop = 'end_turn';
  const toolBlocks = new Map<number, number>();

  const open = (out: string[], k: typeof kind, content: object) => {
    if (kind !== '') out.push(frame('content_block_stop', { index: block }));
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
      usage: { input_tokens: 0, output_tokens: 0 },
    };
    out.push(frame('message_start', { message }), frame('ping', {}));
  };

  const finish = (out: string[]) => {
    if (finished) return;
    finished = true;
    start(out);
    if (kind !== '') out.push(frame('content_block_stop', { index: block }));
    out.push(
      frame('message_delta', {
        delta: { stop_reason: stop, stop_sequence: null },
        usage: anthropicUsageOf(inner.usage()),
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
        out.push(
          frame('content_block_delta', {
            index: block,
            delta: { type: 'thinking_delta', thinking: d.reasoning_content },
          }),
        );
      }
      if (d.content) {
        if (kind !== 'text') open(out, 'text', { type: 'text', text: '' });
        out.push(frame('content_block_delta', { index: block, delta: { type: 'text_delta', text: d.content } }));
      }
      for (const t of d.tool_calls ?? []) {
        const i = t.index ?? 0;
        if (!toolBlocks.has(i) || t.id) {
          open(out, 'tool', { type: 'tool_use', id: t.id ?? `toolu_${i}`, name: t.function?.name ?? '', input: {} });
          toolBlocks.set(i, block);
        }
        if (t.function?.arguments)
          out.push(
            frame('content_block_delta', {
              index: toolBlocks.get(i),
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
