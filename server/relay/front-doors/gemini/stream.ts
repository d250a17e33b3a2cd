import type { SseEvent, StreamConverter } from '../../providers/types.ts';
import { argsOf, finishReasonOf, usageMetadataOf } from './response.ts';

interface Chunk {
  choices?: {
    finish_reason?: string | null;
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      tool_calls?: { index?: number; function?: { name?: string; arguments?: string } }[];
    };
  }[];
  error?: { message?: string };
}

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

  const translate = (payload: string, out: string[]) => {
    if (payload === '[DONE]') return close(out);
    let c: Chunk;
    try {
      c = JSON.parse(payload) as Chunk;
    } catch {
      return;
    }
    if (c.error) {
      finished = true;
      out.push(...geminiErrorFrames(c.error.message ?? 'upstream error'));
      return;
    }
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

  return {
    frames: true,
    push(e: SseEvent) {
      const out: string[] = [];
      for (const p of inner.push(e)) translate(p, out);
      return out;
    },
    end() {
      const out: string[] = [];
      for (const p of inner.end()) translate(p, out);
      close(out);
      return out;
    },
    usage: () => inner.usage(),
    producedText: () => inner.producedText(),
    errorFrames: geminiErrorFrames,
  };
}
