import { nowSeconds } from '../../../db/time.ts';
import type { SseEvent, StreamConverter, Usage } from '../types.ts';
import { usageChunk } from './canonical-chunks.ts';

/*
 * Canonical answers for providers whose answer is text (and maybe reasoning) with a usage block:
 * the legacy Chinese APIs, app platforms, knowledge bases. Their adapters read their own wire format
 * into `TextPiece`s; the OpenAI chat shapes (JSON and chunks) are built here once.
 */

/** What one upstream event (or a whole answer) carried. */
export interface TextPiece {
  content?: string;
  reasoning?: string;
  /** An OpenAI finish reason (`stop`, `length`, `content_filter`). */
  finish?: string;
  usage?: Usage;
  /** An error inside the stream: ends it with an error payload in OpenAI's shape. */
  error?: { message: string; type?: string };
}

/** Usage in OpenAI's chat shape. */
export const openAIUsage = (u: Usage) => ({
  prompt_tokens: u.promptTokens,
  completion_tokens: u.completionTokens,
  total_tokens: u.promptTokens + u.completionTokens,
  ...(u.cachedTokens ? { prompt_tokens_details: { cached_tokens: u.cachedTokens } } : {}),
  ...(u.reasoningTokens ? { completion_tokens_details: { reasoning_tokens: u.reasoningTokens } } : {}),
});

/** Usage from prompt and completion counts (the common case of these providers). */
export const plainUsage = (promptTokens: number, completionTokens: number): Usage => ({
  promptTokens,
  completionTokens,
  cachedTokens: 0,
  cacheCreationTokens: 0,
});

/**
 * A whole answer as an OpenAI chat completion. Without usage in the piece, `count` (the relay's own
 * count, AttemptContext.countUsage) gives it; without either the relay counts for billing only.
 */
export function textCompletion(
  model: string,
  piece: TextPiece,
  count?: (produced: string) => Usage,
  id = `chatcmpl-${Date.now()}`,
) {
  const produced = `${piece.reasoning ?? ''}${piece.content ?? ''}`;
  const usage = piece.usage ?? count?.(produced);
  const message: Record<string, unknown> = { role: 'assistant', content: piece.content ?? '' };
  if (piece.reasoning) message.reasoning_content = piece.reasoning;
  const body = {
    id,
    object: 'chat.completion',
    created: nowSeconds(),
    model,
    choices: [{ index: 0, message, finish_reason: piece.finish ?? 'stop' }],
    ...(usage ? { usage: openAIUsage(usage) } : {}),
  };
  return { body: JSON.stringify(body), usage, produced };
}

/**
 * A stream converter for a text provider: `read` turns each upstream event into pieces; the chunks
 * start with the assistant role, carry content / reasoning_content deltas, one finish reason, and end
 * with the usage chunk (when the client asked) and [DONE]. The last usage seen wins; with none, `count`
 * (the relay's own count, AttemptContext.countUsage) gives it at the end.
 */
export function createTextStreamConverter(
  model: string,
  clientWantsUsage: boolean,
  read: (e: SseEvent) => TextPiece[],
  count?: (produced: string) => Usage,
): StreamConverter {
  const id = `chatcmpl-${Date.now()}`;
  const created = nowSeconds();
  let started = false;
  let finished = false;
  let done = false;
  let usage: Usage | undefined;
  const text: string[] = [];
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  const tail = () => {
    const out: string[] = [];
    if (!finished) out.push(chunk({}, 'stop'));
    finished = true;
    usage ??= count?.(text.join(''));
    if (clientWantsUsage && usage) out.push(usageChunk(id, created, model, openAIUsage(usage)));
    out.push('[DONE]');
    done = true;
    return out;
  };
  return {
    push(e) {
      if (done) return [];
      const out: string[] = [];
      for (const p of read(e)) {
        if (p.error) {
          done = true;
          out.push(
            JSON.stringify({ error: { message: p.error.message, type: p.error.type ?? 'upstream_error' } }),
            '[DONE]',
          );
          return out;
        }
        if (!started) {
          started = true;
          out.push(chunk({ role: 'assistant', content: '' }));
        }
        if (p.usage) usage = p.usage;
        if (p.reasoning) {
          text.push(p.reasoning);
          out.push(chunk({ reasoning_content: p.reasoning }));
        }
        if (p.content) {
          text.push(p.content);
          out.push(chunk({ content: p.content }));
        }
        if (p.finish && !finished) {
          finished = true;
          out.push(chunk({}, p.finish));
        }
      }
      return out;
    },
    end: () => (done ? [] : tail()),
    usage: () => usage,
    producedText: () => text.join(''),
  };
}

export interface TextMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The text of an OpenAI message content (a string or parts); images and files are left out. */
export const contentText = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? (content as { type?: string; text?: unknown }[])
          .map((p) => (p?.type === 'text' && typeof p.text === 'string' ? p.text : ''))
          .join('')
      : '';

/**
 * A canonical conversation as the plain text turns a text-only API takes: `developer` counts as
 * system; a tool result is a user turn quoting it (these APIs have no tool role).
 */
export function textMessages(messages: unknown): TextMessage[] {
  if (!Array.isArray(messages)) return [];
  return (messages as { role?: string; content?: unknown }[]).map((m) => {
    const content = contentText(m.content);
    if (m.role === 'system' || m.role === 'developer') return { role: 'system', content };
    if (m.role === 'assistant') return { role: 'assistant', content };
    if (m.role === 'tool') return { role: 'user', content: `Tool result: ${content}` };
    return { role: 'user', content };
  });
}
