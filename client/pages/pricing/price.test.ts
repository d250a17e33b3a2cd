import { describe, expect, it } from 'vitest';
import { availableIn, displayPrice, ratioColor } from './price.ts';

describe('pricing display', () => {
  it('shows per-1M-token prices with three decimals', () => {
    expect(displayPrice({ quota_type: 0, model_ratio: 1.25, model_price: 0, completion_ratio: 4 }, 0.8)).toEqual({
      kind: 'token',
      prompt: '2.000',
      completion: '8.000',
    });
  });

  it('shows per-call prices times the group ratio', () => {
    expect(displayPrice({ quota_type: 1, model_ratio: 0, model_price: 0.04, completion_ratio: 0 }, 1.5)).toEqual({
      kind: 'call',
      price: '0.060',
    });
  });

  it('colours group ratios and checks availability', () => {
    expect([0.5, 1, 1.5, 3.5, 6].map(ratioColor)).toEqual(['green', 'green', 'blue', 'orange', 'red']);
    expect(availableIn({ enable_groups: ['vip'] }, 'vip')).toBe(true);
    expect(availableIn({}, 'default')).toBe(false);
  });
});
