import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeOpenAI } from '../../../scripts/fake-upstream/server.ts';
import { updateChannelInput } from '../../../shared/schemas/channels.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';
import { login, restHeaders, ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../../../test/users.ts';
import { relayRuntimeOf } from '../runtime.ts';
import { agentSession, cacheShare, type Turn } from './session-affinity.fixtures.ts';

/*
 * Session affinity (issue 29, deliver 4): the turns of one agent session stay on the channel and key
 * that answered, so the upstream's per-key prompt cache is read turn after turn. The fake upstream
 * keeps a prompt cache per API key (`prompt-cache` in the key: the cached tokens of a request are the
 * longest prefix an earlier request with the same key sent), so what the client is told it saved is
 * what a real provider would bill: a session spread over keys rebuilds its cache.
 */

let h: RelayHarness;
let other: FakeUpstream;
const MODELS = ['aff-keys', 'aff-off', 'aff-random', 'aff-prefix', 'aff-users', 'aff-fail', 'aff-chan'];

beforeAll(async () => {
  h = await startRelayHarness();
  other = await startFakeOpenAI();
  await setOptions(h.deps, { ModelRatio: JSON.stringify(Object.fromEntries(MODELS.map((m) => [m, 1]))) });
});
afterAll(async () => {
  await setOptions(h.deps, { 'channel_affinity_setting.enabled': 'true' });
  await h.close();
  await other.close();
});

const threeKeys = (name: string) => [0, 1, 2].map((i) => `${name}-k${i}+prompt-cache`).join('\n');

async function userToken() {
  const user = await insertUser(h.deps);
  return { user, token: (await insertToken(h.deps, user.id, { unlimited: true })).key };
}

const keysOf = (turns: Turn[]) => turns.map((t) => t.keys.at(-1));
const distinct = (turns: Turn[]) => new Set(keysOf(turns)).size;

describe('session affinity', () => {
  let withAffinity: Turn[];
  let withoutAffinity: Turn[];

  it('is on out of the box, for an hour after the last turn', () => {
    expect(h.deps.services.options.get('channel_affinity_setting.enabled')).toBe(true);
    expect(h.deps.services.options.get('channel_affinity_setting.default_ttl_seconds')).toBe(3600);
  });

  it("is set through new-api's option API under new-api's key names", async () => {
    await setupRoot(h.t);
    const headers = restHeaders(await login(h.t, ROOT_USERNAME, ROOT_PASSWORD));
    const put = async (key: string, value: string) =>
      (await h.t.app.inject({ method: 'PUT', url: '/api/option/', headers, payload: { key, value } })).json() as {
        success: boolean;
        message: string;
      };
    expect(await put('channel_affinity_setting.enabled', 'false')).toMatchObject({ success: true });
    expect(h.deps.services.options.get('channel_affinity_setting.enabled')).toBe(false);
    expect(await put('channel_affinity_setting.enabled', 'true')).toMatchObject({ success: true });
    // Less than a minute is refused (no provider cache is that short-lived), a day at most.
    expect(await put('channel_affinity_setting.default_ttl_seconds', '30')).toMatchObject({ success: false });
    expect(await put('channel_affinity_setting.default_ttl_seconds', '90000')).toMatchObject({ success: false });
    expect(await put('channel_affinity_setting.default_ttl_seconds', '300')).toMatchObject({ success: true });
    const rows = (
      (await h.t.app.inject({ method: 'GET', url: '/api/option/', headers })).json() as {
        data: { key: string; value: string }[];
      }
    ).data;
    expect(rows.find((r) => r.key === 'channel_affinity_setting.default_ttl_seconds')?.value).toBe('300');
    expect(await put('channel_affinity_setting.default_ttl_seconds', '3600')).toMatchObject({ success: true });
  });

  it('a 5-turn session on a 3-key channel stays on one key, and the cache read rises turn after turn', async () => {
    // Random key choice (the default): only the pin keeps the session on one key.
    await insertChannel(h.deps, { key: threeKeys('on'), baseUrl: h.fake.url, models: ['aff-keys'] });
    const { token } = await userToken();
    withAffinity = await agentSession(h, token, 'aff-keys', { headers: { 'x-session-id': 'session-on' } });
    expect(distinct(withAffinity)).toBe(1);
    expect(withAffinity.every((t) => t.keys.length === 1)).toBe(true);
    expect(withAffinity[0].cached).toBe(0);
    for (let i = 1; i < withAffinity.length; i++) {
      expect(withAffinity[i].cached).toBeGreaterThan(withAffinity[i - 1].cached);
      // Everything up to the previous turn's prompt was read from the cache.
      expect(withAffinity[i].cached).toBe(withAffinity[i - 1].prompt - 3);
    }
    // The usage log rows carry what the upstream read from its cache.
    await h.drain();
    const logged = await h.deps.db
      .selectFrom('logs')
      .select(['other', 'prompt_tokens'])
      .where('model_name', '=', 'aff-keys')
      .execute();
    // Rows by prompt size (the settlements of quick turns may be written in either order).
    const rows = logged
      .map((l) => [Number(l.prompt_tokens), (JSON.parse(l.other) as { cache_tokens: number }).cache_tokens])
      .sort((x, y) => x[0] - y[0]);
    expect(rows).toEqual(withAffinity.map((t) => [t.prompt, t.cached]));
    // The admin's part of the row says which turns followed the pin (new-api's admin_info.channel_affinity):
    // every turn but the first, all on the same key.
    const pins = logged
      .map((l) => JSON.parse(l.other) as { admin_info: { channel_affinity?: { key_fingerprint: string } } })
      .map((o) => o.admin_info.channel_affinity?.key_fingerprint);
    expect(pins.filter((p) => p === undefined)).toHaveLength(1);
    expect(new Set(pins.filter(Boolean)).size).toBe(1);
    expect(pins.find(Boolean)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('with the option off, the same session spreads over the keys and reads much less from the cache', async () => {
    await setOptions(h.deps, { 'channel_affinity_setting.enabled': 'false' });
    try {
      // In turn (polling): without affinity every turn takes the next key, a deterministic spread.
      await insertChannel(h.deps, {
        key: threeKeys('off'),
        baseUrl: h.fake.url,
        models: ['aff-off'],
        setting: { multi_key_mode: 'polling' },
      });
      const { token } = await userToken();
      withoutAffinity = await agentSession(h, token, 'aff-off', { headers: { 'x-session-id': 'session-off' } });
    } finally {
      await setOptions(h.deps, { 'channel_affinity_setting.enabled': 'true' });
    }
    expect(distinct(withoutAffinity)).toBe(3);
    expect(withoutAffinity.map((t) => t.cached).slice(0, 3)).toEqual([0, 0, 0]);
    const on = cacheShare(withAffinity);
    const off = cacheShare(withoutAffinity);
    expect(on).toBeGreaterThan(off + 0.2);
    console.log(
      `[session affinity] cache-read share of a 5-turn session on a 3-key channel: ` +
        `with affinity ${(on * 100).toFixed(1)}%, without (keys in turn) ${(off * 100).toFixed(1)}%`,
    );
  });

  it("on a channel whose keys all know the agent's system prompt, 20 sessions each way (random keys)", async () => {
    await insertChannel(h.deps, { key: threeKeys('rnd'), baseUrl: h.fake.url, models: ['aff-random'] });
    const { token } = await userToken();
    const play = async (label: string) => {
      const sessions: Turn[][] = [];
      for (let s = 0; s < 20; s++)
        sessions.push(await agentSession(h, token, 'aff-random', { topic: `${label} task ${s}` }));
      return sessions;
    };
    // Warm-up: every key reads the shared system prompt from then on, as on a busy channel.
    await agentSession(h, token, 'aff-random', { topic: 'warm-up', turns: 12 });
    const on = await play('pinned');
    await setOptions(h.deps, { 'channel_affinity_setting.enabled': 'false' });
    let off: Turn[][];
    try {
      off = await play('spread');
    } finally {
      await setOptions(h.deps, { 'channel_affinity_setting.enabled': 'true' });
    }
    expect(on.every((s) => distinct(s) === 1)).toBe(true);
    // 5 turns on one key of 3 by chance is 1 in 81 per session.
    expect(off.filter((s) => distinct(s) > 1).length).toBeGreaterThan(10);
    const average = (sessions: Turn[][]) => sessions.reduce((n, s) => n + cacheShare(s), 0) / sessions.length;
    expect(average(on)).toBeGreaterThan(average(off) + 0.1);
    console.log(
      `[session affinity] 20 sessions of 5 turns, random keys, system prompt cached on every key: ` +
        `average share with affinity ${(average(on) * 100).toFixed(1)}%, without ${(average(off) * 100).toFixed(1)}%`,
    );
  });

  it('a client that names no session is kept together by its token and stable prefix', async () => {
    await insertChannel(h.deps, { key: threeKeys('prefix'), baseUrl: h.fake.url, models: ['aff-prefix'] });
    const { token } = await userToken();
    const a = await agentSession(h, token, 'aff-prefix', { topic: 'refactor the parser' });
    const b = await agentSession(h, token, 'aff-prefix', { topic: 'write the docs' });
    expect(distinct(a)).toBe(1);
    expect(distinct(b)).toBe(1);
    expect(a.at(-1)!.cached).toBeGreaterThan(0);
  });

  it('two users sending the same session id never share a pin', async () => {
    await insertChannel(h.deps, {
      key: threeKeys('users'),
      baseUrl: h.fake.url,
      models: ['aff-users'],
      setting: { multi_key_mode: 'polling' },
    });
    const alice = await userToken();
    const bob = await userToken();
    const same = { headers: { 'x-session-id': 'shared-session-id' } };
    const a1 = await agentSession(h, alice.token, 'aff-users', { ...same, turns: 2 });
    const b1 = await agentSession(h, bob.token, 'aff-users', { ...same, turns: 2 });
    const a2 = await agentSession(h, alice.token, 'aff-users', { ...same, turns: 2 });
    // Bob's first turn took the next key in turn, not Alice's pinned one; each keeps their own.
    expect(distinct([...a1, ...a2])).toBe(1);
    expect(distinct(b1)).toBe(1);
    expect(keysOf(b1)[0]).not.toBe(keysOf(a1)[0]);
  });

  it('a pinned key that starts failing falls back to another key of the channel, which becomes the pin', async () => {
    // Keys in turn: the session starts on f-k0, which answers twice and then only with 429.
    const key = ['f-k0+prompt-cache+fail-after-2', 'f-k1+prompt-cache', 'f-k2+prompt-cache'].join('\n');
    await insertChannel(h.deps, {
      key,
      baseUrl: h.fake.url,
      models: ['aff-fail'],
      setting: { multi_key_mode: 'polling' },
    });
    const { token } = await userToken();
    const turns = await agentSession(h, token, 'aff-fail', { headers: { 'x-session-id': 'failing' } });
    const short = (k?: string) => k?.split('+')[0];
    expect(turns.map((t) => t.keys.map(short))).toEqual([['f-k0'], ['f-k0'], ['f-k0', 'f-k1'], ['f-k1'], ['f-k1']]);
    expect(turns.every((t) => t.status === 200)).toBe(true);
    // The new key's cache starts cold and then warms up again.
    expect(turns[2].cached).toBe(0);
    expect(turns[4].cached).toBeGreaterThan(turns[3].cached);
  });

  it('a pinned channel that fails or is disabled: the session moves to another channel and stays there', async () => {
    const first = await insertChannel(h.deps, {
      name: 'a',
      key: 'ca+prompt-cache',
      baseUrl: h.fake.url,
      models: ['aff-chan'],
    });
    const second = await insertChannel(h.deps, {
      name: 'b',
      key: 'cb+prompt-cache',
      baseUrl: other.url,
      models: ['aff-chan'],
    });
    const { token } = await userToken();
    const opts = { headers: { 'x-session-id': 'moving' }, fakes: [h.fake, other] };
    const [t1] = await agentSession(h, token, 'aff-chan', { ...opts, turns: 1 });
    const pinned = t1.keys[0] === 'ca+prompt-cache' ? first : second;
    const rest = pinned === first ? second : first;
    // The pinned channel is disabled: the next turns go to the other one, and stay there once it is back.
    await h.deps.services.channels.update(updateChannelInput.parse({ id: pinned, status: 2 }));
    await relayRuntimeOf(h.deps)!.routing.reload();
    const moved = await agentSession(h, token, 'aff-chan', { ...opts, turns: 2 });
    await h.deps.services.channels.update(updateChannelInput.parse({ id: pinned, status: 1 }));
    await relayRuntimeOf(h.deps)!.routing.reload();
    const back = await agentSession(h, token, 'aff-chan', { ...opts, turns: 3 });
    const keyOf = (id: number) => (id === first ? 'ca+prompt-cache' : 'cb+prompt-cache');
    expect([...moved, ...back].map((t) => t.keys)).toEqual(Array.from({ length: 5 }, () => [keyOf(rest)]));
    // Its upstream now stops answering (connection refused): the pinned attempt fails, the other channel answers.
    await (rest === first ? h.fake : other).close();
    const after = await agentSession(h, token, 'aff-chan', { ...opts, turns: 2 });
    expect(after.map((t) => t.status)).toEqual([200, 200]);
    expect(after.map((t) => t.keys)).toEqual([[keyOf(pinned)], [keyOf(pinned)]]);
    await h.drain();
    const chains = await h.deps.db
      .selectFrom('logs')
      .select('other')
      .where('model_name', '=', 'aff-chan')
      .where('type', '=', 2)
      .execute();
    const useChannel = (o: string) =>
      (JSON.parse(o) as { admin_info: { use_channel: string[] } }).admin_info.use_channel.join(' -> ');
    // Eight turns; one tried the dead channel first, none after it (the last) did.
    const tried = chains.map((c) => useChannel(c.other));
    expect(tried.filter((c) => c === `${rest} -> ${pinned}`)).toHaveLength(1);
    expect(tried.filter((c) => c === String(pinned))).toHaveLength(2);
    expect(tried).toHaveLength(8);
  });
});
