import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.ts';
import {
  type OptionKey,
  type OptionReader,
  optionRegistry,
  type OptionValue,
  parseOption,
} from '../../../shared/options.ts';
import { computeQuota, priceDescription, reservationFor, resolvePrice } from './pricing.rules.ts';

/** An in-memory option reader: registry defaults overridden by the given raw strings. */
function reader(raw: Partial<Record<OptionKey, string>>): OptionReader {
  return (<K extends OptionKey>(key: K): OptionValue<K> => {
    const r = parseOption(key, raw[key] ?? optionRegistry[key].default);
    if (!r.ok) throw new Error(r.message);
    return r.value;
  }) as OptionReader;
}

const opts = reader({
  ModelRatio: JSON.stringify({ m: 2.5, tiny: 0.0001 }),
  CompletionRatio: JSON.stringify({ m: 4 }),
  CacheRatio: JSON.stringify({ m: 0.1 }),
  CacheCreationRatio: JSON.stringify({ m: 1.25 }),
  ModelPrice: JSON.stringify({ fixed: 0.02 }),
  GroupRatio: JSON.stringify({ default: 1, vip: 0.8 }),
});
const counts = (p: number, c: number, cached = 0, creation = 0) => ({
  promptTokens: p,
  completionTokens: c,
  cachedTokens: cached,
  cacheCreationTokens: creation,
});

describe('pricing', () => {
  it('charges ratio mode to the unit, with cache reads, cache writes and group ratio', () => {
    const r = resolvePrice(opts, 'm', 'vip', false);
    if (!r.ok) throw new Error(r.message);
    // (1000 - 200 + 200*0.1 + 100*1.25 + 300*4) * 2.5 * 0.8 = (800 + 20 + 125 + 1200) * 2 = 4290
    expect(computeQuota(r.price, counts(1000, 300, 200, 100))).toBe(4290);
    expect(priceDescription(r.price)).toBe('模型倍率 2.5，补全倍率 4，分组倍率 0.8');
  });

  it("a fresh install bills Claude's cache reads at 0.1 and writes at 1.25 of the input price, as Anthropic does", () => {
    const r = resolvePrice(reader({}), 'claude-sonnet-4-20250514', 'default', false);
    if (!r.ok) throw new Error(r.message);
    expect(r.price).toMatchObject({ modelRatio: 1.5, cacheRatio: 0.1, cacheCreationRatio: 1.25 });
    // (1000 - 800 + 800*0.1 + 100*1.25 + 10*5) * 1.5 = (200 + 80 + 125 + 50) * 1.5 = 682.5 -> 683
    expect(computeQuota(r.price, counts(1000, 10, 800, 100))).toBe(683);
  });

  it('rounds half up and charges at least 1 for a positive ratio, 0 for zero tokens', () => {
    const r = resolvePrice(opts, 'tiny', 'default', false);
    if (!r.ok) throw new Error(r.message);
    expect(computeQuota(r.price, counts(10, 0))).toBe(1);
    expect(computeQuota(r.price, counts(0, 0))).toBe(0);
    const m = resolvePrice(opts, 'm', 'default', false);
    if (!m.ok) throw new Error(m.message);
    // (1 + 0*4) * 2.5 = 2.5 -> 3
    expect(computeQuota(m.price, counts(1, 0))).toBe(3);
  });

  it('fixed price overrides ratios: price * QuotaPerUnit * group ratio', () => {
    const r = resolvePrice(opts, 'fixed', 'vip', false);
    if (!r.ok) throw new Error(r.message);
    expect(r.price.mode).toBe('price');
    expect(computeQuota(r.price, counts(999, 999))).toBe(Math.round(0.02 * 500_000 * 0.8));
    expect(reservationFor(r.price, 0, undefined, 500, true)).toBe(8000);
  });

  it('refuses unset models unless accepted or fallback pricing is on', () => {
    const r = resolvePrice(opts, 'unknown-model', 'default', false);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('模型倍率或价格未配置');
    const accepted = resolvePrice(opts, 'unknown-model', 'default', true);
    expect(accepted.ok && computeQuota(accepted.price, counts(100, 100))).toBe(0);
    const fb = reader({ fallback_pricing_enabled: 'true', fallback_input_ratio: '2', fallback_completion_ratio: '3' });
    const f = resolvePrice(fb, 'unknown-model', 'default', false);
    if (!f.ok) throw new Error(f.message);
    expect(f.price.fallback).toBe(true);
    expect(computeQuota(f.price, counts(10, 10))).toBe((10 + 30) * 2);
    const single = reader({ fallback_pricing_enabled: 'true', fallback_single_price: '0.001' });
    const s = resolvePrice(single, 'unknown-model', 'default', false);
    expect(s.ok && computeQuota(s.price, counts(1, 1))).toBe(500);
  });

  it('a model named like an Object member (toString, constructor) has no price unless one is set', () => {
    for (const name of ['toString', 'constructor', '__proto__']) {
      const r = resolvePrice(opts, name, 'toString', false);
      expect(r.ok).toBe(false);
    }
    const priced = reader({ ModelRatio: JSON.stringify({ toString: 2 }) });
    const r = resolvePrice(priced, 'toString', 'constructor', false);
    expect(r.ok && r.price.modelRatio).toBe(2);
    expect(r.ok && r.price.groupRatio).toBe(1);
  });

  it('never prices with a half-set fallback (a ratio cleared while fallback is on)', () => {
    const half = reader({
      fallback_pricing_enabled: 'true',
      fallback_input_ratio: '2',
      fallback_completion_ratio: '0',
    });
    const r = resolvePrice(half, 'unknown-model', 'default', false);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('模型倍率或价格未配置');
  });

  it('reserves an upper bound including the completion ratio, or PreConsumedQuota without a limit', () => {
    const r = resolvePrice(opts, 'm', 'default', false);
    if (!r.ok) throw new Error(r.message);
    expect(reservationFor(r.price, 20, 100, 500, true)).toBe(Math.ceil((20 + 100 * 4) * 2.5));
    expect(reservationFor(r.price, 20, undefined, 500, true)).toBe(500);
    // Embeddings: the prompt alone bounds the price.
    expect(reservationFor(r.price, 20, undefined, 500, false)).toBe(50);
  });
});

describe('the billing service price cache', () => {
  it('answers from memory until a price option changes, then with the new price', async () => {
    const t = await createTestApp();
    try {
      const billing = t.deps.services.billing;
      expect(billing.resolvePrice('cached-model', 'default', false).ok).toBe(false);
      await t.deps.services.options.update('ModelRatio', JSON.stringify({ 'cached-model': 2 }));
      const first = billing.resolvePrice('cached-model', 'default', false);
      expect(first.ok && first.price.modelRatio).toBe(2);
      expect(billing.resolvePrice('cached-model', 'default', false)).toBe(first);
      await t.deps.services.options.update('ModelRatio', JSON.stringify({ 'cached-model': 3 }));
      const next = billing.resolvePrice('cached-model', 'default', false);
      expect(next.ok && next.price.modelRatio).toBe(3);
    } finally {
      await t.close();
    }
  });
});
