import { badRequest } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';

/**
 * The price ratios another gateway reads to copy this one's prices (new-api's GET /api/ratio_config,
 * the source of its "upstream price sync"). Off unless the operator exposes them.
 */
export function exposedRatios(options: OptionsService) {
  if (!options.get('ExposeRatioEnabled')) throw badRequest('ratio.expose_disabled');
  return {
    model_ratio: options.get('ModelRatio'),
    completion_ratio: options.get('CompletionRatio'),
    cache_ratio: options.get('CacheRatio'),
    model_price: options.get('ModelPrice'),
  };
}
