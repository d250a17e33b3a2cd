import { describe, expect, it } from 'vitest';
import { availableIn, callable, displayPrice, priceDecimals, priceText, ratioColor } from './price.ts';

const usd = { displayInCurrency: true, quotaPerUnit: 500_000 };
const quota = { displayInCurrency: false, quotaPerUnit: 500_000 };
const priced = { price_source: 'model', callable: true } as const;

describe('pricing display', () => {
  it('shows per-1M-token prices in the display unit, three decimals in currency', () => {
    const d = displayPrice({ ...priced, quota_type: 0, model_ratio: 1.25, model_price: 0, completion_ratio: 4 }, 0.8);
    expect(d).toMatchObject({ kind: 'token', prompt: 2, completion: 8 });
    if (d.kind !== 'token') throw new Error(d.kind);
    expect([priceText(d.prompt, usd), priceText(d.completion, usd)]).toEqual(['$2.000', '$8.000']);
    // Quota mode: the same price in quota units (1M tokens at $2 = 1,000,000 at 500,000 per $).
    expect(priceText(d.prompt, quota)).toBe('1,000,000');
    // A small price keeps its digits: $0.075, not $0.08 or $0.000.
    expect(priceText(0.075, usd)).toBe('$0.075');
  });

  it('shows fixed prices per call, and per image for image models, times the group ratio', () => {
    const fixed = { ...priced, quota_type: 1, model_ratio: 0, model_price: 0.04, completion_ratio: 0 };
    expect(displayPrice({ ...fixed, unit: 'call' }, 1.5)).toEqual({ kind: 'call', price: 0.06, fallback: false });
    expect(displayPrice({ ...fixed, unit: 'image' }, 1)).toEqual({ kind: 'image', price: 0.04, fallback: false });
    // Video models (issue 40): per second of video, or per video, times the group ratio as any price.
    expect(displayPrice({ ...fixed, unit: 'second' }, 2)).toEqual({ kind: 'second', price: 0.08, fallback: false });
    expect(displayPrice({ ...fixed, unit: 'video' }, 0.5)).toEqual({ kind: 'video', price: 0.02, fallback: false });
    expect(priceText(0.06, usd)).toBe('$0.060');
  });

  it('adds the audio token prices of audio models', () => {
    const d = displayPrice(
      {
        ...priced,
        quota_type: 0,
        model_ratio: 1,
        model_price: 0,
        completion_ratio: 4,
        audio_ratio: 8,
        audio_completion_ratio: 2,
      },
      1,
    );
    expect(d).toMatchObject({ kind: 'token', prompt: 2, completion: 8, audio: { prompt: 16, completion: 32 } });
  });

  it('gives no amount for a model without a price', () => {
    const none = { quota_type: 0, model_ratio: 0, model_price: 0, completion_ratio: 0 };
    expect(displayPrice({ ...none, price_source: 'unset', callable: false }, 1)).toEqual({ kind: 'unavailable' });
    expect(displayPrice({ ...none, price_source: 'unset', callable: true }, 1)).toEqual({ kind: 'free_for_you' });
    expect(displayPrice({ ...none, price_source: 'self_use', callable: true }, 1)).toEqual({ kind: 'no_price_needed' });
    expect(callable({ ...none, price_source: 'unset', callable: false })).toBe(false);
    expect(callable({ ...none })).toBe(true);
  });

  it('colours group ratios and checks availability', () => {
    expect([0.5, 1, 1.5, 3.5, 6].map(ratioColor)).toEqual(['green', 'green', 'blue', 'orange', 'red']);
    expect(availableIn({ enable_groups: ['vip'] }, 'vip')).toBe(true);
    expect(availableIn({}, 'default')).toBe(false);
  });
});

describe('one precision per price column (issue 45)', () => {
  const token = (model_ratio: number) =>
    displayPrice({ ...priced, quota_type: 0, model_ratio, model_price: 0, completion_ratio: 1 }, 1);
  const call = (model_price: number) =>
    displayPrice({ ...priced, quota_type: 1, model_ratio: 0, model_price, completion_ratio: 1 }, 1);

  it('gives every price in the column as many decimals as the finest one needs, at least three', () => {
    // $0.27 and $0.3428 per 1M tokens: "$0.2700" and "$0.3428", never "$0.270" above "$0.3428".
    const prices = [token(0.135), token(0.1714)];
    const d = priceDecimals(prices, usd);
    expect(d).toBe(4);
    expect(prices.flatMap((p) => (p.kind === 'token' ? [priceText(p.prompt, usd, d)] : []))).toEqual([
      '$0.2700',
      '$0.3428',
    ]);
    expect(priceDecimals([token(1), call(0.04)], usd)).toBe(3);
  });

  it('shows dollar prices in yuan at the exchange rate, in quota when the site shows quota', () => {
    const yuan = { ...usd, symbol: '¥', rate: 7.3 };
    const d = priceDecimals([call(0.04), token(0.075)], yuan);
    expect(d).toBe(3);
    expect(priceText(0.04, yuan, d)).toBe('¥0.292');
    expect(priceText(0.15, yuan, d)).toBe('¥1.095');
    expect(priceText(0.04, quota, d)).toBe('20,000');
  });
});
