/*
 * Turns hourly quota_data buckets into chart rows: one row per time slot of the chosen
 * granularity over the whole range, empty slots included (zeros), so a quiet day reads as
 * a quiet day and one hour of data stays one hour wide. Slots are in the browser's time zone.
 * No macros here: vitest imports it.
 */

export type Granularity = 'hour' | 'day' | 'week';

const GRANULARITIES: Granularity[] = ['hour', 'day', 'week'];
const HOUR_S = 3600;
const DAY_S = 86_400;

/**
 * The granularity that draws a range as a readable number of bars: hours up to a day,
 * days up to a month, weeks beyond; never finer than `finest` (the site's DataExportDefaultTime).
 */
export function autoGranularity(rangeSeconds: number, finest: Granularity = 'hour'): Granularity {
  const auto: Granularity = rangeSeconds <= DAY_S ? 'hour' : rangeSeconds <= 31 * DAY_S ? 'day' : 'week';
  return GRANULARITIES[Math.max(GRANULARITIES.indexOf(auto), GRANULARITIES.indexOf(finest))];
}

/**
 * Where a range ending `now` starts: at its first whole hour (buckets are whole hours named by
 * their start, so a bucket begun before would be cut off and read as idle).
 */
export const rangeStart = (now: number, rangeSeconds: number) => Math.ceil((now - rangeSeconds) / HOUR_S) * HOUR_S;

/**
 * The range the page opens with: the shortest of `ranges` (ascending, seconds) that holds all of
 * `buckets`, so a day of use fills a day's chart instead of being a sliver of a week's;
 * `fallback` when there is no data.
 */
export function fitRange(buckets: Bucket[], ranges: number[], now: number, fallback: number): number {
  if (buckets.length === 0) return fallback;
  const oldest = Math.min(...buckets.map((b) => b.created_at));
  return ranges.find((r) => oldest >= rangeStart(now, r)) ?? ranges[ranges.length - 1];
}

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

/** The slot after the one starting at `t` (calendar steps, so DST days stay whole days). */
export function nextSlot(t: number, g: Granularity): number {
  const d = new Date(t * 1000);
  if (g === 'hour') d.setHours(d.getHours() + 1);
  else d.setDate(d.getDate() + (g === 'week' ? 7 : 1));
  return Math.floor(d.getTime() / 1000);
}

/** Every slot from the one holding `start` to the one holding `end`. */
export function slotsBetween(start: number, end: number, g: Granularity): number[] {
  const out: number[] = [];
  for (let s = slotStart(start, g); s <= end; s = nextSlot(s, g)) out.push(s);
  return out;
}

const p2 = (n: number) => String(n).padStart(2, '0');
const monthDay = (d: Date) => `${p2(d.getMonth() + 1)}-${p2(d.getDate())}`;

/** A slot's full name (the tooltip's title): "2026-11-19 15:00", "2026-11-19", "2026-11-16 ~ 11-22". */
export function slotLabel(t: number, g: Granularity): string {
  const d = new Date(t * 1000);
  const day = `${d.getFullYear()}-${monthDay(d)}`;
  if (g === 'hour') return `${day} ${p2(d.getHours())}:00`;
  if (g === 'day') return day;
  const last = new Date(nextSlot(t, g) * 1000 - 1000);
  return `${day} ~ ${monthDay(last)}`;
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
  /** One row per slot: `slot` (its label), `t` (its start) and each series' value (0 when idle). */
  rows: Record<string, number | string>[];
  slots: number[];
}

/** Rows for a metric over [start, end] at granularity `g`, every slot present. */
export function chartRows(
  buckets: Bucket[],
  g: Granularity,
  metric: Metric,
  range: { start: number; end: number },
): ChartData {
  const ordered = topModels(buckets);
  const shown = new Set(ordered.slice(0, MAX_SERIES));
  const series = [...shown, ...(ordered.length > MAX_SERIES ? [OTHER] : [])];
  const slots = slotsBetween(range.start, range.end, g);
  const bySlot = new Map<number, Record<string, number>>(
    slots.map((s) => [s, Object.fromEntries(series.map((m) => [m, 0]))]),
  );
  for (const b of buckets) {
    const row = bySlot.get(slotStart(b.created_at, g));
    // A bucket outside the range (the query reaches an hour past now) has no slot to go to.
    if (!row) continue;
    row[shown.has(b.model_name) ? b.model_name : OTHER] += b[metric];
  }
  const rows = slots.map((s) => ({ slot: slotLabel(s, g), t: s, ...bySlot.get(s) }));
  return { series, rows, slots };
}

