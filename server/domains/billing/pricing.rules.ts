import type { OptionReader } from '../../../shared/options.ts';

/** The prices that apply to one request, resolved before the upstream call and logged with it. */
export interface PriceInfo {
  /** `price`: fixed USD per call (ModelPrice or the fallback single price); `ratio`: per token. */
  mode: 'ratio' | 'price';
  modelRatio: number;
  completionRatio: number;
  cacheRatio: number;
  cacheCreationRatio: number;
  groupRatio: number;
  /** USD per call in price mode; -1 in ratio mode (new-api's log convention). */
  modelPrice: number;
  quotaPerUnit: number;
  /** Priced by the fallback settings because the model has no price of its own. */
  fallback: boolean;
  /** AudioRatio / AudioCompletionRatio of audio models (relay.md §5); absent: audio tokens count as text. */
  audioRatio?: number;
  audioCompletionRatio?: number;
}

export interface TokenCounts {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheCreationTokens: number;
  /** Audio parts of promptTokens / completionTokens (OpenAI audio models). */
  audioPromptTokens?: number;
  audioCompletionTokens?: number;
}

/** A price map's own entry: a model or group named like an Object.prototype member (toString) has none. */
const own = (map: Record<string, number>, name: string): number | undefined =>
  Object.hasOwn(map, name) ? map[name] : undefined;

export type PriceResolution = { ok: true; price: PriceInfo } | { ok: false; message: string };

/**
 * Price lookup per relay.md §5. A fixed ModelPrice overrides ratios. A model with
 * neither is refused, unless fallback pricing is on (billed by the fallback) or the
 * user accepts unset models (billed by the fallback when on, else free).
 */
export function resolvePrice(opt: OptionReader, model: string, group: string, acceptUnset: boolean): PriceResolution {
  const groupRatio = own(opt('GroupRatio'), group) ?? 1;
  const quotaPerUnit = opt('QuotaPerUnit');
  const base = {
    groupRatio,
    quotaPerUnit,
    cacheRatio: own(opt('CacheRatio'), model) ?? 1,
    cacheCreationRatio: own(opt('CacheCreationRatio'), model) ?? 1,
    fallback: false,
  };
  const fixed = own(opt('ModelPrice'), model);
  if (fixed !== undefined)
    return { ok: true, price: { ...base, mode: 'price', modelPrice: fixed, modelRatio: 0, completionRatio: 0 } };
  const ratio = own(opt('ModelRatio'), model);
  if (ratio !== undefined) {
    const completionRatio = own(opt('CompletionRatio'), model) ?? 1;
    const audioRatio = own(opt('AudioRatio'), model);
    const audio =
      audioRatio === undefined
        ? {}
        : { audioRatio, audioCompletionRatio: own(opt('AudioCompletionRatio'), model) ?? 1 };
    return {
      ok: true,
      price: { ...base, ...audio, mode: 'ratio', modelRatio: ratio, completionRatio, modelPrice: -1 },
    };
  }
  // The settings are saved one key at a time, so a half-changed fallback (a ratio cleared while it is
  // on) can be stored; it never prices anything: ratios need both input and completion (admin spec).
  const single = opt('fallback_single_price');
  const input = opt('fallback_input_ratio');
  const completion = opt('fallback_completion_ratio');
  if (opt('fallback_pricing_enabled') && (single > 0 || (input > 0 && completion > 0))) {
    const price: PriceInfo =
      single > 0
        ? { ...base, fallback: true, mode: 'price', modelPrice: single, modelRatio: 0, completionRatio: 0 }
        : { ...base, fallback: true, mode: 'ratio', modelPrice: -1, modelRatio: input, completionRatio: completion };
    return { ok: true, price };
  }
  if (acceptUnset || opt('SelfUseModeEnabled'))
    return { ok: true, price: { ...base, mode: 'ratio', modelRatio: 0, completionRatio: 0, modelPrice: -1 } };
  return { ok: false, message: `模型 ${model} 的模型倍率或价格未配置，请联系管理员设置` };
}

/**
 * The final charge for a request (relay.md §5), an integer:
 * ratio mode `round((prompt - cached + cached*CacheRatio + creation*CacheCreationRatio
 * + completion*CompletionRatio) * ModelRatio * GroupRatio)`, at least 1 when the
 * ratio is positive and tokens were used; price mode `round(ModelPrice * QuotaPerUnit * GroupRatio)`.
 */
export function computeQuota(p: PriceInfo, t: TokenCounts): number {
  if (p.mode === 'price') return Math.round(p.modelPrice * p.quotaPerUnit * p.groupRatio);
  const tokens = t.promptTokens + t.completionTokens + t.cacheCreationTokens;
  if (tokens === 0) return 0;
  // Audio models: audio tokens leave the text counts and are priced by AudioRatio (output also by AudioCompletionRatio).
  const audioIn = p.audioRatio === undefined ? 0 : (t.audioPromptTokens ?? 0);
  const audioOut = p.audioRatio === undefined ? 0 : (t.audioCompletionTokens ?? 0);
  const weighted =
    t.promptTokens -
    audioIn -
    t.cachedTokens +
    t.cachedTokens * p.cacheRatio +
    t.cacheCreationTokens * p.cacheCreationRatio +
    (t.completionTokens - audioOut) * p.completionRatio +
    audioIn * (p.audioRatio ?? 1) +
    audioOut * (p.audioRatio ?? 1) * (p.audioCompletionRatio ?? 1);
  const ratio = p.modelRatio * p.groupRatio;
  const quota = Math.round(weighted * ratio);
  return ratio > 0 && quota <= 0 ? 1 : quota;
}

/**
 * The amount reserved before the upstream call: an upper bound, not a guess
 * (relay.md §5 [beyond]). With a client limit: `ceil((prompt + max_tokens *
 * CompletionRatio) * ModelRatio * GroupRatio)`; without one (chat/completions),
 * PreConsumedQuota; embeddings produce no completion, so the prompt alone bounds them.
 */
export function reservationFor(
  p: PriceInfo,
  promptEstimate: number,
  maxTokens: number | undefined,
  preConsumed: number,
  hasCompletion: boolean,
): number {
  if (p.mode === 'price')
    return computeQuota(p, { promptTokens: 0, completionTokens: 0, cachedTokens: 0, cacheCreationTokens: 0 });
  const ratio = p.modelRatio * p.groupRatio;
  if (ratio === 0) return 0;
  if (hasCompletion && maxTokens === undefined) return preConsumed;
  const bound = Math.ceil((promptEstimate + (hasCompletion ? (maxTokens ?? 0) * p.completionRatio : 0)) * ratio);
  return Math.max(1, bound);
}

/** The log's `content` line, as new-api writes it. */
export function priceDescription(p: PriceInfo): string {
  if (p.mode === 'price') return `模型价格 ${p.modelPrice}，分组倍率 ${p.groupRatio}`;
  return `模型倍率 ${p.modelRatio}，补全倍率 ${p.completionRatio}，分组倍率 ${p.groupRatio}`;
}
