import type { OptionReader } from '../../../../shared/options.ts';
import { refusal } from '../../errors.ts';
import { resolutionOf } from '../../providers/shared/video-upstream.ts';
import type { VideoCapabilities } from './types.ts';

/**
 * Size multipliers where the provider charges more for a bigger frame: OpenAI bills Sora's
 * 1792x1024 / 1024x1792 at 5/3 of the 720p rate (new-api's rule, kept so prices carry over),
 * and the 1080p tiers of the per-resolution providers (Kling pro, Vidu, Hailuo, Wan, Seedance,
 * Jimeng) likewise. A pixel size counts as its shorter side's tier (1920x1080 is 1080p).
 */
const SIZE_MULTIPLIER: Record<string, number> = {
  '1792x1024': 1.666667,
  '1024x1792': 1.666667,
};
const TIER_MULTIPLIER: Record<string, number> = { '1080p': 1.666667 };

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

/** What a job's frame is priced by: a pixel size and/or a resolution tier. */
export interface VideoFrame {
  size?: string;
  resolution?: string;
}

export function sizeMultiplier(frame: VideoFrame): number {
  const sized = frame.size ? SIZE_MULTIPLIER[frame.size] : undefined;
  if (sized !== undefined) return sized;
  return TIER_MULTIPLIER[resolutionOf(frame) ?? ''] ?? 1;
}

/**
 * The one rule for the frame a job is reserved on: what the client asked (size or resolution), else
 * the model's default (its capabilities' first resolution, else first size), so a model whose
 * default is 1080p is reserved at 1080p and not topped up at settlement.
 */
export function reservedFrame(caps: VideoCapabilities, asked: VideoFrame): VideoFrame {
  if (asked.size || asked.resolution) return { size: asked.size, resolution: asked.resolution };
  const resolution = caps.resolutions?.[0];
  if (resolution) return { resolution };
  const size = caps.sizes?.[0];
  return size ? { size } : {};
}

/** The multiplier of a frame on a model: 1 where the provider charges the same at every size. */
export const frameMultiplier = (caps: Pick<VideoCapabilities, 'samePriceAnySize'>, frame: VideoFrame): number =>
  caps.samePriceAnySize ? 1 : sizeMultiplier(frame);

/**
 * A video job's price: ModelPrice x seconds x size multiplier x group ratio x QuotaPerUnit, rounded
 * to whole quota; per job when the operator set the model's unit to "job". A model without a
 * ModelPrice is refused (a video is never sold at a price the operator did not set).
 */
export function videoPrice(
  opt: OptionReader,
  model: string,
  group: string,
  spec: { seconds: number; sizeMultiplier?: number },
): VideoPrice {
  const prices = opt('ModelPrice');
  const modelPrice = Object.hasOwn(prices, model) ? prices[model] : undefined;
  if (modelPrice === undefined)
    throw refusal(403, `No price is set for model ${model}`, `模型 ${model} 的价格未设置`, 'model_price_not_set');
  const units = opt('VideoPriceUnit');
  const unit: VideoPriceUnit = Object.hasOwn(units, model) ? (units[model] ?? 'second') : 'second';
  const groups = opt('GroupRatio');
  const groupRatio = Object.hasOwn(groups, group) ? (groups[group] ?? 1) : 1;
  const multiplier = spec.sizeMultiplier ?? 1;
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
