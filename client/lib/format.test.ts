import { describe, expect, it } from 'vitest';
import {
  formatCents,
  formatCount,
  formatMoney,
  formatQuota,
  formatUsd,
  decimalsForPrices,
  displayOfStatus,
  inputDecimals,
  quotaCounterpart,
  quotaDisplay,
  quotaInputText,
  quotaOfInput,
  quotaOfUnits,
  renderNumber,
  setQuotaDisplay,
} from './format.ts';

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

describe('one balance, one text (issue 28)', () => {
  it('a balance of 99,999,984 quota reads $199.999968 everywhere, not $199.9997 or $199.99972', () => {
    expect(formatQuota(99_999_984, dollars)).toBe('$199.999968');
    expect(formatQuota(99_999_984, tokens)).toBe('99,999,984');
    // Neighbours stay distinct from it and from the round amount.
    expect(formatQuota(99_999_985, dollars)).toBe('$199.99997');
    expect(formatQuota(100_000_000, dollars)).toBe('$200.00');
  });

  it('a non-zero amount never reads as zero, in either unit', () => {
    expect(formatQuota(1, dollars)).not.toMatch(/^\$0\.0+$/);
    expect(formatQuota(1, { displayInCurrency: true, quotaPerUnit: 7_000_000 })).toBe('$0.0000001');
    expect(formatQuota(1, tokens)).toBe('1');
  });

  it('the loaded status object decides the display, at whatever rate the operator set', () => {
    setQuotaDisplay({ display_in_currency: true, quota_per_unit: 1_000 });
    expect(quotaDisplay()).toEqual({ displayInCurrency: true, quotaPerUnit: 1_000, symbol: '$', rate: 1 });
    setQuotaDisplay({ display_in_currency: false, quota_per_unit: 0 });
    expect(quotaDisplay()).toMatchObject({ displayInCurrency: false, quotaPerUnit: 500_000 });
  });
});

describe('money at the cents a user can spend (issue 39)', () => {
  it('a balance shows two decimals, rounded down: never more than can be spent', () => {
    // 4,868,338 quota is exactly $9.736676: rounding would promise a cent that is not there.
    expect(formatCents(4_868_338, dollars, 'floor')).toBe('$9.73');
    expect(formatQuota(4_868_338, dollars)).toBe('$9.736676');
    expect(formatCents(99_999_984, dollars, 'floor')).toBe('$199.99');
    expect(formatCents(100_000_000, dollars, 'floor')).toBe('$200.00');
    expect(formatCents(1_234_500_000, dollars, 'floor')).toBe('$2,469.00');
    // Less than a cent is nothing to spend.
    expect(formatCents(12, dollars, 'floor')).toBe('$0.00');
    expect(formatCents(0, dollars, 'floor')).toBe('$0.00');
    // A debt shows all of it.
    expect(formatCents(-7, dollars, 'floor')).toBe('-$0.01');
  });

  it('counts every whole cent exactly, at any quota per unit', () => {
    expect(formatCents(145_000, dollars, 'floor')).toBe('$0.29');
    // Quota per unit as a fraction (333,333.5 = 666,667 / 2), so the expected cents are exact integer math.
    for (const [num, den] of [
      [500_000n, 1n],
      [7n, 1n],
      [1_000n, 1n],
      [666_667n, 2n],
      [1n, 1n],
    ])
      for (const q of [1, 7, 12, 145_000, 333_334, 4_868_338, 99_999_984]) {
        const cents = (BigInt(q) * 100n * den) / num;
        const text = formatCents(q, { displayInCurrency: true, quotaPerUnit: Number(num) / Number(den) }, 'floor');
        expect(Math.round(Number(text.replace(/[$,]/g, '')) * 100), `${q} at ${num}/${den} per $: ${text}`).toBe(
          Number(cents),
        );
      }
  });

  it('a total used rounds to the nearest cent', () => {
    expect(formatCents(4_868_338, dollars, 'round')).toBe('$9.74');
    expect(formatCents(12, dollars, 'round')).toBe('<$0.01');
    expect(formatCents(0, dollars, 'round')).toBe('$0.00');
    expect(formatCents(2_500, dollars, 'round')).toBe('$0.01');
  });

  it('quota points stay exact whole numbers', () => {
    expect(formatCents(4_868_338, tokens, 'floor')).toBe('4,868,338');
  });
});

