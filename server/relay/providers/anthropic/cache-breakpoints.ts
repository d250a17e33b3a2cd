import type { AnthropicTurn, Block } from './messages.ts';

/*
 * Automatic prompt-cache breakpoints for a request converted to Anthropic (docs/conversion.md
 * § Anthropic; the channel switch is shared/channel-cache.ts). An OpenAI or Gemini client cannot
 * say where Anthropic should cache, so its stable prefix is marked for it, in this order while
 * breakpoints are left (Anthropic takes 4 a request):
 * 1. the last block of the last message: the whole conversation is written, and the next turn,
 *    which starts with it, reads it back;
 * 2. the end of the tools and system prompt (the system's last block, else the last tool): it
 *    stays cached when the conversation is edited or compacted;
 * 3. the last block before the latest assistant turn: where the previous request ended, so this
 *    one reads what it wrote even where the upstream does not look back from a later breakpoint
 *    (Bedrock).
 * The client's own breakpoints (cache_control on its parts) stay where they are and count; a spot
 * it already marked is not marked twice. Thinking blocks and empty text are never marked (Anthropic
 * refuses both), and a prefix too short to cache is the upstream's business: it ignores the mark.
 */

export const MAX_BREAKPOINTS = 4;
const EPHEMERAL = { type: 'ephemeral' } as const;

/** The parts of an Anthropic Messages body the breakpoints go on. */
export interface CacheableBody {
  system?: string | Block[];
  tools?: Block[];
  messages: AnthropicTurn[];
}

const marked = (b: Block) => b.cache_control !== undefined && b.cache_control !== null;

/** Breakpoints already in the body, counted as Anthropic counts them (tool_result contents included). */
export function countBreakpoints(body: CacheableBody): number {
  const count = (blocks: unknown): number =>
    Array.isArray(blocks) ? (blocks as Block[]).reduce((n, b) => n + (marked(b) ? 1 : 0) + count(b?.content), 0) : 0;
  return count(body.system) + count(body.tools) + body.messages.reduce((n, m) => n + count(m.content), 0);
}

/** A block a breakpoint may go on: not thinking, not an empty text. */
const markable = (b: Block) =>
  b.type !== 'thinking' && b.type !== 'redacted_thinking' && !(b.type === 'text' && !b.text);

/** The last markable block of messages[0..end), searching back across turns. */
function lastBlockBefore(messages: AnthropicTurn[], end: number): Block | undefined {
  for (let i = end - 1; i >= 0; i--) {
    const b = messages[i].content.findLast(markable);
    if (b) return b;
  }
  return undefined;
}

/** The block closing the tools and system prompt (a string system prompt becomes one block). */
function prefixEnd(body: CacheableBody): Block | undefined {
  if (typeof body.system === 'string' && body.system !== '') body.system = [{ type: 'text', text: body.system }];
  if (Array.isArray(body.system)) {
    const b = body.system.findLast(markable);
    if (b) return b;
  }
  return body.tools?.at(-1);
}

/** Marks the body's stable prefix in place (see above); returns how many breakpoints it added. */
export function placeCacheBreakpoints(body: CacheableBody): number {
  let left = MAX_BREAKPOINTS - countBreakpoints(body);
  if (left <= 0) return 0;
  const { messages } = body;
  const latestAssistant = messages.findLastIndex((m) => m.role === 'assistant');
  const candidates = [
    () => lastBlockBefore(messages, messages.length),
    () => prefixEnd(body),
    () => (latestAssistant > 0 ? lastBlockBefore(messages, latestAssistant) : undefined),
  ];
  let added = 0;
  for (const find of candidates) {
    if (left === 0) break;
    const b = find();
    if (!b || marked(b)) continue;
    b.cache_control = { ...EPHEMERAL };
    left--;
    added++;
  }
  return added;
}
