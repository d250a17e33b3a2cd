import * as defaults from './default-ratios.ts';

/*
 * The prices a fresh install ships (providers' public list prices, shared/default-ratios.ts, and
 * the per-call prices of the Midjourney/Suno tasks): the operator never set them, so the pricing
 * page marks them and lets the operator keep or clear them. The server clears with the same rule
 * (pricing/presets.service.ts), so the page never shows as a preset what the server would keep.
 */

/** The per-call prices ModelPrice ships with (shared/options.ts uses this as its default). */
export const defaultModelPrice: Record<string, number> = {
  mj_imagine: 0.1,
  mj_variation: 0.1,
  mj_upscale: 0.05,
  suno_music: 0.1,
  suno_lyrics: 0.01,
};

export interface PriceMaps {
  ModelPrice: Record<string, number>;
  ModelRatio: Record<string, number>;
  CompletionRatio: Record<string, number>;
  CacheRatio: Record<string, number>;
  CacheCreationRatio: Record<string, number>;
}

export const PRICE_MAP_KEYS = [
  'ModelPrice',
  'ModelRatio',
  'CompletionRatio',
  'CacheRatio',
  'CacheCreationRatio',
] as const satisfies readonly (keyof PriceMaps)[];

export const shippedPrices: PriceMaps = {
  ModelPrice: defaultModelPrice,
  ModelRatio: defaults.defaultModelRatio,
  CompletionRatio: defaults.defaultCompletionRatio,
  CacheRatio: defaults.defaultCacheRatio,
  CacheCreationRatio: defaults.defaultCacheCreationRatio,
};

/** How many models a fresh install prices without the operator (the setup wizard says it). */
export const SHIPPED_PRICE_COUNT = new Set([
  ...Object.keys(defaultModelPrice),
  ...Object.keys(defaults.defaultModelRatio),
]).size;

const entry = (m: Record<string, number>, model: string) => (Object.hasOwn(m, model) ? m[model] : undefined);

/**
 * A model still carries its shipped price when every price entry of it (per-call price, ratio,
 * completion and cache ratios) is exactly the shipped one, an absent entry matching an absent one.
 * Any edit (a changed ratio, an added per-call price, a removed completion ratio) makes it the operator's.
 */
function isShippedPrice(maps: PriceMaps, model: string): boolean {
  return PRICE_MAP_KEYS.every((k) => entry(maps[k], model) === entry(shippedPrices[k], model));
}

/** Models whose price is still exactly the shipped preset, sorted. */
export function presetPricedModels(maps: PriceMaps): string[] {
  const shipped = new Set([...Object.keys(defaultModelPrice), ...Object.keys(defaults.defaultModelRatio)]);
  return [...shipped].filter((m) => isShippedPrice(maps, m)).sort();
}

/** The maps without the models of `models` (every entry of them), and which maps changed. */
export function withoutModels(
  maps: PriceMaps,
  models: readonly string[],
): { maps: PriceMaps; changed: (keyof PriceMaps)[] } {
  const drop = new Set(models);
  const out = { ...maps };
  const changed: (keyof PriceMaps)[] = [];
  for (const k of PRICE_MAP_KEYS) {
    const kept = Object.fromEntries(Object.entries(maps[k]).filter(([m]) => !drop.has(m)));
    if (Object.keys(kept).length !== Object.keys(maps[k]).length) {
      out[k] = kept;
      changed.push(k);
    }
  }
  return { maps: out, changed };
}