describe('quota inputs in the display unit', () => {
  it('typing $5 means 5 x QuotaPerUnit quota; typing 5 in quota mode means 5 quota', () => {
    expect(quotaOfInput('5', dollars)).toBe(2_500_000);
    expect(quotaOfInput(5, tokens)).toBe(5);
    expect(quotaOfInput('5', { displayInCurrency: true, quotaPerUnit: 1_000 })).toBe(5_000);
    expect(quotaOfInput('1,234.5', dollars)).toBe(617_250_000);
  });

  it('rounds what was typed to the nearest whole quota', () => {
    expect(quotaOfInput('0.1', dollars)).toBe(50_000);
    expect(quotaOfInput('199.999968', dollars)).toBe(99_999_984);
    expect(quotaOfInput('0.0000011', dollars)).toBe(1);
    expect(quotaOfInput('0.3', { displayInCurrency: true, quotaPerUnit: 7 })).toBe(2);
    expect(quotaOfInput('12.6', tokens)).toBe(13);
    expect(quotaOfInput('-2', dollars)).toBe(-1_000_000);
  });

  it('an empty input is no quota at all, not zero', () => {
    expect(quotaOfInput('', dollars)).toBeNaN();
    expect(quotaOfInput('abc', tokens)).toBeNaN();
  });

  it('shows a stored quota as the exact amount, which reads back as the same quota', () => {
    expect(quotaInputText(2_500_000, dollars)).toBe('5');
    expect(quotaInputText(99_999_984, dollars)).toBe('199.999968');
    expect(quotaInputText(12, dollars)).toBe('0.000024');
    expect(quotaInputText(-1_000_000, dollars)).toBe('-2');
    expect(quotaInputText(2_500_000, tokens)).toBe('2500000');
    for (const q of [1, 7, 333, 99_999_984, 123_456_789])
      expect(quotaOfInput(quotaInputText(q, dollars), dollars)).toBe(q);
  });

  it('accepts as many decimals as one quota unit needs', () => {
    expect(inputDecimals(dollars)).toBe(6);
    expect(inputDecimals({ displayInCurrency: true, quotaPerUnit: 1 })).toBe(2);
    expect(inputDecimals(tokens)).toBe(0);
  });

  it('names the other unit beside the field', () => {
    expect(quotaCounterpart(2_500_000, dollars)).toBe('2,500,000');
    expect(quotaCounterpart(2_500_000, tokens)).toBe('$5.00');
    expect(quotaCounterpart(5, tokens)).toBe('$0.00001');
  });

  it('presets in currency follow the rate, never a fixed 500,000', () => {
    expect([1, 10, 1000].map((u) => quotaOfUnits(u, dollars))).toEqual([500_000, 5_000_000, 500_000_000]);
    expect(quotaOfUnits(0.2, { displayInCurrency: false, quotaPerUnit: 1_000 })).toBe(200);
  });
});

describe('money that is not quota (upstream balances, prices)', () => {
  it('keeps at least two decimals and every significant digit', () => {
    expect(formatMoney(2.5)).toBe('$2.50');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(0.075)).toBe('$0.075');
    expect(formatMoney(0.0001)).toBe('$0.0001');
    expect(formatMoney(199.999968)).toBe('$199.999968');
    expect(formatMoney(1234567.5)).toBe('$1,234,567.50');
    expect(formatMoney(-3)).toBe('-$3.00');
    expect(formatMoney(0.1 + 0.2)).toBe('$0.30');
  });
});

