import { describe, expect, it } from 'vitest';
import { chartRows, MAX_SERIES, OTHER, slotStart, summarize } from './series.ts';

const at = (y: number, mo: number, d: number, h: number) => Math.floor(new Date(y, mo - 1, d, h).getTime() / 1000);

describe('dashboard series', () => {
  it('groups hours into days and Monday-based weeks', () => {
    const t = at(2026, 11, 19, 15); // a Thursday
    expect(slotStart(t, 'day')).toBe(at(2026, 11, 19, 0));
    expect(slotStart(t, 'week')).toBe(at(2026, 11, 16, 0));
    expect(slotStart(t + 1800, 'hour')).toBe(t);
  });

  it('sums a metric per slot and model, biggest models first, the rest as other', () => {
    const buckets = Array.from({ length: MAX_SERIES + 2 }, (_, i) => ({
      model_name: `m${i}`,
      created_at: at(2026, 11, 19, i % 2),
      token_used: 1,
      count: 1,
      quota: 100 - i,
    }));
    const { series, rows } = chartRows(buckets, 'day', 'quota');
    expect(series).toHaveLength(MAX_SERIES + 1);
    expect(series[0]).toBe('m0');
    expect(series.at(-1)).toBe(OTHER);
    expect(rows).toHaveLength(1);
    expect(rows[0][OTHER]).toBe(92 + 91);
    expect(summarize(buckets)).toMatchObject({ count: MAX_SERIES + 2, models: MAX_SERIES + 2 });
  });
});
