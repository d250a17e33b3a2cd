import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';
import { trpcCaller } from '../../../test/users.ts';
import { agentSession, type Turn } from '../../relay/tests/session-affinity.fixtures.ts';

/*
 * The dashboard's prompt-cache figures (issue 29): agent sessions relayed through the gateway to a
 * fake upstream that caches prompts per key; per model and per channel, the dashboard's prompt and
 * cache-read tokens are the sums of what the clients were told, so the operator sees where sessions
 * keep their cache warm (pinned) and where not (spread over keys with affinity off).
 */

let h: RelayHarness;
let pinned: number;
let spread: number;
const sum = (turns: Turn[], f: (t: Turn) => number) => turns.reduce((n, t) => n + f(t), 0);

beforeAll(async () => {
  h = await startRelayHarness();
  await setOptions(h.deps, { ModelRatio: JSON.stringify({ 'pc-pinned': 1, 'pc-spread': 1 }) });
  const keys = (p: string) => [0, 1, 2].map((i) => `${p}-${i}+prompt-cache`).join('\n');
  const polling = { multi_key_mode: 'polling' };
  pinned = await insertChannel(h.deps, { name: 'pinned', key: keys('p'), baseUrl: h.fake.url, models: ['pc-pinned'] });
  spread = await insertChannel(h.deps, {
    name: 'spread',
    key: keys('s'),
    baseUrl: h.fake.url,
    models: ['pc-spread'],
    setting: polling,
  });
});
afterAll(() => h.close());

describe("the dashboard's prompt cache figures", () => {
  it('sum the prompt and cache-read tokens per model and per channel, for admins only', async () => {
    const user = await insertUser(h.deps);
    const token = (await insertToken(h.deps, user.id, { unlimited: true })).key;
    const on = await agentSession(h, token, 'pc-pinned', { headers: { 'x-session-id': 's1' } });
    await setOptions(h.deps, { 'channel_affinity_setting.enabled': 'false' });
    let off: Turn[];
    try {
      off = await agentSession(h, token, 'pc-spread', { headers: { 'x-session-id': 's2' } });
    } finally {
      await setOptions(h.deps, { 'channel_affinity_setting.enabled': 'true' });
    }
    await h.drain();
    const now = Math.floor(Date.now() / 1000);
    const range = { start_timestamp: now - 3600, end_timestamp: now + 60 };
    const figures = await trpcCaller(h.t, { id: 1, role: Role.Root }).dashboard.promptCache(range);
    const expected = (turns: Turn[]) => ({
      requests: 5,
      prompt_tokens: sum(turns, (t) => t.prompt),
      cache_tokens: sum(turns, (t) => t.cached),
    });
    // (Both sessions send the same prompts: their order in the lists, by prompt tokens, is a tie.)
    const models = [...figures.models].sort((a, b) => a.model_name.localeCompare(b.model_name));
    const channels = [...figures.channels].sort((a, b) => a.channel_id - b.channel_id);
    expect(models).toEqual([
      { model_name: 'pc-pinned', ...expected(on) },
      { model_name: 'pc-spread', ...expected(off) },
    ]);
    expect(channels).toEqual([
      { channel_id: pinned, channel_name: 'pinned', ...expected(on) },
      { channel_id: spread, channel_name: 'spread', ...expected(off) },
    ]);
    const share = (r: { prompt_tokens: number; cache_tokens: number }) => r.cache_tokens / r.prompt_tokens;
    expect(share(channels[0])).toBeGreaterThan(share(channels[1]) + 0.2);
    await expect(
      trpcCaller(h.t, { id: user.id, role: Role.Common }).dashboard.promptCache(range),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