/** Tick steps, in slots, that land on round times. */
const STEPS: Record<Granularity, number[]> = {
  hour: [1, 2, 3, 6, 12, 24, 48, 72, 168, 336],
  day: [1, 2, 3, 7, 14, 28],
  week: [1, 2, 4, 8, 13],
};

export interface AxisTicks {
  /** The slot labels that get a tick. */
  ticks: string[];
  /** A tick's short text: "15:00", a date at midnight, "11-19" for days and weeks. */
  text: Map<string, string>;
}

/**
 * At most `max` ticks on round times: hours on multiples of the step (midnight shows the
 * date), days and weeks every step-th slot from the first.
 */
export function axisTicks(slots: number[], g: Granularity, max: number): AxisTicks {
  const step = STEPS[g].find((s) => Math.ceil(slots.length / s) <= max) ?? STEPS[g].at(-1)!;
  const chosen = slots.filter((s, i) => {
    if (g !== 'hour') return i % step === 0;
    const d = new Date(s * 1000);
    if (step < 24) return d.getHours() % step === 0;
    // Whole days: midnights, every (step / 24)-th day counted from the epoch so ticks do not shift.
    const days = Math.round((s - d.getTimezoneOffset() * 60) / 86400);
    return d.getHours() === 0 && days % (step / 24) === 0;
  });
  // A range shorter than one step would have no tick at all: keep its first slot.
  const ticks = chosen.length ? chosen : slots.slice(0, 1);
  const text = new Map<string, string>();
  for (const s of ticks) {
    const d = new Date(s * 1000);
    const short = g === 'hour' && step < 24 && d.getHours() !== 0 ? `${p2(d.getHours())}:00` : monthDay(d);
    text.set(slotLabel(s, g), short);
  }
  return { ticks: [...text.keys()], text };
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

export interface ModelTotal {
  model: string;
  quota: number;
  count: number;
  tokens: number;
  /** Shares of the range's cost (quota) and of its requests, 0..1. */
  share: Record<ShareBasis, number>;
}

/** What a model's share is a share of. */
export type ShareBasis = 'cost' | 'requests';

/** The per-model breakdown: every model in the range, biggest spender first. */
export function modelTotals(buckets: Bucket[]): ModelTotal[] {
  const sum = summarize(buckets);
  const by = new Map<string, ModelTotal>();
  for (const b of buckets) {
    const m = by.get(b.model_name) ?? {
      model: b.model_name,
      quota: 0,
      count: 0,
      tokens: 0,
      share: { cost: 0, requests: 0 },
    };
    m.quota += b.quota;
    m.count += b.count;
    m.tokens += b.token_used;
    by.set(b.model_name, m);
  }
  return topModels(buckets).map((name) => {
    const m = by.get(name)!;
    const share = {
      cost: sum.quota > 0 ? m.quota / sum.quota : 0,
      requests: sum.count > 0 ? m.count / sum.count : 0,
    };
    return { ...m, share };
  });
}

/** An axis tick: 950, 5k, 12.5k, 2M, 3B; ticks are round numbers, so nothing is lost. */
export function compactTick(n: number): string {
  const abs = Math.abs(n);
  const short = (v: number, unit: string) => `${Number(v.toFixed(1))}${unit}`;
  if (abs >= 1e9) return short(n / 1e9, 'B');
  if (abs >= 1e6) return short(n / 1e6, 'M');
  if (abs >= 1e3) return short(n / 1e3, 'k');
  return String(n);
}

/** A share as a whole percentage; a non-zero share too small to round up still shows ("<1%"). */
export function formatShare(share: number): string {
  if (share > 0 && share < 0.005) return '<1%';
  return `${Math.round(share * 100)}%`;
}
