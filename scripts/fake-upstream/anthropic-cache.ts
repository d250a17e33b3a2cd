import { createHash, type Hash } from 'node:crypto';

/*
 * Anthropic's prompt cache as the fake Anthropic upstream models it, when the model name or the key
 * holds the token `prompt-cache` (native-http.ts): a minimal model of the documented rules, so a
 * test can see breakpoints pay off turn after turn.
 * - The prompt is read in Anthropic's order, tools, then system, then messages, one block at a time.
 * - A block with `cache_control` is a breakpoint: the prefix up to and including it is written to
 *   the cache (scoped to the API key and the model, as caches are per organisation and model).
 * - A request reads the longest cached prefix that ends at one of its breakpoints or at one of the
 *   20 block boundaries before each (Anthropic's lookback), and writes from there to its last
 *   breakpoint. Entries never expire (tests are shorter than the 5-minute lifetime).
 * - Tokens follow fakeNativePrompt (native-http.ts): 3 for the request, 3 a message, a token per
 *   4 characters of text; tools count nothing there, so a prefix ending in tools is 3 tokens. The
 *   request's total stays what the fake reports without caching, split into input, read and write.
 * No minimum cacheable length: a breakpoint on a short prefix caches it (the real API ignores it).
 */

export interface CacheSplit {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

const LOOKBACK = 20;

type Json = Record<string, unknown>;

/** One block of the prompt in Anthropic's order, with what it adds to the token count. */
interface Boundary {
  hash: string;
  tokens: number;
  breakpoint: boolean;
}

const textLength = (v: unknown): number => {
  if (typeof v === 'string') return v.length;
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + textLength(x), 0);
  if (v && typeof v === 'object')
    return Object.entries(v).reduce(
      (n, [k, x]) => n + (k === 'text' || k === 'content' || k === 'parts' ? textLength(x) : 0),
      0,
    );
  return 0;
};

/** The block without its cache_control: moving a breakpoint does not change what is cached. */
const withoutMark = (b: unknown): unknown => {
  if (!b || typeof b !== 'object' || Array.isArray(b)) return b;
  const { cache_control: _, ...rest } = b as Json;
  if (Array.isArray(rest.content)) rest.content = rest.content.map(withoutMark);
  return rest;
};

/** The prompt's block boundaries, each with the hash of the prefix ending there and its token count. */
function boundaries(body: Json, total: number): Boundary[] {
  const out: Boundary[] = [];
  const hash: Hash = createHash('sha256');
  let chars = 0;
  let messagesBegun = 0;
  const add = (section: string, block: unknown) => {
    hash.update(`${section}\u0000${JSON.stringify(withoutMark(block))}\u0001`);
    if (section !== 'tools') chars += textLength(block);
    const tokens = Math.min(total, 3 + 3 * messagesBegun + Math.ceil(chars / 4));
    const mark = (block as Json | null)?.cache_control;
    out.push({ hash: hash.copy().digest('hex'), tokens, breakpoint: mark !== undefined && mark !== null });
  };
  for (const t of Array.isArray(body.tools) ? body.tools : []) add('tools', t);
  const system = body.system;
  if (typeof system === 'string') add('system', { type: 'text', text: system });
  else if (Array.isArray(system)) for (const b of system) add('system', b);
  for (const m of Array.isArray(body.messages) ? (body.messages as Json[]) : []) {
    messagesBegun++;
    const content = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    for (const b of Array.isArray(content) ? content : []) add(`message:${String(m.role)}`, b);
  }
  return out;
}

/** One fake upstream's cache: what it has seen, per key and model. */
export function createAnthropicPromptCache() {
  const written = new Set<string>();
  return {
    /**
     * How the request's `total` prompt tokens split into input, cache read and cache write, and
     * the prefixes it writes remembered for the next request.
     */
    account(scope: string, body: Json, total: number): CacheSplit {
      const all = boundaries(body, total);
      const at = (i: number) => `${scope}\u0000${String(body.model)}\u0000${all[i].hash}`;
      const marks = all.flatMap((b, i) => (b.breakpoint ? [i] : []));
      let read = 0;
      for (const m of marks)
        for (let i = m; i >= Math.max(0, m - LOOKBACK + 1); i--)
          if (written.has(at(i))) {
            read = Math.max(read, all[i].tokens);
            break;
          }
      const last = marks.at(-1);
      const write = last === undefined ? 0 : Math.max(0, all[last].tokens - read);
      for (const m of marks) written.add(at(m));
      return {
        input_tokens: Math.max(0, total - read - write),
        cache_read_input_tokens: read,
        cache_creation_input_tokens: write,
      };
    },
  };
}
