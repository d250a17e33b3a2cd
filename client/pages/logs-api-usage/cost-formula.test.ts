import { describe, expect, it } from 'vitest';
import { computeQuota, type PriceInfo } from '../../../server/domains/billing/pricing.rules.ts';
import { checkCost, costFormula, plain } from './cost-formula.ts';
import type { LogOther } from './log-meta.ts';

const PER_UNIT = 500_000;

/** The `other` JSON the relay logs for a price (relay-log.ts). */
function logged(p: PriceInfo, cached: number, creation: number, audio?: { in: number; out: number }): LogOther {
  return {
    model_ratio: p.modelRatio,
    completion_ratio: p.completionRatio,
    group_ratio: p.groupRatio,
    model_price: p.modelPrice,
    cache_tokens: cached,
    cache_ratio: p.cacheRatio,
    cache_creation_tokens: creation,
    cache_creation_ratio: p.cacheCreationRatio,
    ...(audio
      ? {
          audio: true,
          audio_input: audio.in,
          audio_output: audio.out,
          ...(p.audioRatio !== undefined
            ? { audio_ratio: p.audioRatio, audio_completion_ratio: p.audioCompletionRatio ?? 1 }
            : {}),
        }
      : {}),
  };
}

const ratio = (modelRatio: number, completionRatio: number, groupRatio = 1, extra: Partial<PriceInfo> = {}) =>
  ({
    mode: 'ratio',
    modelRatio,
    completionRatio,
    cacheRatio: 0.1,
    cacheCreationRatio: 1.25,
    groupRatio,
    modelPrice: -1,
    quotaPerUnit: PER_UNIT,
    fallback: false,
    ...extra,
  }) satisfies PriceInfo;

describe('the log details cost formula', () => {
  it('gives the quota the relay charged, for every kind of row', () => {
    const cases: [PriceInfo, number, number, number, number, { in: number; out: number }?][] = [
      [ratio(0.075, 4), 1000, 500, 0, 0],
      [ratio(0.075, 4), 12, 3, 0, 0],
      [ratio(0.0001, 1), 1, 0, 0, 0], // rounds to 0: charged 1
      [ratio(1.5, 5, 0.8), 2048, 731, 1536, 0],
      [ratio(1.5, 5, 1.3), 100, 20, 0, 4096],
      [ratio(0.135, 2, 0.5), 0, 0, 0, 0],
      [ratio(2.5, 4, 1, { audioRatio: 8, audioCompletionRatio: 2 }), 300, 200, 0, 0, { in: 120, out: 80 }],
      [ratio(2.5, 4, 1), 300, 200, 0, 0, { in: 120, out: 80 }], // no audio ratio: audio counts as text
      [{ ...ratio(0, 0, 1.5), mode: 'price', modelPrice: 0.04 }, 10, 10, 0, 0],
      [{ ...ratio(0, 0, 0.7), mode: 'price', modelPrice: 0.0123 }, 0, 0, 0, 0],
    ];
    for (const [p, prompt, completion, cached, creation, audio] of cases) {
      const usage = {
        promptTokens: prompt,
        completionTokens: completion,
        cachedTokens: cached,
        cacheCreationTokens: creation,
        audioPromptTokens: audio?.in,
        audioCompletionTokens: audio?.out,
      };
      const charged = computeQuota(p, usage);
      const check = checkCost(logged(p, cached, creation, audio), prompt, completion, charged, PER_UNIT);
      expect(check, JSON.stringify(usage)).not.toBeNull();
      expect(check!.formula.quota, JSON.stringify({ p, usage })).toBe(charged);
      expect(check!.adds).toBe(true);
    }
  });

  it('shows the terms the charge is made of', () => {
    const f = costFormula(logged(ratio(0.075, 4), 512, 0), 1212, 350, 0, PER_UNIT);
    expect(f).toMatchObject({
      mode: 'ratio',
      terms: [
        { kind: 'prompt', tokens: 700, weight: 1 },
        { kind: 'cached', tokens: 512, weight: 0.1 },
        { kind: 'completion', tokens: 350, weight: 4 },
      ],
      quota: 161,
    });
    expect(plain(f!.mode === 'ratio' ? f!.weighted : 0)).toBe('2,151.2');
  });

  it('counts image calls in price mode and a shortfall the balance could not cover', () => {
    const p = { ...ratio(0, 0, 1), mode: 'price' as const, modelPrice: 0.04 };
    const three = checkCost(logged(p, 0, 0), 0, 0, 60_000, PER_UNIT)!;
    expect(three.formula).toMatchObject({ mode: 'price', perCall: 20_000, calls: 3, quota: 60_000 });
    const short = checkCost({ ...logged(ratio(0.075, 4), 0, 0), shortfall: 100 }, 1000, 500, 125, PER_UNIT)!;
    expect(short).toMatchObject({ charged: 125, shortfall: 100, adds: true });
    expect(checkCost({ ...logged(ratio(0.075, 4), 0, 0) }, 1000, 500, 999, PER_UNIT)!.adds).toBe(false);
  });

  it('prices an image row per picture returned, with the size/quality multiplier, rounded once (issue 44)', () => {
    const p = { ...ratio(0, 0, 0.8), mode: 'price' as const, modelPrice: 0.04 };
    // 4 pictures at $0.04 in a 0.8 group: 4 x 0.04 x 500,000 x 0.8.
    const four = checkCost({ ...logged(p, 0, 0), image_count: 4, image_size: '1024x1024' }, 0, 0, 64_000, PER_UNIT)!;
    expect(four).toMatchObject({
      adds: true,
      formula: { mode: 'price', calls: 4, images: { count: 4, multiplier: 1 } },
    });
    // DALL-E 3 hd wide costs 3 plain pictures; a price of $0.0123 rounds once for the whole call.
    const hd = { ...logged({ ...p, modelPrice: 0.0123 }, 0, 0), image_count: 3, image_ratio: 3 };
    expect(checkCost(hd, 0, 0, Math.round(0.0123 * PER_UNIT * 0.8 * 3 * 3), PER_UNIT)!.adds).toBe(true);
    // One picture returned of the two asked is charged as one: two would not add up.
    const one = { ...logged(p, 0, 0), image_count: 1 };
    expect(checkCost(one, 0, 0, 16_000, PER_UNIT)!.adds).toBe(true);
    expect(checkCost(one, 0, 0, 32_000, PER_UNIT)!.adds).toBe(false);
  });

  it('has no formula for rows without a price', () => {
    expect(checkCost({}, 10, 10, 0, PER_UNIT)).toBeNull();
  });
});
