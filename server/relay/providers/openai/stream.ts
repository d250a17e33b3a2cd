import type { SseEvent, StreamConverter, Usage } from '../types.ts';
import { parseOpenAIUsage } from './usage.ts';

interface Chunk {
  choices?: {
    text?: string;
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      tool_calls?: { function?: { arguments?: string } }[];
    };
  }[];
  usage?: unknown;
}

/**
 * OpenAI-compatible streams pass through as they came (the original `data`
 * string is forwarded untouched), except usage: the gateway always asks for it,
 * so the usage chunk is dropped — or the `usage` field removed — when the client
 * did not ask. A stream that ends without `[DONE]` gets one.
 */
export function createOpenAIStreamConverter(clientWantsUsage: boolean): StreamConverter {
  let usage: Usage | undefined;
  let done = false;
  const text: string[] = [];

  return {
    push(event: SseEvent): string[] {
      const data = event.data;
      if (data === '[DONE]') {
        done = true;
        return ['[DONE]'];
      }
      let chunk: Chunk;
      try {
        chunk = JSON.parse(data) as Chunk;
      } catch {
        return [data];
      }
      for (const c of chunk.choices ?? []) {
        if (typeof c.text === 'string') text.push(c.text);
        const d = c.delta;
        if (!d) continue;
        if (typeof d.content === 'string') text.push(d.content);
        if (typeof d.reasoning_content === 'string') text.push(d.reasoning_content);
        for (const t of d.tool_calls ?? [])
          if (typeof t.function?.arguments === 'string') text.push(t.function.arguments);
      }
      if (chunk.usage) {
        usage = parseOpenAIUsage(chunk.usage) ?? usage;
        if (!clientWantsUsage) {
          if (!chunk.choices || chunk.choices.length === 0) return [];
          delete chunk.usage;
          return [JSON.stringify(chunk)];
        }
      }
      return [data];
    },
    end: () => (done ? [] : ['[DONE]']),
    usage: () => usage,
    producedText: () => text.join(''),
  };
}
