/*
 * Price display rules of the pricing page (spec §9). No macros here: vitest imports it.
 */

export interface PriceInput {
  quota_type: number;
  model_ratio: number;
  model_price: number;
  completion_ratio: number;
}

export type DisplayPrice = { kind: 'token'; prompt: string; completion: string } | { kind: 'call'; price: string };

/** Model ratio 1 = $2 per 1M prompt tokens; the completion price also takes the completion ratio. */
export function displayPrice(p: PriceInput, groupRatio: number): DisplayPrice {
  if (p.quota_type === 1) return { kind: 'call', price: (p.model_price * groupRatio).toFixed(3) };
  const prompt = p.model_ratio * 2 * groupRatio;
  return { kind: 'token', prompt: prompt.toFixed(3), completion: (prompt * p.completion_ratio).toFixed(3) };
}

/** Group ratio colours: above 5 red, above 3 orange, above 1 blue, else green. */
export function ratioColor(ratio: number): string {
  if (ratio > 5) return 'red';
  if (ratio > 3) return 'orange';
  if (ratio > 1) return 'blue';
  return 'green';
}

/** A model is available in a group when one of its enabled channels serves that group. */
export const availableIn = (p: { enable_groups?: string[] }, group: string) => (p.enable_groups ?? []).includes(group);
