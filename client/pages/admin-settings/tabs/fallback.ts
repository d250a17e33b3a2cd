import type { Values } from '../form/fields.ts';

/** Spec: a single price excludes ratios; ratios need both input and completion. */
export function fallbackProblem(v: Values): boolean {
  const single = Number(v.fallback_single_price) > 0;
  const input = Number(v.fallback_input_ratio) > 0;
  const completion = Number(v.fallback_completion_ratio) > 0;
  if (single) return input || completion;
  return input !== completion || (v.fallback_pricing_enabled === 'true' && !input);
}

/** The server checks each key against the stored others: clear values first, switch on last. */
export const fallbackOrder = (changed: string[], v: Values) => [...changed].sort((a, b) => rank(a, v) - rank(b, v));
const rank = (k: string, v: Values) =>
  k === 'fallback_pricing_enabled' ? (v[k] === 'true' ? 3 : 0) : Number(v[k]) > 0 ? 2 : 1;
