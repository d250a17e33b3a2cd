/*
 * Quota as people read it in server messages and logs: dollars when the site shows
 * currency ("$1", "$0.002"), otherwise raw quota points. The console has its own,
 * locale-aware formatter; this one is for Chinese server texts such as "签到获得 $0.01".
 */
export function quotaText(quota: number, quotaPerUnit: number, inCurrency: boolean): string {
  if (!inCurrency || quotaPerUnit <= 0) return `${quota} 额度`;
  const dollars = quota / quotaPerUnit;
  return `$${Number(dollars.toFixed(6)).toString()}`;
}
