import type { OptionReader } from '../../../../shared/options.ts';
import { refusal } from '../../errors.ts';

/**
 * Size multipliers where the provider charges more for a bigger frame: OpenAI bills Sora's
 * 1792x1024 / 1024x1792 at 5/3 of the 720p rate (new-api's rule, kept so prices carry over),
 * and the 1080p tiers of the per-resolution providers likewise.
 */
const SIZE_MULTIPLIER: Record<string, number> = {
  '1792x1024': 1.666667,
  '1024x1792': 1.666667,
  '1080p': 1.666667,
};

export type VideoPriceUnit = 'second' | 'job';

export interface VideoPrice {
  /** Integer quota for the whole job. */
  quota: number;
  unit: VideoPriceUnit;
  /** ModelPrice: USD per second, or per job. */
  modelPrice: number;
  seconds: number;
  sizeMultiplier: number;
  groupRatio: number;
}

export function sizeMultiplier(size?: string, resolution?: string): number {
  return SIZE_MULTIPLIER[size ?? ''] ?? SIZE_MULTIPLIER[resolution ?? ''] ?? 1;
}

/**
 * A video job's price: ModelPrice x seconds x size multiplier x group ratio x QuotaPerUnit, rounded
 * to whole quota; per job when the operator set the model's unit to "job". A model without a
 * ModelPrice is refused (a video is never sold at a price the operator did not set).
 */
export function videoPrice(
  opt: OptionReader,
  model: string,
  group: string,
  spec: { seconds: number; size?: string; resolution?: string },
): VideoPrice {
  const prices = opt('ModelPrice');
  const modelPrice = Object.hasOwn(prices, model) ? prices[model] : undefined;
  if (modelPrice === undefined)
    throw refusal(403, `No price is set for model ${model}`, `模型 ${model} 的价格未设置`, 'model_price_not_set');
  const units = opt('VideoPriceUnit');
  const unit: VideoPriceUnit = Object.hasOwn(units, model) ? (units[model] ?? 'second') : 'second';
  const groups = opt('GroupRatio');
  const groupRatio = Object.hasOwn(groups, group) ? (groups[group] ?? 1) : 1;
  const multiplier = sizeMultiplier(spec.size, spec.resolution);
  const perJob = modelPrice * multiplier * (unit === 'job' ? 1 : spec.seconds);
  return {
    quota: Math.round(perJob * groupRatio * opt('QuotaPerUnit')),
    unit,
    modelPrice,
    seconds: spec.seconds,
    sizeMultiplier: multiplier,
    groupRatio,
  };
}
