import type { SseEvent, StreamConverter, Usage } from '../types.ts';
import { parseOpenAIUsage } from './usage.ts';

/**
 * OpenAI Responses streams pass through as frames (their `event:` names are part
 * of the protocol and there is no `[DONE]`); usage is read from `response.completed`
 * (or `.incomplete` / `.failed`), the produced text from the output deltas.
 */
export function createResponsesStreamConverter(): StreamConverter {
  let usage: Usage | undefined;
  const text: string[] = [];
  return {
    frames: true,
    push(e: SseEvent) {
      try {
        const ev = JSON.parse(e.data) as { type?: string; delta?: unknown; response?: { usage?: unknown } };
        if (typeof ev.delta === 'string') text.push(ev.delta);
        if (ev.response?.usage) usage = parseOpenAIUsage(ev.response.usage) ?? usage;
      } catch {
        // Forwarded untouched all the same.
      }
      return [`${e.event ? `event: ${e.event}\n` : ''}data: ${e.data}\n\n`];
    },
    end: () => [],
    usage: () => usage,
    producedText: () => text.join(''),
    errorFrames: (message) => [
      `event: error\ndata: ${JSON.stringify({ type: 'error', code: 'upstream_error', message, param: null })}\n\n`,
    ],
  };
}
