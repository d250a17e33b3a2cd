import type { CanonicalReasoning, ReasoningEffort } from './types.ts';

/*
 * One mapping table for reasoning across dialects (docs/conversion.md § Reasoning):
 * OpenAI `reasoning_effort` / Responses `reasoning.effort` <-> a token budget (Anthropic
 * `thinking.budget_tokens`, Gemini `thinkingBudget`). Providers clamp the budget to what the
 * model accepts (Anthropic: >= 1024 and < max_tokens); Gemini 3 models take a level instead.
 */
export const EFFORT_BUDGET: Record<ReasoningEffort, number> = {
  none: 0,
  minimal: 1024,
  low: 4096,
  medium: 8192,
  high: 16384,
  xhigh: 32768,
};

const EFFORTS = new Set<string>(Object.keys(EFFORT_BUDGET));
export const isEffort = (v: unknown): v is ReasoningEffort => typeof v === 'string' && EFFORTS.has(v);

/** A budget read back as an effort: 0 is none; -1 (the model decides) is medium; else the nearest step below. */
export function effortOfBudget(budget: number): ReasoningEffort {
  if (budget === 0) return 'none';
  if (budget < 0) return 'medium';
  if (budget < EFFORT_BUDGET.low) return 'low';
  if (budget < EFFORT_BUDGET.high) return 'medium';
  if (budget < EFFORT_BUDGET.xhigh) return 'high';
  return 'xhigh';
}

/** The budget for a request's reasoning: its own budget, else its effort's. */
export const budgetOf = (r: CanonicalReasoning): number | undefined =>
  r.budget_tokens ?? (r.effort ? EFFORT_BUDGET[r.effort] : undefined);

/** The effort for a request's reasoning: its own effort, else its budget's. */
export const effortOf = (r: CanonicalReasoning): ReasoningEffort | undefined =>
  r.effort ?? (r.budget_tokens !== undefined ? effortOfBudget(r.budget_tokens) : undefined);

/**
 * What a canonical body asks of reasoning, whatever field carried it: the doors' `reasoning`
 * (also OpenRouter's `{effort, max_tokens, exclude, enabled}`), else OpenAI's `reasoning_effort`.
 * Undefined when the client did not ask (the provider's default applies).
 */
export function reasoningOf(body: Record<string, unknown>): CanonicalReasoning | undefined {
  const r = body.reasoning as
    | {
        effort?: unknown;
        budget_tokens?: unknown;
        max_tokens?: unknown;
        include?: unknown;
        exclude?: unknown;
        enabled?: unknown;
      }
    | undefined;
  if (r && typeof r === 'object') {
    const out: CanonicalReasoning = {};
    if (isEffort(r.effort)) out.effort = r.effort;
    const budget = typeof r.budget_tokens === 'number' ? r.budget_tokens : r.max_tokens;
    if (typeof budget === 'number') out.budget_tokens = budget;
    if (typeof r.include === 'boolean') out.include = r.include;
    else if (r.exclude === true) out.include = false;
    if (r.enabled === false && !out.effort && out.budget_tokens === undefined) out.effort = 'none';
    if (r.enabled === true && !out.effort && out.budget_tokens === undefined) out.effort = 'medium';
    if (out.effort || out.budget_tokens !== undefined || out.include !== undefined) return out;
  }
  return isEffort(body.reasoning_effort) ? { effort: body.reasoning_effort } : undefined;
}
