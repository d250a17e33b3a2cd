import { describe, expect, it } from 'vitest';
import { createMemoryKv } from '../../cache/kv.ts';
import { createRedisKv } from '../../cache/redis.ts';
import { CARRY_TTL_MS, createCarryStore } from './carry.ts';
import { needsRedis } from '../../../test/skips/needs.ts';

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('turn carry-over (signatures keyed by tool-call id)', () => {
  it('gives back what was remembered for a call, to the same user only', async () => {
    const kv = createMemoryKv();
    const alice = createCarryStore(kv, 1);
    alice.remember('toolu_1', { thinking_blocks: [{ type: 'thinking', thinking: 'hm', signature: 'sig-A' }] });
    alice.remember('call_2', { thought_signature: 'gem-sig' });
    await settle();
    const got = await alice.recall(['toolu_1', 'call_2', 'unknown']);
    expect(got.get('toolu_1')?.thinking_blocks?.[0]).toMatchObject({ signature: 'sig-A' });
    expect(got.get('call_2')?.thought_signature).toBe('gem-sig');
    expect(got.has('unknown')).toBe(false);
    // Another user echoing the same id gets nothing.
    expect((await createCarryStore(kv, 2).recall(['toolu_1'])).size).toBe(0);
  });

  it('forgets entries after a day and past the memory bound', async () => {
    let t = 0;
    const kv = createMemoryKv({ maxKeys: 2, now: () => t });
    const c = createCarryStore(kv, 1);
    c.remember('a', { thought_signature: '1' });
    c.remember('b', { thought_signature: '2' });
    c.remember('c', { thought_signature: '3' });
    await settle();
    expect([...(await c.recall(['a', 'b', 'c'])).keys()]).toEqual(['b', 'c']);
    t = CARRY_TTL_MS + 1;
    expect((await c.recall(['b', 'c'])).size).toBe(0);
  });

  const redisUrl = process.env.TEST_REDIS_URL;
  it.skipIf(!redisUrl)(needsRedis.name('is shared by two instances on one Redis'), async () => {
    const prefix = `carry-test-${Date.now()}:`;
    const a = createRedisKv(redisUrl!, prefix);
    const b = createRedisKv(redisUrl!, prefix);
    try {
      createCarryStore(a, 7).remember('toolu_x', { thought_signature: 'from-a' });
      await settle();
      expect((await createCarryStore(b, 7).recall(['toolu_x'])).get('toolu_x')?.thought_signature).toBe('from-a');
    } finally {
      a.close();
      b.close();
    }
  });
});
