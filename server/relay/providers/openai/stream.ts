import type { CarryStore } from '../../canonical/carry.ts';
import { reasoningTextOf } from '../../canonical/reasoning-spellings.ts';
import type { SseEvent, StreamConverter, Usage } from '../types.ts';
import { createStreamReasoningReader } from './reasoning-field.ts';
import { createThinkingRewriter, type StreamChunk } from './thinking.ts';
import { parseOpenAIUsage } from './usage.ts';

interface Chunk extends StreamChunk {
  choices?: {
    index?: number;
    finish_reason?: string | null;
    text?: string;
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      reasoning_details?: unknown;
      tool_calls?: { id?: string; function?: { arguments?: string } }[];
    };
  }[];
  usage?: unknown;
}

/**
 * OpenAI-compatible streams pass through as they came (the original `data`
 * string is forwarded untouched), except usage: the gateway always asks for it,
 * so the usage chunk is dropped — or the `usage` field removed — when the client
 * did not ask. A stream that ends without `[DONE]` gets one. With `thinkingToContent`
 * (the channel's thinking_to_content setting, thinking.ts) reasoning deltas are
 * rewritten into <think> content; the text counted for billing stays the upstream's. With
 * `carry` (a client of another dialect) reasoning in any spelling becomes `reasoning_content` and
 * the turn's `reasoning_details` are remembered under its tool calls (reasoning-field.ts).
 */
export function createOpenAIStreamConverter(
  clientWantsUsage: boolean,
  thinkingToContent = false,
  carry?: CarryStore,
): StreamConverter {
  let usage: Usage | undefined;
  let done = false;
  const text: string[] = [];
  const thinking = thinkingToContent ? createThinkingRewriter() : undefined;
  const reasoning = carry ? createStreamReasoningReader(carry) : undefined;
  /** The closing </think> of a stream that ended in reasoning without a finish_reason. */
  const closeThinking = (): string[] => {
    const tail = thinking?.close();
    return tail ? [tail] : [];
  };

  return {
    push(event: SseEvent): string[] {
      const data = event.data;
      if (data === '[DONE]') {
        done = true;
        reasoning?.end();
        return [...closeThinking(), '[DONE]'];
      }
      let chunk: Chunk;
      try {
        chunk = JSON.parse(data) as Chunk;
      } catch {
        return [data];
      }
      let renamed = false;
      for (const c of chunk.choices ?? []) {
        if (typeof c.text === 'string') text.push(c.text);
        const d = c.delta;
        if (!d) continue;
        if (typeof d.content === 'string') text.push(d.content);
        text.push(reasoningTextOf(d));
        for (const t of d.tool_calls ?? [])
          if (typeof t.function?.arguments === 'string') text.push(t.function.arguments);
        if (reasoning?.delta(c.index ?? 0, d)) renamed = true;
        if (c.finish_reason) reasoning?.finish(c.index ?? 0);
      }
      const rewritten = thinking !== undefined && thinking.rewrite(chunk);
      // The usage-only chunk ends the answer: a <think> still open is closed before it.
      const head = thinking !== undefined && !chunk.choices?.length ? thinking.close() : undefined;
      if (chunk.usage) {
        usage = parseOpenAIUsage(chunk.usage) ?? usage;
        if (!clientWantsUsage) {
          if (!chunk.choices || chunk.choices.length === 0) return head ? [head] : [];
          delete chunk.usage;
          return [JSON.stringify(chunk)];
        }
      }
      const out = rewritten || renamed ? JSON.stringify(chunk) : data;
      return head ? [head, out] : [out];
    },
    end: () => {
      reasoning?.end();
      return done ? [] : [...closeThinking(), '[DONE]'];
    },
    usage: () => usage,
    producedText: () => text.join(''),
  };
}
