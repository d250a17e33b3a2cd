import { type Reasoned, reasoningTextOf } from './canonical/reasoning-spellings.ts';
import { imageTokens } from './image-tokens.ts';
import type { Usage } from './providers/types.ts';

/*
 * Token counting when the upstream reports no usage (relay.md §5): o200k for the
 * 4o/o-series/gpt-4.1/gpt-5 families, cl100k otherwise; 3 tokens per message
 * (role and separators) plus 3 for the reply primer; tool-call arguments counted;
 * images by the tile rule (image-tokens.ts).
 * The encoders hold ~45 MB, so they load on the first request that needs a count (a
 * client-set max_tokens, an embedding, an answer without usage), ~100 ms once, and
 * an instance whose upstreams always report usage never pays that memory.
 */

type Counter = (text: string) => number;
let o200k: Counter | undefined;
let cl100k: Counter | undefined;

let loading: Promise<void> | undefined;

/** Loads both encoders once; later calls return the same settled promise. */
export function loadTokenizers(): Promise<void> {
  loading ??= Promise.all([
    import('gpt-tokenizer/encoding/o200k_base'),
    import('gpt-tokenizer/encoding/cl100k_base'),
  ]).then(([a, b]) => {
    o200k = a.countTokens;
    cl100k = b.countTokens;
  });
  return loading;
}

const usesO200k = (model: string) => /(^|\/)(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o\d|chatgpt-4o)/.test(model);

/** Tokens of a text for a model; callers await `loadTokenizers()` first (a rough estimate otherwise). */
export function countText(model: string, text: string): number {
  if (text === '') return 0;
  const enc = usesO200k(model) ? o200k : cl100k;
  return enc ? enc(text) : Math.ceil(text.length / 3);
}

/** Text parts of an OpenAI message content (string or parts array); images are counted elsewhere. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p: { type?: string; text?: unknown }) => (p?.type === 'text' && typeof p.text === 'string' ? p.text : ''))
    .join('');
}

/** Prompt tokens of a chat/completions/embeddings body, for reservations and usage-less answers. */
export function countPromptTokens(model: string, body: Record<string, unknown>): number {
  if (Array.isArray(body.messages)) {
    let n = 3;
    for (const m of body.messages as Record<string, unknown>[]) {
      n += 3 + countText(model, contentText(m?.content)) + imageTokens(m?.content);
      if (typeof m?.name === 'string') n += 1 + countText(model, m.name);
      if (Array.isArray(m?.tool_calls))
        for (const c of m.tool_calls as { function?: { name?: string; arguments?: string } }[])
          n += countText(model, `${c.function?.name ?? ''}${c.function?.arguments ?? ''}`);
    }
    if (Array.isArray(body.tools)) n += countText(model, JSON.stringify(body.tools));
    return n;
  }
  const input = body.prompt ?? body.input;
  if (typeof input === 'string') return countText(model, input);
  if (Array.isArray(input))
    return input.reduce<number>((s, x) => s + (typeof x === 'string' ? countText(model, x) : 0), 0);
  return 0;
}

/** Usage of an answer the upstream did not meter: prompt from the request, completion from the produced text. */
export function countedUsage(model: string, body: Record<string, unknown>, produced: string): Usage {
  return {
    promptTokens: countPromptTokens(model, body),
    completionTokens: countText(model, produced),
    cachedTokens: 0,
    cacheCreationTokens: 0,
  };
}

/** Generated text of an OpenAI JSON answer (chat message content, tool arguments, completion text). */
export function completionTextOf(body: string): string {
  try {
    const o = JSON.parse(body) as {
      choices?: {
        text?: string;
        message?: Reasoned & { content?: unknown; tool_calls?: { function?: { arguments?: string } }[] };
      }[];
    };
    let s = '';
    for (const c of o.choices ?? []) {
      if (typeof c.text === 'string') s += c.text;
      if (typeof c.message?.content === 'string') s += c.message.content;
      // Reasoning in whichever spelling the vendor used, counted once.
      if (c.message) s += reasoningTextOf(c.message);
      for (const t of c.message?.tool_calls ?? []) s += t.function?.arguments ?? '';
    }
    return s;
  } catch {
    return '';
  }
}
