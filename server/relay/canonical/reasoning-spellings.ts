import type { ReasoningDetail } from './types.ts';

/*
 * OpenAI-compatible vendors spell an answer's reasoning text three ways (docs/conversion.md
 * § Reasoning): `reasoning_content` (DeepSeek, Qwen, Kimi and most others: the internal form's
 * name), `reasoning` (vLLM since it renamed `reasoning_content`, OpenRouter) and
 * `reasoning_details` (OpenRouter, MiniMax: typed items, `reasoning.text` {text, signature?},
 * `reasoning.summary` {summary}, `reasoning.encrypted` {data}, each with id, format and index).
 *
 * One message or stream delta may carry the same text in two spellings (OpenRouter always sends
 * `reasoning` and `reasoning_details` together), so spellings are never added up: the text of one
 * message or delta is the first of `reasoning_content`, `reasoning`, the readable text of
 * `reasoning_details` that is not empty. Across stream deltas the pieces follow each other as usual.
 * Encrypted items have no readable text: they are kept as they came, for the upstream alone.
 */

/** A message or stream delta, as far as reasoning goes. */
export interface Reasoned {
  reasoning_content?: unknown;
  reasoning?: unknown;
  reasoning_details?: unknown;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The readable text of `reasoning_details`: its text and summary items in order (encrypted ones have none). */
export function detailsText(details: unknown): string {
  if (!Array.isArray(details)) return '';
  let out = '';
  for (const d of details as ReasoningDetail[])
    if (d?.type === 'reasoning.text') out += text(d.text);
    else if (d?.type === 'reasoning.summary') out += text(d.summary);
  return out;
}

/** The reasoning text of one message or stream delta, whichever spelling carries it (one, never two). */
export function reasoningTextOf(o: Reasoned): string {
  return text(o.reasoning_content) || text(o.reasoning) || detailsText(o.reasoning_details);
}

/** Whether the object carries reasoning in a spelling other than the internal form's. */
export const hasVendorSpelling = (o: Reasoned): boolean =>
  o.reasoning !== undefined || o.reasoning_details !== undefined;

/**
 * Rewrites a message or delta into the internal form, in place: its reasoning text (any spelling)
 * becomes `reasoning_content`, and `reasoning` and `reasoning_details` go. Returns the
 * `reasoning_details` it took away (for the carry store), or undefined when there were none;
 * `changed` says whether the object was touched at all.
 */
export function toInternalReasoning(o: Reasoned): { changed: boolean; details?: ReasoningDetail[] } {
  if (!hasVendorSpelling(o)) return { changed: false };
  const t = reasoningTextOf(o);
  const details = Array.isArray(o.reasoning_details) ? (o.reasoning_details as ReasoningDetail[]) : undefined;
  if (t !== '') o.reasoning_content = t;
  delete o.reasoning;
  delete o.reasoning_details;
  return { changed: true, details };
}

/**
 * Streamed `reasoning_details` come as fragments of the items a JSON answer holds: pieces of one
 * item share its type and index (the text follows on, the signature arrives on a later piece).
 * `add` takes each delta's array; `items()` gives them merged back into whole items, the way the
 * upstream wants them back on the next turn. Items without an index are kept as they came.
 */
export function createDetailsMerger() {
  const items: ReasoningDetail[] = [];
  const byKey = new Map<string, ReasoningDetail>();
  return {
    add(details: unknown) {
      if (!Array.isArray(details)) return;
      for (const d of details as ReasoningDetail[]) {
        if (!d || typeof d !== 'object' || typeof d.type !== 'string') continue;
        const key = typeof d.index === 'number' ? `${d.type}:${d.index}` : undefined;
        const known = key === undefined ? undefined : byKey.get(key);
        if (!known) {
          const item = { ...d };
          items.push(item);
          if (key !== undefined) byKey.set(key, item);
          continue;
        }
        if (typeof d.text === 'string') known.text = text(known.text) + d.text;
        if (typeof d.summary === 'string') known.summary = text(known.summary) + d.summary;
        for (const k of ['data', 'signature', 'id', 'format'] as const) if (d[k]) known[k] = d[k];
      }
    },
    items: (): ReasoningDetail[] => items,
  };
}

/** `reasoning_details` worth sending back: a non-empty array of typed items. */
export function detailsOf(v: unknown): ReasoningDetail[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const items = (v as ReasoningDetail[]).filter((d) => d && typeof d === 'object' && typeof d.type === 'string');
  return items.length > 0 ? items : undefined;
}
