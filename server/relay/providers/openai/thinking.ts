import { hasVendorSpelling, type Reasoned as Spelled, reasoningTextOf } from '../../canonical/reasoning-spellings.ts';
import type { AttemptContext } from '../types.ts';

/*
 * relay.md §8, "channel option to turn reasoning into <think> text": a channel whose settings
 * JSON says `{"thinking_to_content": true}` (new-api's key) gives OpenAI chat clients the
 * upstream's reasoning (in any spelling: `reasoning_content`, `reasoning`, `reasoning_details`,
 * canonical/reasoning-spellings.ts) inside `content`, between <think> tags, for clients that only
 * show content. The Anthropic
 * and Gemini front doors have thinking blocks of their own and keep them. Billing is untouched:
 * usage is the upstream's, and an answer without usage is counted from the upstream's own text.
 */

export const THINK_OPEN = '<think>\n';
export const THINK_CLOSE = '\n</think>\n\n';

/** Whether this attempt's chat answer gets its reasoning moved into content. */
export const thinkingToContent = (ctx: AttemptContext): boolean =>
  ctx.mode === 'chat' && ctx.clientProtocol === undefined && ctx.channel.setting.thinking_to_content === true;

/** A chat message or stream delta, as far as reasoning goes. */
interface Reasoned extends Spelled {
  content?: unknown;
}

/** Removes the reasoning fields; true when there were any. */
function dropReasoning(o: Reasoned): boolean {
  if (!('reasoning_content' in o) && !hasVendorSpelling(o)) return false;
  delete o.reasoning_content;
  delete o.reasoning;
  delete o.reasoning_details;
  return true;
}

/**
 * A non-streamed message: content becomes `<think>\n{reasoning}\n</think>\n\n{content}` and the
 * reasoning field goes. Returns whether the message changed. A message whose content is not text
 * (or null) is left as it came.
 */
export function reasoningIntoContent(m: Reasoned): boolean {
  if (m.content !== undefined && m.content !== null && typeof m.content !== 'string') return false;
  const reasoning = reasoningTextOf(m);
  const dropped = dropReasoning(m);
  if (reasoning === '') return dropped;
  m.content = `${THINK_OPEN}${reasoning}${THINK_CLOSE}${m.content ?? ''}`;
  return true;
}

interface StreamChoice {
  index?: number;
  delta?: Reasoned;
  finish_reason?: string | null;
}

export interface StreamChunk {
  id?: unknown;
  created?: unknown;
  model?: unknown;
  choices?: StreamChoice[];
}

/**
 * Rewrites a chat stream's chunks, one instance per stream: the first reasoning delta of a choice
 * opens `<think>\n`, reasoning deltas go out as content deltas, and `\n</think>\n\n` goes before the
 * choice's first real content (or with its finish_reason when it ends in reasoning). `close()`
 * covers an upstream that stops without a finish_reason.
 */
export function createThinkingRewriter() {
  /** Choice indexes whose <think> is open. */
  const open = new Set<number>();
  let last: StreamChunk = {};

  return {
    /** Rewrites the chunk in place; true when it changed. */
    rewrite(chunk: StreamChunk): boolean {
      last = chunk;
      let changed = false;
      for (const c of chunk.choices ?? []) {
        const i = c.index ?? 0;
        const d: Reasoned = c.delta ?? {};
        const reasoning = reasoningTextOf(d);
        if (dropReasoning(d)) changed = true;
        let prefix = '';
        if (reasoning !== '') {
          if (!open.has(i)) prefix = THINK_OPEN;
          open.add(i);
          prefix += reasoning;
        }
        const content = typeof d.content === 'string' ? d.content : '';
        if (open.has(i) && (content !== '' || c.finish_reason)) {
          prefix += THINK_CLOSE;
          open.delete(i);
        }
        if (prefix !== '') {
          d.content = prefix + content;
          c.delta = d;
          changed = true;
        }
      }
      return changed;
    },

    /** A chunk closing every <think> still open (serialised), or undefined when none is. */
    close(): string | undefined {
      if (open.size === 0) return undefined;
      const choices = [...open].map((index) => ({ index, delta: { content: THINK_CLOSE }, finish_reason: null }));
      open.clear();
      const { id, created, model } = last;
      return JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices });
    },
  };
}
