import type { StreamConverter } from '../../providers/types.ts';
import { type CanonicalChunk, reencodeStream } from '../canonical-stream.ts';
import { argsOf, finishReasonOf, usageMetadataOf } from './response.ts';

export const geminiErrorFrames = (message: string) => [
  `data: ${JSON.stringify({ error: { code: 502, message, status: 'UNAVAILABLE' } })}\n\n`,
];

/**
 * Canonical OpenAI chunks -> Gemini SSE (`data:` frames, no end marker): text and
 * thoughts as they come; tool calls are gathered and sent whole (Gemini sends
 * complete functionCall parts); the last frame carries finishReason and usageMetadata.
 */
export function toGeminiStream(inner: StreamConverter, model: string): StreamConverter {
  let finish = 'STOP';
  let finished = false;
  const calls = new Map<number, { name: string; args: string }>();
  const frame = (parts: unknown[], last = false) =>
    `data: ${JSON.stringify({
      candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: finish } : {}) }],
      ...(last ? { usageMetadata: usageMetadataOf(inner.usage()) } : {}),
      modelVersion: model,
    })}\n\n`;

  const close = (out: string[]) => {
    if (finished) return;
    finished = true;
    const parts = [...calls.values()].map((c) => ({ functionCall: { name: c.name, args: argsOf(c.args) } }));
    out.push(frame(parts, true));
  };

  const chunk = (c: CanonicalChunk, out: string[]) => {
    for (const ch of c.choices ?? []) {
      const d = ch.delta ?? {};
      if (d.reasoning_content) out.push(frame([{ text: d.reasoning_content, thought: true }]));
      if (d.content) out.push(frame([{ text: d.content }]));
      for (const t of d.tool_calls ?? []) {
        const cur = calls.get(t.index ?? 0) ?? { name: '', args: '' };
        cur.name += t.function?.name ?? '';
        cur.args += t.function?.arguments ?? '';
        calls.set(t.index ?? 0, cur);
      }
      if (ch.finish_reason) finish = finishReasonOf(ch.finish_reason);
    }
  };

  return reencodeStream(inner, {
    chunk,
    error(e, out) {
      finished = true;
      out.push(...geminiErrorFrames(e.message ?? 'upstream error'));
    },
    finish: close,
    errorFrames: geminiErrorFrames,
  });
}
