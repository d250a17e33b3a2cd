import { describe, expect, it } from 'vitest';
import { firstTokenColor, parseOther, retryChain, useTimeColor } from './log-meta.ts';

describe('usage-log helpers', () => {
  it('treats an unparsable or non-object other as empty', () => {
    expect(parseOther('not json')).toEqual({});
    expect(parseOther('[1,2]')).toEqual({});
    expect(parseOther('')).toEqual({});
    expect(parseOther('{"frt":300}')).toEqual({ frt: 300 });
  });

  it('colours latencies at the spec thresholds', () => {
    expect([100, 101, 299, 300].map(useTimeColor)).toEqual(['green', 'orange', 'orange', 'red']);
    expect([2.9, 3, 9.9, 10].map(firstTokenColor)).toEqual(['green', 'orange', 'orange', 'red']);
  });

  it('reads the retry chain', () => {
    expect(retryChain({ admin_info: { use_channel: [3, '5'] } })).toEqual(['3', '5']);
    expect(retryChain({})).toEqual([]);
  });
});
