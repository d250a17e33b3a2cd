/** "3 minutes ago" in the UI language within a week; null beyond (callers show the date then). */
export function relativeTime(seconds: number, locale: string, now = Date.now()): string | null {
  const diff = Math.round(seconds - now / 1000);
  const abs = Math.abs(diff);
  if (abs >= 7 * 86_400) return null;
  const rtf = new Intl.RelativeTimeFormat(locale === 'zh' ? 'zh-CN' : locale, { numeric: 'auto' });
  if (abs < 60) return rtf.format(0, 'second');
  if (abs < 3600) return rtf.format(Math.trunc(diff / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.trunc(diff / 3600), 'hour');
  return rtf.format(Math.trunc(diff / 86_400), 'day');
}
