import { createParser } from 'eventsource-parser';

/*
 * Reads an OpenAI-style chat completion stream (server-sent events) from a fetch
 * body. No macros here: vitest imports it. The stream ends at `data: [DONE]`.
 */

export interface StreamCallbacks {
  /** Text (and reasoning text) to append to the answer. */
  onDelta(delta: { content?: string; reasoning?: string }): void;
}

export type StreamEnd = { kind: 'done' } | { kind: 'error'; message: string } | { kind: 'closed' };

interface ChunkChoice {
  delta?: { content?: string | null; reasoning_content?: string | null; reasoning?: string | null };
}
interface Chunk {
  choices?: ChunkChoice[];
  error?: { message?: string };
}

export async function readChatStream(body: ReadableStream<Uint8Array>, cb: StreamCallbacks): Promise<StreamEnd> {
  let end: StreamEnd | null = null;
  const parser = createParser({
    onEvent(event) {
      if (end) return;
      if (event.data.trim() === '[DONE]') {
        end = { kind: 'done' };
        return;
      }
      let chunk: Chunk;
      try {
        chunk = JSON.parse(event.data) as Chunk;
      } catch {
        // A keep-alive or a line we do not understand is not worth failing the answer for.
        return;
      }
      if (chunk.error) {
        end = { kind: 'error', message: chunk.error.message ?? event.data };
        return;
      }
      const delta = chunk.choices?.[0]?.delta;
      const content = delta?.content ?? undefined;
      const reasoning = delta?.reasoning_content ?? delta?.reasoning ?? undefined;
      if (content || reasoning) cb.onDelta({ content, reasoning });
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    while (!end) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    // Stop reading once [DONE] or an error arrived; the connection is not needed any more.
    if (end) await reader.cancel().catch(() => undefined);
  }
  return end ?? { kind: 'closed' };
}

/** The message of a non-2xx answer: OpenAI-shaped `{error:{message}}`, the envelope, or the text. */
export async function errorText(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const j = JSON.parse(text) as { error?: { message?: string }; message?: string };
    return j.error?.message ?? j.message ?? text;
  } catch {
    return text || `HTTP ${res.status}`;
  }
}
