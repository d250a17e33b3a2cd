import { describe, expect, it } from 'vitest';
import { fallbackOrder, fallbackProblem } from '../tabs/fallback.ts';
import { checkField, type FieldDef } from './fields.ts';

const f = (over: Partial<FieldDef>): FieldDef => ({ key: 'k', kind: 'number', label: { id: 'x' }, ...over });

describe('client-side field checks', () => {
  it('JSON fields must parse', () => {
    expect(checkField(f({ kind: 'json' }), '{"a":1}')).toBeNull();
    expect(checkField(f({ kind: 'json' }), '{"a":')).toBe('json');
  });

  it('numbers: numeric, in range, integers where asked', () => {
    expect(checkField(f({}), 'abc')).toBe('number');
    expect(checkField(f({ min: 0, max: 100 }), '101')).toBe('range');
    expect(checkField(f({ min: 1, decimals: 0 }), '1.5')).toBe('range');
    expect(checkField(f({ min: 0.002, max: 1 }), '0.6')).toBeNull();
  });

  it('quota fields hold whole quota, whatever unit the admin typed in', () => {
    const quota = f({ kind: 'quota', min: 0 });
    expect(checkField(quota, '2500000')).toBeNull();
    expect(checkField(quota, '0')).toBeNull();
    expect(checkField(quota, '-1')).toBe('range');
    expect(checkField(quota, '12.5')).toBe('range');
    expect(checkField(quota, '')).toBe('number');
  });
});

describe('fallback pricing on the client', () => {
  it('single price XOR both ratios', () => {
    expect(
      fallbackProblem({ fallback_single_price: '0.1', fallback_input_ratio: '1', fallback_completion_ratio: '0' }),
    ).toBe(true);
    expect(
      fallbackProblem({ fallback_single_price: '0', fallback_input_ratio: '1', fallback_completion_ratio: '0' }),
    ).toBe(true);
    expect(
      fallbackProblem({ fallback_single_price: '0', fallback_input_ratio: '1', fallback_completion_ratio: '2' }),
    ).toBe(false);
    expect(
      fallbackProblem({ fallback_single_price: '0.1', fallback_input_ratio: '0', fallback_completion_ratio: '0' }),
    ).toBe(false);
  });

  it('saves cleared values first and the switch last', () => {
    const v = {
      fallback_pricing_enabled: 'true',
      fallback_single_price: '0.1',
      fallback_input_ratio: '0',
      fallback_completion_ratio: '0',
    };
    expect(fallbackOrder(Object.keys(v), v)).toEqual([
      'fallback_input_ratio',
      'fallback_completion_ratio',
      'fallback_single_price',
      'fallback_pricing_enabled',
    ]);
  });
});
