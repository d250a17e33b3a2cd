import { computeQuota, type PriceInfo } from '../../domains/billing/pricing.rules.ts';
import type { RelayMode, Usage } from '../providers/types.ts';
import { countText } from '../usage.ts';
import { type ImageRequest, pixelSize, readImageRequest } from './image-request.ts';

/*
 * What an image call costs (issue 44). A model priced by ModelPrice pays per picture:
 * `ModelPrice x pictures x multiplier(model, size, quality)`, the multiplier being the provider's own
 * price ratio of that size and quality to the model's plain picture (OpenAI's price page: DALL-E 2 by
 * size, DALL-E 3 standard/hd x square/wide, gpt-image-1 low/medium/high x square/wide); a model not in
 * the table pays ModelPrice per picture. A model priced by ModelRatio pays the tokens the upstream
 * reports (gpt-image's usage, Gemini image models' output tokens); an upstream that reports none is
 * charged the model's usual tokens per picture returned (below). The reservation is an upper bound
 * for the pictures asked; the settlement charges the pictures actually returned.
 */

/** One image call's billing inputs, read once from the canonical body (serve.ts) and kept to the settlement. */
export interface ImageBilling {
  /** Pictures asked (`n`). */
  asked: number;
  size?: string;
  /** The aspect ratio a Gemini or Imagen door asked instead of a size (the log shows it as the size). */
  aspectRatio?: string;
  quality?: string;
  /** multiplier(model, size, quality) of a ModelPrice. */
  multiplier: number;
  /** Output tokens one picture costs, for the reservation and for an upstream that reports no usage. */
  tokensPerImage: number;
  /** Input pictures of an edit (each counted as `tokensPerImage` input tokens in the reservation). */
  inputImages: number;
  prompt: string;
}

/** `WxH` -> `square` / `wide` (either orientation), the way the providers price sizes. */
const shape = (size: string | undefined): 'square' | 'wide' | undefined => {
  const px = pixelSize(size);
  if (!px) return undefined;
  return px.width === px.height ? 'square' : 'wide';
};

/** OpenAI's prices in USD per picture, by model then `quality/shape` (or `size` for DALL-E 2). */
const OPENAI: Record<string, { base: number; prices: Record<string, number> }> = {
  // $0.016 / $0.018 / $0.020
  'dall-e-2': { base: 0.02, prices: { '256x256': 0.016, '512x512': 0.018, '1024x1024': 0.02 } },
  // standard $0.040 / $0.080 (1792 sides), hd $0.080 / $0.120
  'dall-e-3': {
    base: 0.04,
    prices: { 'standard/square': 0.04, 'standard/wide': 0.08, 'hd/square': 0.08, 'hd/wide': 0.12 },
  },
  // low $0.011 / $0.016, medium $0.042 / $0.063, high $0.167 / $0.25 (1536 sides); ModelPrice = medium square.
  'gpt-image-1': {
    base: 0.042,
    prices: {
      'low/square': 0.011,
      'low/wide': 0.016,
      'medium/square': 0.042,
      'medium/wide': 0.063,
      'high/square': 0.167,
      'high/wide': 0.25,
    },
  },
};

/** The price ratio of a picture of this size and quality to the model's plain one (1 when unknown). */
export function imageMultiplier(model: string, size: string | undefined, quality: string | undefined): number {
  const table = OPENAI[model];
  if (!table) return 1;
  const q = quality?.toLowerCase();
  let key: string | undefined;
  if (model === 'dall-e-2') key = size;
  else if (model === 'dall-e-3') key = `${q === 'hd' ? 'hd' : 'standard'}/${shape(size) ?? 'square'}`;
  // gpt-image-1's `auto` (the default) lets the model choose: priced as medium, OpenAI's usual pick.
  else key = `${q === 'low' || q === 'high' ? q : 'medium'}/${shape(size) ?? 'square'}`;
  const price = key === undefined ? undefined : table.prices[key];
  return price === undefined ? 1 : price / table.base;
}

/**
 * Output tokens per picture: gpt-image-1's by quality and size (OpenAI's image generation guide),
 * Gemini's image models 1290 (a 1024 px picture), others the largest of those, so the reservation
 * of a token-priced model is never short.
 */
export function tokensPerImage(model: string, size: string | undefined, quality: string | undefined): number {
  if (model.startsWith('gpt-image')) {
    const wide = shape(size) === 'wide';
    const q = quality?.toLowerCase();
    if (q === 'low') return wide ? 408 : 272;
    if (q === 'medium') return wide ? 1584 : 1056;
    return wide ? 6240 : 4160;
  }
  if (/^gemini-.*image/.test(model)) return 1290;
  return 6240;
}

/** The billing inputs of an image call's canonical body. */
export function imageBillingOf(mode: RelayMode, model: string, body: Record<string, unknown>): ImageBilling {
  const r: ImageRequest = readImageRequest(mode, body);
  return {
    asked: r.n,
    size: r.size,
    aspectRatio: r.aspectRatio,
    quality: r.quality,
    multiplier: imageMultiplier(model, r.size, r.quality),
    tokensPerImage: tokensPerImage(model, r.size, r.quality),
    inputImages: r.images.length + (r.mask ? 1 : 0),
    prompt: r.prompt,
  };
}

/** ModelPrice x pictures x multiplier x group ratio, as an integer quota. */
const perImage = (p: PriceInfo, pictures: number, multiplier: number) =>
  Math.round(p.modelPrice * p.quotaPerUnit * p.groupRatio * pictures * multiplier);

/** The upper bound reserved before the call: every picture asked, or their tokens. */
export function imageReservation(p: PriceInfo, b: ImageBilling, model: string): number {
  if (p.mode === 'price') return perImage(p, b.asked, b.multiplier);
  const ratio = p.modelRatio * p.groupRatio;
  if (ratio === 0) return 0;
  const prompt = countText(model, b.prompt) + b.inputImages * b.tokensPerImage;
  return Math.max(1, Math.ceil((prompt + b.asked * b.tokensPerImage * p.completionRatio) * ratio));
}

/**
 * The charge for `returned` pictures, and the usage the log row shows: the reported usage, or (token
 * priced, none reported) the prompt counted and `tokensPerImage` per picture returned.
 */
export function imageCharge(
  p: PriceInfo,
  b: ImageBilling,
  model: string,
  returned: number,
  reported: Usage | undefined,
): { quota: number; usage: Usage; counted: boolean } {
  const zero: Usage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, cacheCreationTokens: 0 };
  if (p.mode === 'price')
    return { quota: perImage(p, returned, b.multiplier), usage: reported ?? zero, counted: false };
  const usage = reported ?? {
    ...zero,
    promptTokens: countText(model, b.prompt),
    completionTokens: returned * b.tokensPerImage,
  };
  return { quota: computeQuota(p, usage), usage, counted: !reported };
}
