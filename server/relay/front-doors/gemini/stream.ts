import type { StreamConverter } from '../../providers/types.ts';
import { type CanonicalChunk, reencodeStream } from '../canonical-stream.ts';
import {
  type CanonicalToolCallOut,
  finishReasonOf,
  functionCallPart,
  logprobsResultOf,
  usageMetadataOf,
} from './response.ts';

export const geminiErrorFrames = (message: string) => [
  `data: ${JSON.stringify({ error: { code: 502, message, status: 'UNAVAILABLE' } })}\n\n`,
];

/** A canonical chunk as read here: choices by index, signatures on tool calls, the usage chunk. */
type Chunk = Omit<CanonicalChunk, 'choices'> & {
  choices?: {
    index?: number;
    finish_reason?: string | null;
    logprobs?: Parameters<typeof logprobsResultOf>[0];
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: (CanonicalToolCallOut & { index?: number })[];
    };
  }[];
  usage?: { completion_tokens_details?: { reasoning_tokens?: number } } | null;
};

interface Candidate {
  finish: string;
  calls: Map<number, { id: string; name: string; args: string; signature?: string }>;
}

/**
 * Canonical OpenAI chunks -> Gemini SSE (`data:` frames, no end marker), each choice as the candidate
 * of its index (n > 1): text and thoughts as they come; tool calls gathered and sent whole (Gemini
 * sends complete functionCall parts) with their ids and signatures; the last frame carries every
 * candidate's finishReason and the usageMetadata (thoughtsTokenCount apart).
 */
export function toGeminiStream(inner: StreamConverter, model: string): StreamConverter {
  let finished = false;
  let reasoningTokens = 0;
  const candidates = new Map<number, Candidate>([[0, { finish: 'STOP', calls: new Map() }]]);
  const candidateOf = (i: number) => {
    let c = candidates.get(i);
    if (!c) candidates.set(i, (c = { finish: 'STOP', calls: new Map() }));
    return c;
  };
  const frame = (list: Record<string, unknown>[], last = false) =>
    `data: ${JSON.stringify({
      candidates: list,
      ...(last ? { usageMetadata: usageMetadataOf(inner.usage(), reasoningTokens) } : {}),
      modelVersion: model,
    })}\n\n`;
  const piece = (index: number, parts: unknown[], extra = {}) => ({
    content: { role: 'model', parts },
    index,
    ...extra,
  });

  const close = (out: string[]) => {
    if (finished) return;
    finished = true;
    const list = [...candidates.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) =>
        piece(
          index,
          [...c.calls.values()].map((t) =>
            functionCallPart({
              id: t.id,
              function: { name: t.name, arguments: t.args },
              thought_signature: t.signature,
            }),
          ),
          { finishReason: c.finish },
        ),
      );
    out.push(frame(list, true));
  };

  const chunk = (raw: CanonicalChunk, out: string[]) => {
    const c = raw as Chunk;
    const reasoning = c.usage?.completion_tokens_details?.reasoning_tokens;
    if (typeof reasoning === 'number') reasoningTokens = reasoning;
    for (const [i, ch] of (c.choices ?? []).entries()) {
      const index = ch.index ?? i;
      const cand = candidateOf(index);
      const d = ch.delta ?? {};
      const thought = d.reasoning_content ?? d.reasoning;
      if (thought) out.push(frame([piece(index, [{ text: thought, thought: true }])]));
      if (d.content) {
        const logprobsResult = logprobsResultOf(ch.logprobs);
        out.push(frame([piece(index, [{ text: d.content }], logprobsResult ? { logprobsResult } : {})]));
      }
      for (const t of d.tool_calls ?? []) {
        const cur = cand.calls.get(t.index ?? 0) ?? { id: '', name: '', args: '' };
        // A provider may repeat the id and name on every delta: the first ones stand.
        cur.id ||= t.id ?? '';
        cur.name ||= t.function?.name ?? '';
        cur.args += t.function?.arguments ?? '';
        cur.signature ??= t.thought_signature;
        cand.calls.set(t.index ?? 0, cur);
      }
      if (ch.finish_reason) cand.finish = finishReasonOf(ch.finish_reason);
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
