import { describe, expect, it } from 'vitest';
import { costUsd, firstTokenColor, parseOther, retryChain, useTimeColor } from './log-meta.ts';

describe('usage-log helpers', () => {
  it('treats an unparsable or non-object other as empty', () => {
    expect(parseOther('not json')).toEqual({});
    expect(parseOther('[1,2]')).toEqual({});
    expect(parseOther('')).toEqual({});
    expect(parseOther('{"frt":300}')).toEqual({ frt: 300 });
  });

  it('colours latencies at the spec thresholds', () => {
    expect([100, 101, 299, 300].map(useTimeColor)).toEqual(['green', 'orange', 'orange', 'red']);
    expect([2.9, 3, 9.9, 10].map(firstTokenColor)).toEqual(['green', 'orange', 'orange', 'red']);
  });

  it('reads the retry chain', () => {
    expect(retryChain({ admin_info: { use_channel: [3, '5'] } })).toEqual(['3', '5']);
    expect(retryChain({})).toEqual([]);
  });

  it('computes the pay-per-use cost in USD', () => {
    // 1 × 0.075 × (1000 + 500 × 4) / 500000
    expect(costUsd({ model_ratio: 0.075, completion_ratio: 4, group_ratio: 1 }, 1000, 500, 500000)).toBeCloseTo(
      0.00045,
    );
    expect(costUsd({ model_price: 0.04, model_ratio: 0, group_ratio: 0.5 }, 0, 0, 500000)).toBe(0.02);
    expect(costUsd({}, 1, 1, 500000)).toBeNull();
  });
});
