import { describe, expect, it } from 'vitest';
import { createMemoryKv } from '../../../cache/kv.ts';
import { createRedisKv } from '../../../cache/redis.ts';
import type { CanonicalMessage } from '../../canonical/types.ts';
import { loadConversation, RESPONSE_TTL_MS, saveConversation } from './store.ts';
import { needsRedis } from '../../../../test/skips/needs.ts';

const settle = () => new Promise((r) => setTimeout(r, 20));
const turn: CanonicalMessage[] = [
  { role: 'user', content: 'hi' },
  {
    role: 'assistant',
    content: 'hello',
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
  },
];

describe('stored conversations for previous_response_id', () => {
  it('gives a conversation back to its user only, and forgets it after a day', async () => {
    let t = 0;
    const kv = createMemoryKv({ now: () => t });
    saveConversation(kv, 1, 'resp_a', turn);
    await settle();
    expect(await loadConversation(kv, 1, 'resp_a')).toEqual(turn);
    expect(await loadConversation(kv, 2, 'resp_a')).toBeUndefined();
    expect(await loadConversation(kv, 1, 'resp_b')).toBeUndefined();
    t = RESPONSE_TTL_MS + 1;
    expect(await loadConversation(kv, 1, 'resp_a')).toBeUndefined();
  });

  const redisUrl = process.env.TEST_REDIS_URL;
  it.skipIf(!redisUrl)(needsRedis.name('is shared by two instances on one Redis'), async () => {
    const prefix = `resp-test-${Date.now()}:`;
    const a = createRedisKv(redisUrl!, prefix);
    const b = createRedisKv(redisUrl!, prefix);
    try {
      saveConversation(a, 7, 'resp_x', turn);
      await settle();
      expect(await loadConversation(b, 7, 'resp_x')).toEqual(turn);
    } finally {
      a.close();
      b.close();
    }
  });
});
