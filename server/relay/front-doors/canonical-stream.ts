import type { SseEvent, StreamConverter } from '../providers/types.ts';

/** A chat chunk as every adapter's stream converter emits it (OpenAI's shape). */
export interface CanonicalChunk {
  id?: string;
  choices?: {
    finish_reason?: string | null;
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
  }[];
  error?: { message?: string; type?: string };
}

/** What a native front door does with the canonical stream, in its own wire format. */
export interface DoorStreamWriter {
  chunk(c: CanonicalChunk, out: string[]): void;
  /** An error chunk (the relay's mid-stream failure). */
  error(e: NonNullable<CanonicalChunk['error']>, out: string[]): void;
  /** The end: called for `[DONE]` and again when the inner stream ends; must act once. */
  finish(out: string[]): void;
  errorFrames(message: string): string[];
}

/**
 * Wraps an adapter's converter (upstream wire -> canonical chunks) so a front door
 * (Anthropic, Gemini) re-encodes each canonical chunk in its own frames. The parsing
 * of the canonical payloads and the converter plumbing live here once.
 */
export function reencodeStream(inner: StreamConverter, w: DoorStreamWriter): StreamConverter {
  const translate = (payload: string, out: string[]) => {
    if (payload === '[DONE]') return w.finish(out);
    let c: CanonicalChunk;
    try {
      c = JSON.parse(payload) as CanonicalChunk;
    } catch {
      return;
    }
    if (c.error) w.error(c.error, out);
    else w.chunk(c, out);
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
      w.finish(out);
      return out;
    },
    usage: () => inner.usage(),
    producedText: () => inner.producedText(),
    errorFrames: w.errorFrames,
    decode: inner.decode?.bind(inner),
  };
}
