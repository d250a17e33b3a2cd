/*
 * Turns hourly quota_data buckets into chart rows per time slot and model.
 * No macros here: vitest imports it.
 */

export type Granularity = 'hour' | 'day' | 'week';

export interface Bucket {
  model_name: string;
  created_at: number;
  token_used: number;
  count: number;
  quota: number;
}

export type Metric = 'quota' | 'count' | 'token_used';

/** Charts stay readable with a handful of series; the rest are summed as "other". */
export const MAX_SERIES = 8;
export const OTHER = '__other__';

/** Start of the slot holding `t` (unix s), in the browser's time zone; weeks start on Monday. */
export function slotStart(t: number, g: Granularity): number {
  const d = new Date(t * 1000);
  if (g === 'hour') d.setMinutes(0, 0, 0);
  else {
    d.setHours(0, 0, 0, 0);
    if (g === 'week') d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  }
  return Math.floor(d.getTime() / 1000);
}

export function slotLabel(t: number, g: Granularity): string {
  const d = new Date(t * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  const day = `${p(d.getMonth() + 1)}-${p(d.getDate())}`;
  return g === 'hour' ? `${day} ${p(d.getHours())}:00` : day;
}

/** Models ordered by total quota (then requests), biggest first. */
export function topModels(buckets: Bucket[]): string[] {
  const totals = new Map<string, { quota: number; count: number }>();
  for (const b of buckets) {
    const t = totals.get(b.model_name) ?? { quota: 0, count: 0 };
    t.quota += b.quota;
    t.count += b.count;
    totals.set(b.model_name, t);
  }
  return [...totals.entries()]
    .sort((a, b) => b[1].quota - a[1].quota || b[1].count - a[1].count || a[0].localeCompare(b[0]))
    .map(([m]) => m);
}

export interface ChartData {
  series: string[];
  rows: Record<string, number | string>[];
}

export function chartRows(buckets: Bucket[], g: Granularity, metric: Metric): ChartData {
  const ordered = topModels(buckets);
  const shown = new Set(ordered.slice(0, MAX_SERIES));
  const series = [...shown, ...(ordered.length > MAX_SERIES ? [OTHER] : [])];
  const slots = new Map<number, Record<string, number>>();
  for (const b of buckets) {
    const s = slotStart(b.created_at, g);
    const row = slots.get(s) ?? Object.fromEntries(series.map((m) => [m, 0]));
    const key = shown.has(b.model_name) ? b.model_name : OTHER;
    row[key] += b[metric];
    slots.set(s, row);
  }
  const rows = [...slots.entries()].sort((a, b) => a[0] - b[0]).map(([s, v]) => ({ slot: slotLabel(s, g), ...v }));
  return { series, rows };
}

export interface Summary {
  quota: number;
  count: number;
  tokens: number;
  models: number;
}

export function summarize(buckets: Bucket[]): Summary {
  return {
    quota: buckets.reduce((n, b) => n + b.quota, 0),
    count: buckets.reduce((n, b) => n + b.count, 0),
    tokens: buckets.reduce((n, b) => n + b.token_used, 0),
    models: new Set(buckets.map((b) => b.model_name)).size,
  };
}
