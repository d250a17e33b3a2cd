import { effortOf, isEffort, reasoningOf } from '../../canonical/reasoning.ts';
import type { CanonicalReasoning, CanonicalRequest } from '../../canonical/types.ts';
import { nearestEffort, type ReasoningModel } from './reasoning-models.ts';

/*
 * The top-level fields of the internal form on an OpenAI-compatible upstream (docs/conversion.md
 * § OpenAI). OpenAI-compatible vendors have extras of their own (vLLM's `top_k`, DeepSeek's
 * `thinking`, OpenRouter's `provider`), so unknown fields an OpenAI client sends pass through as
 * they always did; what is rendered here is the internal form's own extension (`reasoning`) and
 * what a strict upstream or an OpenAI reasoning model refuses:
 *
 * | field | rendered |
 * |---|---|
 * | `reasoning` {effort, budget_tokens, include} | `reasoning_effort` (effortOf); OpenRouter: its own `reasoning` {effort or max_tokens, exclude, enabled}; DeepSeek and Zhipu, reasoning off: `thinking: {type: "disabled"}`; OpenAI's non-reasoning models (GPT-4o, GPT-5 chat): dropped, they do not reason; `include` dropped (Chat Completions has no switch for reasoning text) |
 * | `top_k` | dropped on OpenAI and Azure (not an OpenAI parameter); kept for vendors that take it |
 * | `prompt_cache_key`, `prompt_cache_retention` | kept as they came (OpenAI and Azure read both, Mistral and Moonshot the key, other vendors ignore what they do not know), but Mistral, which refuses unknown fields, gets no retention |
 * | reasoning models | see REASONING_MODEL_FIELDS |
 */

/** What the upstream takes, decided once per request (request.ts). */
export interface ParamPolicy {
  /** OpenAI itself or Azure: refuses what is not OpenAI's. */
  strict: boolean;
  /** OpenRouter takes `reasoning` in its own shape. */
  nativeReasoning: boolean;
  /** DeepSeek and Zhipu turn reasoning off with `thinking: {type: "disabled"}`, not with an effort. */
  thinkingSwitch?: boolean;
  /** The upstream refuses `prompt_cache_retention` (Mistral: unknown fields are a 422). */
  noCacheRetention?: boolean;
  /** The rules of an OpenAI reasoning model, when the upstream model is one. */
  reasoningModel?: ReasoningModel;
}

/**
 * Fields an OpenAI reasoning model refuses ("Unsupported parameter" / "Only the default value is
 * supported"), with the value still accepted: kept when the request holds it, dropped otherwise.
 * `whenOff`: GPT-5.1 and later take the field again when reasoning is off (`none`, their default).
 */
export const REASONING_MODEL_FIELDS: Record<string, { accepted?: unknown; whenOff: boolean }> = {
  temperature: { accepted: 1, whenOff: true },
  top_p: { accepted: 1, whenOff: true },
  presence_penalty: { accepted: 0, whenOff: false },
  frequency_penalty: { accepted: 0, whenOff: false },
  logprobs: { whenOff: true },
  top_logprobs: { whenOff: true },
  logit_bias: { whenOff: false },
};

/** The body's top-level fields fitted to the upstream; undefined when nothing changes (no copy made). */
export function fitParams(body: CanonicalRequest, p: ParamPolicy): CanonicalRequest | undefined {
  let out: CanonicalRequest | undefined;
  const edit = () => (out ??= { ...body });
  const get = (k: string) => (out ?? body)[k];
  const drop = (k: string) => {
    if (get(k) !== undefined) delete edit()[k];
  };

  if (body.reasoning !== undefined) {
    const r = reasoningOf(body);
    if (p.nativeReasoning) {
      const own = openRouterReasoning(body.reasoning, r);
      if (own !== body.reasoning) edit().reasoning = own as CanonicalReasoning | undefined;
    } else {
      const o = edit();
      delete o.reasoning;
      const effort = r && effortOf(r);
      if (effort === 'none' && p.thinkingSwitch) o.thinking = { type: 'disabled' };
      // OpenAI's other models refuse reasoning_effort; vendors take it or ignore it.
      else if (effort && (p.reasoningModel || !p.strict)) o.reasoning_effort = effort;
    }
  }

  const rm = p.reasoningModel;
  if (rm) {
    if (get('max_tokens') !== undefined) {
      const o = edit();
      o.max_completion_tokens ??= o.max_tokens;
      delete o.max_tokens;
    }
    let effort = get('reasoning_effort');
    if (effort !== undefined && rm.efforts.length === 0) drop('reasoning_effort');
    else if (isEffort(effort)) {
      const fitted = nearestEffort(effort, rm.efforts);
      if (fitted !== effort) edit().reasoning_effort = effort = fitted;
    }
    const off = (effort ?? rm.efforts[0]) === 'none';
    for (const [k, rule] of Object.entries(REASONING_MODEL_FIELDS)) {
      const v = get(k);
      if (v !== undefined && v !== rule.accepted && !(off && rule.whenOff)) drop(k);
    }
    if (rm.noStop) drop('stop');
    if (rm.noParallelToolCalls) drop('parallel_tool_calls');
  }

  if (p.strict) drop('top_k');
  if (p.noCacheRetention) drop('prompt_cache_retention');
  return out;
}

/**
 * OpenRouter's `reasoning`: one of `effort` or `max_tokens`, `enabled: false` to turn it off,
 * `exclude` to leave the text out. A body already in that shape (an OpenAI client that knows it
 * talks to OpenRouter) is kept as it came.
 */
function openRouterReasoning(own: unknown, r: CanonicalReasoning | undefined): unknown {
  if (!own || typeof own !== 'object' || !('budget_tokens' in own || 'include' in own)) return own;
  if (!r) return undefined;
  const out: Record<string, unknown> = {};
  if (r.effort === 'none' || r.budget_tokens === 0) out.enabled = false;
  else if (r.budget_tokens !== undefined && r.budget_tokens > 0) out.max_tokens = r.budget_tokens;
  else if (r.effort) out.effort = r.effort;
  else out.enabled = true;
  if (r.include === false) out.exclude = true;
  return out;
}
