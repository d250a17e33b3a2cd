import { describe, expect, it } from 'vitest';
import { formatCount, formatQuota, renderNumber } from './format.ts';

const dollars = { displayInCurrency: true, quotaPerUnit: 500_000 };
const tokens = { displayInCurrency: false, quotaPerUnit: 500_000 };

describe('number and quota display', () => {
  it('abbreviates with k from 10,000, M and B (compact spots only)', () => {
    expect(renderNumber(9999)).toBe('9999');
    expect(renderNumber(12_345)).toBe('12.3k');
    expect(renderNumber(2_500_000)).toBe('2.5M');
    expect(renderNumber(3_000_000_000)).toBe('3B');
  });

  it('counts are whole numbers with separators', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(12_345)).toBe('12,345');
    expect(formatCount(2.25)).toBe('2');
  });

  it('shows dollars per QuotaPerUnit with two decimals when they are exact', () => {
    expect(formatQuota(615_000, dollars)).toBe('$1.23');
    expect(formatQuota(0, dollars)).toBe('$0.00');
    expect(formatQuota(-500_000, dollars)).toBe('-$1.00');
    expect(formatQuota(1_234_500_000, dollars)).toBe('$2,469.00');
  });

  it('never rounds a small amount into a different one', () => {
    // 12 units at 500000/$ is $0.000024: neither "$0.01" nor "$0.00".
    expect(formatQuota(12, dollars)).toBe('$0.000024');
    expect(formatQuota(1, dollars)).toBe('$0.000002');
    expect(formatQuota(43, dollars)).toBe('$0.000086');
    expect(formatQuota(-7, dollars)).toBe('-$0.000014');
    // A balance keeps its last unit too.
    expect(formatQuota(6_172_839, dollars)).toBe('$12.345678');
  });

  it('every quota reads back as itself, whatever the quota per unit', () => {
    for (const perUnit of [500_000, 7, 1_000, 333_333.5, 1])
      for (const q of [1, 2, 12, 99, 1_000, 123_457, 9_999_999]) {
        const text = formatQuota(q, { displayInCurrency: true, quotaPerUnit: perUnit });
        expect(Math.round(Number(text.replace(/[$,]/g, '')) * perUnit), `${q} at ${perUnit}/$: ${text}`).toBe(q);
      }
  });

  it('pads to fewer decimals only when asked (presets), still exact', () => {
    expect(formatQuota(5_000_000, dollars, 0)).toBe('$10');
    expect(formatQuota(500_000_000, dollars, 0)).toBe('$1,000');
    expect(formatQuota(250_001, dollars, 0)).toBe('$0.500002');
  });

  it('shows the quota itself, unabbreviated, when currency display is off', () => {
    expect(formatQuota(615_000, tokens)).toBe('615,000');
    expect(formatQuota(12, tokens)).toBe('12');
    expect(formatQuota(12_345, tokens)).toBe('12,345');
  });
});
