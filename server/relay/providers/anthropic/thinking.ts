import { budgetOf, EFFORT_BUDGET, reasoningOf } from '../../canonical/reasoning.ts';
import type { AttemptContext } from '../types.ts';

/** `-thinking` names ask the thinking adapter for extended thinking (relay.md §8). */
export const THINKING_SUFFIX = '-thinking';

/** Anthropic's smallest thinking budget. */
export const MIN_BUDGET = 1024;

/**
 * The thinking budget a canonical request asks of Claude, before clamping; undefined for none.
 * The client's reasoning (reasoning_effort, the doors' `reasoning`) through the one table of
 * canonical/reasoning.ts; else a `-thinking` model name (claude.thinking_adapter_*) asks for
 * max_tokens x the configured percentage. Effort `none` (budget 0) turns thinking off even on a
 * `-thinking` name; -1 (the model decides) is read as medium.
 */
export function askedBudget(ctx: AttemptContext, body: Record<string, unknown>, maxTokens: number): number | undefined {
  const suffix = ctx.upstreamModel.endsWith(THINKING_SUFFIX) && ctx.options('claude.thinking_adapter_enabled');
  const bySuffix = () => Math.floor(maxTokens * ctx.options('claude.thinking_adapter_budget_tokens_percentage'));
  const r = reasoningOf(body);
  if (!r) return suffix ? bySuffix() : undefined;
  if (r.effort === 'none' || r.budget_tokens === 0) return undefined;
  const budget = budgetOf(r);
  if (budget === undefined) return suffix ? bySuffix() : r.include ? EFFORT_BUDGET.medium : undefined;
  return budget < 0 ? EFFORT_BUDGET.medium : budget;
}

/**
 * Anthropic's rules for a budget: at least 1024 and below max_tokens. When it does not fit,
 * max_tokens grows by the budget (the visible answer keeps the room the client asked for).
 */
export function clampBudget(budget: number, maxTokens: number): { budget: number; maxTokens: number } {
  const b = Math.max(MIN_BUDGET, Math.floor(budget));
  return { budget: b, maxTokens: b < maxTokens ? maxTokens : b + maxTokens };
}
