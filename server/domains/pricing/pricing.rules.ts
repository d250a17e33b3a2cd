import type { OptionReader } from '../../../shared/options.ts';
import { resolvePrice } from '../billing/pricing.rules.ts';
import { videoPrice } from '../../relay/tasks/video/price.ts';
import { isImageModel } from '../../../shared/image-models.ts';

/*
 * What the pricing page says about one model, read from the relay's own price lookup
 * (billing/pricing.rules.ts resolvePrice) so the page and the relay cannot disagree.
 */

/**
 * Where a model's price comes from: its own ModelPrice or ModelRatio (`model`), the fallback
 * pricing (`fallback`), none needed (`self_use`: self-use mode, calls are free), or none at all
 * (`unset`: the relay refuses the call with 403 in selling mode).
 */
export type PriceSource = 'model' | 'fallback' | 'self_use' | 'unset';

export interface ModelPricing {
  /** 0: billed per token by ratios; 1: a fixed price per call (per image for image models). */
  quota_type: 0 | 1;
  model_ratio: number;
  model_price: number;
  completion_ratio: number;
  price_source: PriceSource;
  /**
   * The unit a fixed price is charged by; `token` for ratio pricing. Video models: `second` of video
   * produced (ModelPrice x seconds x size multiplier) or `video` (one price per job, VideoPriceUnit "job").
   */
  unit: 'token' | 'call' | 'image' | 'second' | 'video';
  /** Audio models (AudioRatio set): audio tokens cost model ratio x audio_ratio (output also x audio_completion_ratio). */
  audio_ratio?: number;
  audio_completion_ratio?: number;
}

/** The model has a ModelPrice or ModelRatio entry of its own. */
export const hasOwnPrice = (opt: OptionReader, model: string) =>
  Object.hasOwn(opt('ModelPrice'), model) || Object.hasOwn(opt('ModelRatio'), model);

/** The pricing of a model for a visitor (no per-user "accept models without a price"). */
export function modelPricing(opt: OptionReader, model: string): ModelPricing {
  const r = resolvePrice(opt, model, '', false);
  if (!r.ok)
    return {
      quota_type: 0,
      model_ratio: 0,
      model_price: 0,
      completion_ratio: 0,
      price_source: 'unset',
      unit: 'token',
    };
  const p = r.price;
  const price_source: PriceSource = hasOwnPrice(opt, model) ? 'model' : p.fallback ? 'fallback' : 'self_use';
  if (p.mode === 'price')
    return {
      quota_type: 1,
      model_ratio: 0,
      model_price: p.modelPrice,
      completion_ratio: 0,
      price_source,
      unit: isImageModel(model) ? 'image' : 'call',
    };
  const item: ModelPricing = {
    quota_type: 0,
    model_ratio: p.modelRatio,
    model_price: 0,
    // Self-use mode's free price has no completion ratio of its own; show the usual 1.
    completion_ratio: price_source === 'self_use' ? 1 : p.completionRatio,
    price_source,
    unit: 'token',
  };
  if (p.audioRatio !== undefined) {
    item.audio_ratio = p.audioRatio;
    item.audio_completion_ratio = p.audioCompletionRatio ?? 1;
  }
  return item;
}

/**
 * The pricing of a video model, read from the video relay's own price rule (tasks/video/price.ts): a
 * ModelPrice per second or per video; no fallback and no self-use price (the relay refuses a video model
 * without a ModelPrice, so the page says it is not available).
 */
export function videoModelPricing(opt: OptionReader, model: string): ModelPricing {
  let price;
  try {
    price = videoPrice(opt, model, '', { seconds: 1 });
  } catch {
    const units = opt('VideoPriceUnit');
    return {
      quota_type: 1,
      model_ratio: 0,
      model_price: 0,
      completion_ratio: 0,
      price_source: 'unset',
      unit: Object.hasOwn(units, model) && units[model] === 'job' ? 'video' : 'second',
    };
  }
  return {
    quota_type: 1,
    model_ratio: 0,
    model_price: price.modelPrice,
    completion_ratio: 0,
    price_source: 'model',
    unit: price.unit === 'job' ? 'video' : 'second',
  };
}

/** What a call to a model without its own price gets: refused (selling mode), the fallback price, or free. */
export type UnpricedOutcome = 'refused' | 'fallback' | 'free';

export function unpricedOutcome(opt: OptionReader, model: string): UnpricedOutcome {
  const r = resolvePrice(opt, model, '', false);
  if (!r.ok) return 'refused';
  return r.price.fallback ? 'fallback' : 'free';
}
