import { describe, expect, it } from 'vitest';
import {
  axisTicks,
  chartRows,
  compactTick,
  autoGranularity,
  fitRange,
  formatShare,
  MAX_SERIES,
  modelTotals,
  OTHER,
  slotLabel,
  slotStart,
  slotsBetween,
  summarize,
} from './series.ts';

const at = (y: number, mo: number, d: number, h: number, mi = 0) =>
  Math.floor(new Date(y, mo - 1, d, h, mi).getTime() / 1000);
const bucket = (model: string, t: number, quota: number, count = 1) => ({
  model_name: model,
  created_at: t,
  token_used: quota * 2,
  count,
  quota,
});

describe('dashboard series', () => {
  it('groups hours into days and Monday-based weeks', () => {
    const t = at(2026, 11, 19, 15); // a Thursday
    expect(slotStart(t, 'day')).toBe(at(2026, 11, 19, 0));
    expect(slotStart(t, 'week')).toBe(at(2026, 11, 16, 0));
    expect(slotStart(t + 1800, 'hour')).toBe(t);
    expect(slotLabel(at(2026, 11, 16, 0), 'week')).toBe('2026-11-16 ~ 11-22');
    expect(slotLabel(t, 'hour')).toBe('2026-11-19 15:00');
  });

  it('sums a metric per slot and model, biggest models first, the rest as other', () => {
    const buckets = Array.from({ length: MAX_SERIES + 2 }, (_, i) => bucket(`m${i}`, at(2026, 11, 19, i % 2), 100 - i));
    const range = { start: at(2026, 11, 19, 0), end: at(2026, 11, 19, 23, 59) };
    const { series, rows } = chartRows(buckets, 'day', 'quota', range);
    expect(series).toHaveLength(MAX_SERIES + 1);
    expect(series[0]).toBe('m0');
    expect(series.at(-1)).toBe(OTHER);
    expect(rows).toHaveLength(1);
    expect(rows[0][OTHER]).toBe(92 + 91);
    expect(summarize(buckets)).toMatchObject({ count: MAX_SERIES + 2, models: MAX_SERIES + 2 });
  });

  it('fills every slot of the range with zeros: one hour of data stays one hour wide', () => {
    const end = at(2026, 11, 24, 18, 15);
    const start = end - 7 * 86400;
    const buckets = [bucket('gpt-4o-mini', at(2026, 11, 24, 17), 12, 3)];
    const hourly = chartRows(buckets, 'hour', 'count', { start, end });
    expect(hourly.rows).toHaveLength(7 * 24 + 1);
    expect(hourly.rows.filter((r) => r['gpt-4o-mini'] !== 0)).toEqual([
      { slot: '2026-11-24 17:00', t: at(2026, 11, 24, 17), 'gpt-4o-mini': 3 },
    ]);
    const daily = chartRows(buckets, 'day', 'count', { start, end });
    expect(daily.rows.map((r) => r.slot)).toEqual(slotsBetween(start, end, 'day').map((s) => slotLabel(s, 'day')));
    expect(daily.rows).toHaveLength(8);
    expect(daily.rows.map((r) => r['gpt-4o-mini'])).toEqual([0, 0, 0, 0, 0, 0, 0, 3]);
    // A bucket past the end (the query reaches an hour ahead) is left out, not charted at the edge.
    expect(chartRows([bucket('x', end + 3600, 1)], 'hour', 'count', { start, end }).rows.every((r) => r.x === 0)).toBe(
      true,
    );
  });

  it('puts at most the asked number of ticks on round times', () => {
    const end = at(2026, 11, 24, 18, 15);
    const day = axisTicks(slotsBetween(end - 86400, end, 'hour'), 'hour', 8);
    expect(day.ticks.length).toBeLessThanOrEqual(8);
    expect([...day.text.values()]).toEqual(['18:00', '11-24', '06:00', '12:00', '18:00']);
    const week = axisTicks(slotsBetween(end - 7 * 86400, end, 'hour'), 'hour', 8);
    expect([...week.text.values()]).toEqual(['11-18', '11-19', '11-20', '11-21', '11-22', '11-23', '11-24']);
    const month = axisTicks(slotsBetween(end - 30 * 86400, end, 'day'), 'day', 8);
    expect(month.ticks.length).toBeLessThanOrEqual(8);
    expect(month.ticks.length).toBeGreaterThanOrEqual(4);
    const one = axisTicks(slotsBetween(end - 3600, end, 'week'), 'week', 8);
    expect([...one.text.values()]).toEqual(['11-23']);
  });

  it('breaks the range down per model with its shares of the cost and of the requests', () => {
    const t = at(2026, 11, 24, 10);
    const totals = modelTotals([bucket('a', t, 30), bucket('b', t, 10), bucket('a', t + 3600, 60, 2)]);
    expect(totals).toEqual([
      { model: 'a', quota: 90, count: 3, tokens: 180, share: { cost: 0.9, requests: 0.75 } },
      { model: 'b', quota: 10, count: 1, tokens: 20, share: { cost: 0.1, requests: 0.25 } },
    ]);
  });

  it('picks the granularity from the range: hours for a day, days up to a month, weeks beyond', () => {
    expect([3600, 86_400, 7 * 86_400, 31 * 86_400, 90 * 86_400].map((r) => autoGranularity(r))).toEqual([
      'hour',
      'hour',
      'day',
      'day',
      'week',
    ]);
    // The site's default granularity is the finest the page goes.
    expect(autoGranularity(86_400, 'day')).toBe('day');
    expect(autoGranularity(7 * 86_400, 'week')).toBe('week');
    expect(autoGranularity(90 * 86_400, 'day')).toBe('week');
  });

  it('opens on the shortest range that holds the data', () => {
    const now = at(2026, 11, 24, 10, 30);
    const ranges = [86_400, 7 * 86_400, 30 * 86_400];
    const ago = (h: number) => bucket('a', Math.floor((now - h * 3600) / 3600) * 3600, 1);
    expect(fitRange([], ranges, now, 7 * 86_400)).toBe(7 * 86_400);
    expect(fitRange([ago(0), ago(20)], ranges, now, 7 * 86_400)).toBe(86_400);
    // 24 h ago began before the day's first whole hour: a day would cut it off.
    expect(fitRange([ago(24)], ranges, now, 7 * 86_400)).toBe(7 * 86_400);
    expect(fitRange([ago(0), ago(24 * 10)], ranges, now, 7 * 86_400)).toBe(30 * 86_400);
    expect(fitRange([ago(24 * 40)], ranges, now, 7 * 86_400)).toBe(30 * 86_400);
  });

  it('keeps axis ticks short and shares honest', () => {
    expect([0, 950, 5000, 12_500, 2_000_000, 3e9].map(compactTick)).toEqual(['0', '950', '5k', '12.5k', '2M', '3B']);
    expect([0, 0.001, 0.004, 0.14, 1].map(formatShare)).toEqual(['0%', '<1%', '<1%', '14%', '100%']);
  });
});
