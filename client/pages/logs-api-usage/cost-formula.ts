import type { LogOther } from './log-meta.ts';

/*
 * The charge of a consume row, recomputed from what the row logged, in quota units (integers),
 * by the relay's own rule (relay.md §5, computeQuota in server/domains/billing/pricing.rules.ts; a test
 * checks that both agree). The log details show it so that it adds up to the quota charged.
 * No macros here: vitest imports it.
 */

export interface TokenTerm {
  kind: 'prompt' | 'cached' | 'cache_creation' | 'completion' | 'audio_in' | 'audio_out';
  tokens: number;
  /** What one token of this kind weighs (1 for plain prompt tokens). */
  weight: number;
}

export type CostFormula =
  | {
      mode: 'ratio';
      terms: TokenTerm[];
      /** Σ tokens × weight. */
      weighted: number;
      modelRatio: number;
      groupRatio: number;
      /** weighted × model ratio × group ratio, before rounding. */
      exact: number;
      /** The integer the relay charges for it (rounded; at least 1 when anything was used at a positive ratio). */
      quota: number;
    }
  | {
      mode: 'price';
      /** USD per call. */
      price: number;
      quotaPerUnit: number;
      groupRatio: number;
      /** One call's integer charge. */
      perCall: number;
      /** Image requests bill each image as a call. */
      calls: number;
      /**
       * Image rows (issue 44): ModelPrice x pictures x the size/quality multiplier, rounded once for the
       * whole call (images/price.ts), so `quota` is not perCall x calls there.
       */
      images?: { count: number; multiplier: number };
      quota: number;
    };

export interface CostCheck {
  formula: CostFormula;
  /** Quota the row charged. */
  charged: number;
  /** Quota the balance could not cover (charged + shortfall = the formula's quota). */
  shortfall: number;
  /** Whether charged + shortfall equals the formula's result. */
  adds: boolean;
}

const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/** The relay's weighting of a row's tokens (computeQuota), term by term. */
function tokenTerms(o: LogOther, prompt: number, completion: number): TokenTerm[] {
  const cached = num(o.cache_tokens, 0);
  const creation = num(o.cache_creation_tokens, 0);
  // Audio tokens leave the text counts only when the model had an audio ratio.
  const audioPriced = typeof o.audio_ratio === 'number';
  const audioIn = audioPriced ? num(o.audio_input, 0) : 0;
  const audioOut = audioPriced ? num(o.audio_output, 0) : 0;
  const audioRatio = num(o.audio_ratio, 1);
  const terms: TokenTerm[] = [
    { kind: 'prompt', tokens: prompt - audioIn - cached, weight: 1 },
    { kind: 'cached', tokens: cached, weight: num(o.cache_ratio, 1) },
    { kind: 'cache_creation', tokens: creation, weight: num(o.cache_creation_ratio, 1) },
    { kind: 'completion', tokens: completion - audioOut, weight: num(o.completion_ratio, 1) },
    { kind: 'audio_in', tokens: audioIn, weight: audioRatio },
    { kind: 'audio_out', tokens: audioOut, weight: audioRatio * num(o.audio_completion_ratio, 1) },
  ];
  return terms.filter((t, i) => i === 0 || t.tokens !== 0);
}

/** The formula of a row, or null when the row logged no price (top-ups, admin rows, old rows). */
export function costFormula(
  o: LogOther,
  prompt: number,
  completion: number,
  charged: number,
  quotaPerUnit: number,
): CostFormula | null {
  const groupRatio = num(o.group_ratio, 1);
  const price = num(o.model_price, -1);
  const modelRatio = num(o.model_ratio, -1);
  if (price >= 0 && modelRatio <= 0) {
    const perCall = Math.round(price * quotaPerUnit * groupRatio);
    if (typeof o.image_count === 'number' && o.image_count >= 0) {
      const count = o.image_count;
      const multiplier = num(o.image_ratio, 1);
      const quota = Math.round(price * quotaPerUnit * groupRatio * count * multiplier);
      return {
        mode: 'price',
        price,
        quotaPerUnit,
        groupRatio,
        perCall,
        calls: count,
        images: { count, multiplier },
        quota,
      };
    }
    // n images are n calls; the row logs only the total, which is a whole number of calls.
    const total = charged + num(o.shortfall, 0);
    const calls = perCall > 0 && total > perCall && total % perCall === 0 ? total / perCall : 1;
    return { mode: 'price', price, quotaPerUnit, groupRatio, perCall, calls, quota: perCall * calls };
  }
  if (modelRatio < 0) return null;
  const terms = tokenTerms(o, prompt, completion);
  const weighted = terms.reduce((s, t) => s + t.tokens * t.weight, 0);
  const ratio = modelRatio * groupRatio;
  const used = prompt + completion + num(o.cache_creation_tokens, 0);
  const exact = weighted * ratio;
  const rounded = used === 0 ? 0 : Math.round(exact);
  const quota = ratio > 0 && used > 0 && rounded <= 0 ? 1 : rounded;
  return { mode: 'ratio', terms, weighted, modelRatio, groupRatio, exact, quota };
}

export function checkCost(
  o: LogOther,
  prompt: number,
  completion: number,
  charged: number,
  quotaPerUnit: number,
): CostCheck | null {
  const formula = costFormula(o, prompt, completion, charged, quotaPerUnit);
  if (!formula) return null;
  const shortfall = num(o.shortfall, 0);
  return { formula, charged, shortfall, adds: charged + shortfall === formula.quota };
}

/** A ratio or an intermediate result without float noise: 2139.2000000000003 -> "2,139.2". */
export const plain = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 6 });
