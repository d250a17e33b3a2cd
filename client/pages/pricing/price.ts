/*
 * Price display rules of the pricing page (spec §9): what the relay really charges, in the site's
 * display unit (currency when "display in currency" is on, else quota). No macros here: vitest imports it.
 */
import { decimalsForPrices, formatQuota, formatUsd, type QuotaDisplay } from '../../lib/format.ts';

export interface PriceInput {
  quota_type: number;
  model_ratio: number;
  model_price: number;
  completion_ratio: number;
  /** Where the price comes from (server pricing.rules.ts); absent from old servers: a price of its own. */
  price_source?: 'model' | 'fallback' | 'self_use' | 'unset';
  /** A call is billed, not refused; absent from old servers: true. */
  callable?: boolean;
  /** `second` / `video`: a video model's fixed price per second of video or per video (issue 40). */
  unit?: 'token' | 'call' | 'image' | 'second' | 'video';
  audio_ratio?: number;
  audio_completion_ratio?: number;
}

/** Amounts are USD; the page formats them with priceText. */
export type DisplayPrice =
  /** No price in selling mode: the relay refuses the model (403), so no amount is shown. */
  | { kind: 'unavailable' }
  /** No price, but this signed-in user accepts models without one: calls are free for them. */
  | { kind: 'free_for_you' }
  /** Self-use mode: no price needed, calls are free. */
  | { kind: 'no_price_needed' }
  | { kind: 'call'; price: number; fallback: boolean }
  /** A fixed price of an image model: the relay charges it once per image generated (n images = n calls). */
  | { kind: 'image'; price: number; fallback: boolean }
  /** A video model: per second of video produced (times the size multiplier), or one price per video. */
  | { kind: 'second'; price: number; fallback: boolean }
  | { kind: 'video'; price: number; fallback: boolean }
  | {
      kind: 'token';
      prompt: number;
      completion: number;
      /** Audio models: per 1M audio tokens (model ratio x AudioRatio, output also x AudioCompletionRatio). */
      audio?: { prompt: number; completion: number };
      fallback: boolean;
    };

/** Model ratio 1 = $2 per 1M prompt tokens; the completion price also takes the completion ratio. */
export const USD_PER_1M_TOKENS_AT_RATIO_1 = 2;

export function displayPrice(p: PriceInput, groupRatio: number): DisplayPrice {
  if (p.price_source === 'unset') return p.callable ? { kind: 'free_for_you' } : { kind: 'unavailable' };
  if (p.price_source === 'self_use') return { kind: 'no_price_needed' };
  const fallback = p.price_source === 'fallback';
  if (p.quota_type === 1) {
    const price = p.model_price * groupRatio;
    if (p.unit === 'image') return { kind: 'image', price, fallback };
    if (p.unit === 'second') return { kind: 'second', price, fallback };
    if (p.unit === 'video') return { kind: 'video', price, fallback };
    return { kind: 'call', price, fallback };
  }
  const prompt = p.model_ratio * USD_PER_1M_TOKENS_AT_RATIO_1 * groupRatio;
  const out: DisplayPrice = { kind: 'token', prompt, completion: prompt * p.completion_ratio, fallback };
  if (p.audio_ratio !== undefined) {
    const audioPrompt = prompt * p.audio_ratio;
    out.audio = { prompt: audioPrompt, completion: audioPrompt * (p.audio_completion_ratio ?? 1) };
  }
  return out;
}

/**
 * A USD amount in the site's display unit: "$2.000", "¥14.600" (3 decimals at least, spec §9, and the same
 * number of decimals for a whole column: priceDecimals), or quota "1,000,000".
 */
export const priceText = (usd: number, display: QuotaDisplay, decimals = 3) =>
  display.displayInCurrency ? formatUsd(usd, display, decimals) : formatQuota(usd * display.quotaPerUnit, display);

/** Every USD amount a price shows. */
const amountsOf = (d: DisplayPrice): number[] =>
  d.kind === 'token'
    ? [d.prompt, d.completion, ...(d.audio ? [d.audio.prompt, d.audio.completion] : [])]
    : 'price' in d
      ? [d.price]
      : [];

/** One precision for the price column (no "$0.270" above "$0.3428"): at least 3 decimals, as many as any price needs. */
export const priceDecimals = (prices: readonly DisplayPrice[], display: QuotaDisplay): number =>
  decimalsForPrices(prices.flatMap(amountsOf), display, 3);

/** A model can be called at all: false only for a model without a price in selling mode. */
export const callable = (p: PriceInput) => p.callable !== false;

/** Group ratio colours: above 5 red, above 3 orange, above 1 blue, else green. */
export function ratioColor(ratio: number): string {
  if (ratio > 5) return 'red';
  if (ratio > 3) return 'orange';
  if (ratio > 1) return 'blue';
  return 'green';
}

/** A model is available in a group when one of its enabled channels serves that group. */
export const availableIn = (p: { enable_groups?: string[] }, group: string) => (p.enable_groups ?? []).includes(group);
