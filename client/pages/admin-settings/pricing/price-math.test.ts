import { describe, expect, it } from 'vitest';
import {
  completionRatioFromPrices,
  mapsFromRows,
  outputPrice,
  pricePerMillion,
  ratioFromPrice,
  rowsFromMaps,
  videoUnitsText,
  withVideoUnits,
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

  it('keeps VideoPriceUnit in step with the table: set, deleted, per token, or named only in the JSON', () => {
    const units = '{"sora-2":"job","veo-3":"second","kept-by-json":"job"}';
    const before = withVideoUnits(rowsFromMaps('{"sora-2":0.5,"veo-3":0.4,"gpt":1}', '{}', '{}'), {
      'sora-2': 'job',
      'veo-3': 'second',
    });
    expect(before.find((r) => r.name === 'sora-2')?.videoUnit).toBe('job');
    expect(before.find((r) => r.name === 'gpt')?.videoUnit).toBeUndefined();
    // veo-3 set per video, sora-2 deleted, a new kling row per second; a JSON-only entry survives.
    const next = [
      { name: 'veo-3', price: 0.4, videoUnit: 'job' as const },
      { name: 'gpt', price: 1 },
      { name: 'kling-v2-1', price: 0.1, videoUnit: 'second' as const },
    ];
    expect(JSON.parse(videoUnitsText(before, next, units))).toEqual({
      'kept-by-json': 'job',
      'kling-v2-1': 'second',
      'veo-3': 'job',
    });
    // A video row moved to per-token pricing has no fixed price to qualify.
    expect(JSON.parse(videoUnitsText(before, [{ name: 'veo-3', ratio: 1, videoUnit: 'job' }], units))).toEqual({
      'kept-by-json': 'job',
    });
  });
});
