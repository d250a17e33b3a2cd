import { budgetOf, effortOf } from '../../canonical/reasoning.ts';
import type { CanonicalReasoning } from '../../canonical/types.ts';

/*
 * The request's reasoning (reasoningOf(): reasoning_effort, the doors' `reasoning`) as Gemini's
 * generationConfig.thinkingConfig (docs/conversion.md § Reasoning):
 *  - Gemini 3 and later take `thinkingLevel`. Only "low" and "high" exist on every one of them
 *    (Pro has no minimal/medium), so none/minimal/low -> "low", medium and above -> "high"; a
 *    budget of -1 (the model decides) leaves the level to the model. Gemini 3 cannot stop thinking:
 *    `none` is "low".
 *  - Gemini 2.5 takes `thinkingBudget` (budgetOf(): the effort table, 0 off, -1 dynamic), clamped to
 *    the model's range (2.5 Pro: 128-32,768 and never off; Flash: 0-24,576; Flash-Lite: 0 or 512-24,576).
 *  - Gemini 1.x / 2.0 and non-Gemini models (Gemma) do not think: the request is left without one.
 * `includeThoughts` is asked unless the client said it does not want the reasoning text.
 */

export const isGemini3 = (model: string) => /^gemini-([3-9]|\d\d)/.test(model);
const thinks = (model: string) => /^gemini-/.test(model) && !/^gemini-(1\.|2\.0|pro$|pro-vision)/.test(model);

const RANGES: [RegExp, { min: number; max: number; off: boolean }][] = [
  [/^gemini-2\.5-pro/, { min: 128, max: 32768, off: false }],
  [/^gemini-2\.5-flash-lite/, { min: 512, max: 24576, off: true }],
  [/^gemini-2\.5-flash/, { min: 1, max: 24576, off: true }],
];

function clampBudget(model: string, budget: number): number {
  if (budget < 0) return -1;
  const range = RANGES.find(([re]) => re.test(model))?.[1];
  if (!range) return budget;
  if (budget === 0) return range.off ? 0 : range.min;
  return Math.min(range.max, Math.max(range.min, budget));
}

export function thinkingConfigOf(
  model: string,
  r: CanonicalReasoning | undefined,
): Record<string, unknown> | undefined {
  if (!r || !thinks(model)) return undefined;
  const out: Record<string, unknown> = {};
  let off = false;
  if (isGemini3(model)) {
    const effort = effortOf(r);
    if (r.budget_tokens !== -1 && effort)
      out.thinkingLevel = ['none', 'minimal', 'low'].includes(effort) ? 'low' : 'high';
  } else {
    const budget = budgetOf(r);
    if (budget !== undefined) {
      out.thinkingBudget = clampBudget(model, budget);
      off = out.thinkingBudget === 0;
    }
  }
  if (r.include !== false && !off) out.includeThoughts = true;
  return Object.keys(out).length ? out : undefined;
}
