import type { OptionsService } from '../options/options.service.ts';

/**
 * How log lines state an amount of quota (new-api's LogQuota): money with six
 * decimals when the site shows currency, plain points otherwise.
 */
export function quotaText(options: OptionsService, quota: number): string {
  if (!options.get('DisplayInCurrencyEnabled')) return `${quota} 点额度`;
  return `$${(quota / options.get('QuotaPerUnit')).toFixed(6)} 额度`;
}
