import { type PriceMaps, presetPricedModels, withoutModels } from '../../../shared/preset-prices.ts';
import type { OptionsService } from '../options/options.service.ts';

/*
 * The preset prices a fresh install ships (shared/preset-prices.ts): which models still carry
 * them, and clearing them in one step so those models have no price until the operator sets one.
 */

export interface PresetPricesAnswer {
  /** Models whose price is still exactly the shipped preset. */
  models: string[];
  /** The operator reviewed them and chose to keep them (the pricing page stops asking). */
  reviewed: boolean;
}

const priceMaps = (options: OptionsService): PriceMaps => ({
  ModelPrice: options.get('ModelPrice'),
  ModelRatio: options.get('ModelRatio'),
  CompletionRatio: options.get('CompletionRatio'),
  CacheRatio: options.get('CacheRatio'),
  CacheCreationRatio: options.get('CacheCreationRatio'),
});

export function presetPrices(options: OptionsService): PresetPricesAnswer {
  return { models: presetPricedModels(priceMaps(options)), reviewed: options.get('PresetPricesReviewed') };
}

/**
 * Removes every model whose price is still exactly the shipped preset, from every price map; a
 * price the operator changed (or a model added) stays. The maps are read from memory just before
 * writing, so an edit saved meanwhile is the one kept. Answers the models cleared.
 */
export async function clearPresetPrices(options: OptionsService): Promise<{ cleared: string[] }> {
  const current = priceMaps(options);
  const cleared = presetPricedModels(current);
  const { maps, changed } = withoutModels(current, cleared);
  for (const key of changed) await options.update(key, JSON.stringify(maps[key]));
  // Clearing answers the review: the page has nothing left to ask about.
  await options.update('PresetPricesReviewed', 'true');
  return { cleared };
}
