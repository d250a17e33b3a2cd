import { amountOfQuota, currencyOfOptions } from '../../../shared/currency.ts';
import type { OptionsService } from '../options/options.service.ts';

/**
 * How log lines state an amount of quota (new-api's LogQuota): money with six decimals in the site's currency
 * ("$1.500000 额度", "¥10.950000 额度"; `wide` writes new-api's full-width "＄" for dollars, as its admin
 * quota-change line does), plain points when the site shows quota.
 */
export function quotaText(options: OptionsService, quota: number, { wide = false } = {}): string {
  const currency = currencyOfOptions(options.get.bind(options));
  if (!currency.inCurrency) return `${quota} 点额度`;
  const symbol = wide && currency.symbol === '$' ? '＄' : currency.symbol;
  return `${symbol}${amountOfQuota(quota, options.get('QuotaPerUnit'), currency).toFixed(6)} 额度`;
}
