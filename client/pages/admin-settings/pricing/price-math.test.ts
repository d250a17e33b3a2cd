import { describe, expect, it } from 'vitest';
import {
  completionRatioFromPrices,
  mapsFromRows,
  outputPrice,
  pricePerMillion,
  ratioFromPrice,
  rowsFromMaps,
} from './price-math.ts';

describe('pricing editor arithmetic', () => {
  it('derives both ways with the spec constants', () => {
    expect(pricePerMillion(15)).toBe(30);
    expect(ratioFromPrice(30)).toBe(15);
    expect(ratioFromPrice(0.3)).toBe(0.15);
    expect(outputPrice(30, 2)).toBe(60);
    expect(completionRatioFromPrices(30, 60)).toBe(2);
    expect(completionRatioFromPrices(0, 60)).toBeUndefined();
  });

  it('a fixed price takes precedence and drops the ratios', () => {
    const rows = rowsFromMaps('{"mj":0.1}', '{"mj":5,"gpt":1}', '{"mj":2,"gpt":3}');
    expect(rows).toEqual([
      { name: 'gpt', price: undefined, ratio: 1, completionRatio: 3 },
      { name: 'mj', price: 0.1, ratio: 5, completionRatio: 2 },
    ]);
    const maps = mapsFromRows(rows);
    expect(JSON.parse(maps.ModelPrice)).toEqual({ mj: 0.1 });
    expect(JSON.parse(maps.ModelRatio)).toEqual({ gpt: 1 });
    expect(JSON.parse(maps.CompletionRatio)).toEqual({ gpt: 3 });
  });
});
