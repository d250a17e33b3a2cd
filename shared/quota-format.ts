import { amountOfQuota, type ShownCurrency, wholeCents } from './currency.ts';

/*
 * Quota as people read it in server messages and logs, in the site's currency (shared/currency.ts):
 * "$0.002", "¥0.0146", or raw quota points when the site shows quota. The console has its own,
 * locale-aware formatter (client/lib/format.ts); this one is for Chinese server texts such as "签到获得 ¥0.11".
 * Without `rounding` the amount is exact to six decimals (a log line, an amount the reader typed); with it,
 * whole cents or fen, for a balance a person reads at a glance (a balance rounds down: never more than can be spent).
 */
export function quotaText(
  quota: number,
  quotaPerUnit: number,
  currency: ShownCurrency,
  rounding?: 'floor' | 'round',
): string {
  if (!currency.inCurrency || quotaPerUnit <= 0) return `${quota} 额度`;
  const amount = amountOfQuota(quota, quotaPerUnit, currency);
  const sign = amount < 0 ? '-' : '';
  if (!rounding) return `${sign}${currency.symbol}${Number(Math.abs(amount).toFixed(6)).toString()}`;
  const cents = wholeCents(Math.abs(amount) * 100, rounding);
  return `${sign}${currency.symbol}${(cents / 100).toFixed(2)}`;
}
