import { describe, expect, it } from 'vitest';
import { allTags, matchesMarket, NO_VENDOR } from './market.ts';

const vendors = new Map([[1, { name: 'OpenAI' }]]);
const gpt = { model_name: 'gpt-4o', description: 'Flagship', tags: 'chat,Vision', vendor_id: 1 };
const plain = { model_name: 'qwen-max' };
const match = (item: object, f: Partial<Parameters<typeof matchesMarket>[1]>) =>
  matchesMarket(item as typeof gpt, { search: '', vendor: null, tag: null, ...f }, vendors);

describe('pricing page marketplace filters', () => {
  it('filter by vendor id, or by models without a vendor', () => {
    expect([match(gpt, { vendor: '1' }), match(plain, { vendor: '1' })]).toEqual([true, false]);
    expect([match(gpt, { vendor: NO_VENDOR }), match(plain, { vendor: NO_VENDOR })]).toEqual([false, true]);
  });
  it('filter by a tag without regard to case, and search the description and the vendor name', () => {
    expect([match(gpt, { tag: 'vision' }), match(plain, { tag: 'vision' })]).toEqual([true, false]);
    expect([
      match(gpt, { search: 'flag' }),
      match(gpt, { search: 'openai' }),
      match(plain, { search: 'openai' }),
    ]).toEqual([true, true, false]);
  });
  it('lists every tag once, sorted', () => {
    expect(allTags([gpt, { model_name: 'x', tags: 'chat, audio' }, plain])).toEqual(['audio', 'chat', 'Vision']);
  });
});