describe('money in the currency the operator chose (issue 45)', () => {
  const status = { display_in_currency: true, quota_per_unit: 500_000, usd_exchange_rate: 7.3 };
  const yuan = displayOfStatus({ ...status, quota_display_type: 'CNY' });
  const custom = displayOfStatus({
    ...status,
    quota_display_type: 'CUSTOM',
    custom_currency_symbol: '€',
    custom_currency_exchange_rate: 0.9,
  });

  it('reads the four /api/status fields as new-api names them', () => {
    expect(yuan).toEqual({ displayInCurrency: true, quotaPerUnit: 500_000, symbol: '¥', rate: 7.3 });
    expect(custom).toMatchObject({ displayInCurrency: true, symbol: '€', rate: 0.9 });
    expect(displayOfStatus({ ...status, quota_display_type: 'TOKENS' }).displayInCurrency).toBe(false);
    // The older switch off means quota, whatever the type says; an unknown type is dollars.
    expect(
      displayOfStatus({ ...status, display_in_currency: false, quota_display_type: 'CNY' }).displayInCurrency,
    ).toBe(false);
    expect(displayOfStatus({ ...status, quota_display_type: 'EUR' })).toMatchObject({ symbol: '$', rate: 1 });
    // A rate of 0 or none would show every amount as zero: it counts as 1.
    expect(displayOfStatus({ ...status, quota_display_type: 'CNY', usd_exchange_rate: 0 }).rate).toBe(1);
  });

  it('yuan are dollars times the exchange rate, exact in details and at whole fen at a glance', () => {
    // $1 = ¥7.30; 4,868,338 quota = $9.736676 = ¥71.0777348.
    expect(formatQuota(500_000, yuan)).toBe('¥7.30');
    expect(formatCents(4_868_338, yuan, 'floor')).toBe('¥71.07');
    expect(formatCents(4_868_338, yuan, 'round')).toBe('¥71.08');
    expect(formatQuota(-500_000, yuan)).toBe('-¥7.30');
    expect(formatCents(12, yuan, 'round')).toBe('<¥0.01');
    expect(formatCents(12, yuan, 'floor')).toBe('¥0.00');
    expect(formatQuota(1_234_500_000, custom)).toBe('€2,222.10');
  });

  it('an exact amount in yuan still names exactly its quota', () => {
    for (const q of [1, 7, 12, 4_868_338, 99_999_984]) {
      const text = formatQuota(q, yuan);
      expect(Math.round((Number(text.replace(/[¥,]/g, '')) / 7.3) * 500_000), text).toBe(q);
    }
  });

  it('an amount typed in yuan is stored as the quota it is worth', () => {
    expect(quotaOfInput('7.3', yuan)).toBe(500_000);
    expect(quotaOfInput('¥73', yuan)).toBe(5_000_000);
    expect(quotaOfInput(quotaInputText(4_868_338, yuan), yuan)).toBe(4_868_338);
    expect(quotaOfUnits(10, yuan)).toBe(684_932);
    expect(quotaCounterpart(500_000, yuan)).toBe('500,000');
  });

  it('prices set in dollars show in the chosen currency, one precision for a whole column', () => {
    expect(formatUsd(0.27, yuan, 2)).toBe('¥1.97');
    expect(formatUsd(2, displayOfStatus({ ...status, quota_display_type: 'TOKENS' }), 2)).toBe('$2.00');
    // $0.270 beside $0.3428: one column reads $0.2700 and $0.3428.
    const d = decimalsForPrices([0.27, 0.3428], dollars);
    expect(d).toBe(4);
    expect([0.27, 0.3428].map((p) => formatUsd(p, dollars, d))).toEqual(['$0.2700', '$0.3428']);
    expect(decimalsForPrices([2, 10], dollars)).toBe(2);
    expect(decimalsForPrices([0.0000001], dollars)).toBe(6);
  });
});
