import { describe, expect, it } from 'vitest';
import { formatQuota, renderNumber } from './format.ts';

describe('number and quota display', () => {
  it('abbreviates with k from 10,000, M and B', () => {
    expect(renderNumber(9999)).toBe('9999');
    expect(renderNumber(12_345)).toBe('12.3k');
    expect(renderNumber(2_500_000)).toBe('2.5M');
    expect(renderNumber(3_000_000_000)).toBe('3B');
  });

  it('shows dollars per QuotaPerUnit when display in currency is on', () => {
    const display = { displayInCurrency: true, quotaPerUnit: 500_000 };
    expect(formatQuota(615_000, display)).toBe('$1.23');
    expect(formatQuota(0, display)).toBe('$0.00');
    expect(formatQuota(1, display)).toBe('$0.01');
    expect(formatQuota(-500_000, display)).toBe('-$1.00');
  });

  it('shows the raw number when currency display is off', () => {
    expect(formatQuota(615_000, { displayInCurrency: false, quotaPerUnit: 500_000 })).toBe('615k');
  });
});
