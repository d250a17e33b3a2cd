import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream } from '../../../scripts/fake-upstream/server.ts';
import { startFakeGemini } from '../../../scripts/fake-upstream/gemini.ts';
import { ChannelType } from '../../../shared/channel-types.ts';
import { updateChannelInput } from '../../../shared/schemas/channels.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';
import { loginAs, trpcCaller } from '../../../test/users.ts';
import { relayRuntimeOf } from '../runtime.ts';

/*
 * Issue 28, "No code path removes a channel key except an admin's edit": every way the gateway
 * takes a key out of service (a 401, a disabling error type, an AutomaticDisableKeywords match, a
 * Gemini 403, all keys dying one by one, a failing channel test, a failing re-enable probe) runs
 * on a real SQLite file against the fake upstreams, and the stored key column stays byte for byte
 * what the admin entered while the keys' statuses change. Plus what the console shows of it.
 */

let h: RelayHarness;
let gemini: FakeUpstream;
let admin: { id: number; role: number };
/** The key column of every channel as created here: checked unchanged after each path. */
const entered = new Map<number, string>();

beforeAll(async () => {
  h = await startRelayHarness();
  gemini = await startFakeGemini();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify(
      Object.fromEntries(
        ['m401', 'mquota', 'mword', 'mgem', 'mall', 'mpoll', 'mview', 'mtest', 'mflaky', 'mok', 'medit'].map((m) => [
          m,
          1,
        ]),
      ),
    ),
    RetryTimes: '3',
    AutomaticDisableChannelEnabled: 'true',
    AutomaticEnableChannelEnabled: 'true',
    AutomaticDisableKeywords: 'fake upstream failed with 403',
  });
  admin = { id: (await insertUser(h.deps, { role: 100 })).id, role: 100 };
});
afterAll(async () => {
  await h.close();
  await gemini.close();
});

async function channel(c: Parameters<typeof insertChannel>[1]) {
  const id = await insertChannel(h.deps, c);
  entered.set(id, c.key ?? '');
  return id;
}

const row = (id: number) => h.deps.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The channel's key statuses ({index: 2|3}), status, and whether its key column is as entered. */
async function state(id: number) {
  const r = await row(id);
  const info = JSON.parse(r.channel_info || '{}');
  return {
    statuses: (info.multi_key_status_list ?? {}) as Record<string, number>,
    reasons: (info.multi_key_disabled_reason ?? {}) as Record<string, string>,
    times: (info.multi_key_disabled_time ?? {}) as Record<string, number>,
    status: r.status,
    otherInfo: r.other_info,
    keyUnchanged: r.key === entered.get(id),
  };
}

async function userToken() {
  const user = await insertUser(h.deps);
  return (await insertToken(h.deps, user.id)).key;
}

const ask = (key: string, model: string) =>
  h.client(key).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });

const usedKeys = (from: number) =>
  h.fake.requests.slice(from).map((r) => String(r.headers.authorization).replace('Bearer ', ''));

describe('no code path removes a channel key', () => {
  it('a 401 marks that key auto-disabled; the same request is served by another key of the channel', async () => {
    const id = await channel({
      key: 'k401-fail-401-invalid-key\nk401-good-a\nk401-good-b',
      baseUrl: h.fake.url,
      models: ['m401'],
      setting: { multi_key_mode: 'polling' },
    });
    const token = await userToken();
    const from = h.fake.requests.length;
    const r = await ask(token, 'm401');
    expect(r.choices[0].message.content).toBeTruthy();
    // In turn: the dead first key, then the next enabled key of the same channel (no other channel exists).
    expect(usedKeys(from)).toEqual(['k401-fail-401-invalid-key', 'k401-good-a']);
    const s = await state(id);
    expect(s).toMatchObject({ statuses: { '0': 3 }, status: 1, keyUnchanged: true });
    expect(s.reasons['0']).toContain('Incorrect API key');
    // The dead key is never picked again.
    const again = h.fake.requests.length;
    for (let i = 0; i < 4; i++) await ask(token, 'm401');
    expect(usedKeys(again)).not.toContain('k401-fail-401-invalid-key');
  });

  it('a disabling error type (429 insufficient_quota) marks the key, keeps it, and another key answers', async () => {
    const id = await channel({
      key: 'kq-empty+fail-quota\nkq-good',
      baseUrl: h.fake.url,
      models: ['mquota'],
      setting: { multi_key_mode: 'polling' },
    });
    const r = await ask(await userToken(), 'mquota');
    expect(r.choices).toHaveLength(1);
    const s = await state(id);
    expect(s).toMatchObject({ statuses: { '0': 3 }, status: 1, keyUnchanged: true });
    expect(s.reasons['0']).toContain('exceeded your current quota');
  });

  it('an AutomaticDisableKeywords match marks the key', async () => {
    const id = await channel({
      key: 'kw-bad+fail-403\nkw-good',
      baseUrl: h.fake.url,
      models: ['mword'],
      setting: { multi_key_mode: 'polling' },
    });
    await ask(await userToken(), 'mword');
    expect(await state(id)).toMatchObject({ statuses: { '0': 3 }, status: 1, keyUnchanged: true });
  });

  it("a Gemini channel's 403 (its dead-key status) marks the key", async () => {
    const id = await channel({
      type: ChannelType.Gemini,
      key: 'gem-bad+fail-403\ngem-good',
      baseUrl: gemini.url,
      models: ['mgem'],
      setting: { multi_key_mode: 'polling' },
    });
    const r = await ask(await userToken(), 'mgem');
    expect(r.choices[0].message.content).toBeTruthy();
    const s = await state(id);
    expect(s).toMatchObject({ statuses: { '0': 3 }, status: 1, keyUnchanged: true });
    expect(s.reasons['0']).toContain('403');
  });

  it('keys dying one by one: the channel is auto-disabled only with its last key, every key kept', async () => {
    const id = await channel({
      key: 'd1-fail-401-invalid-key\nd2-fail-401-invalid-key\nd3-fail-401-invalid-key',
      baseUrl: h.fake.url,
      models: ['mall'],
      setting: { multi_key_mode: 'polling' },
    });
    // An admin's token pinned to the channel (sk-KEY-ID) makes one attempt per request: one key per request.
    const pinned = `${(await insertToken(h.deps, admin.id)).key}-${id}`;
    for (let n = 1; n <= 3; n++) {
      await expect(ask(pinned, 'mall')).rejects.toMatchObject({ status: 401 });
      const s = await state(id);
      expect(Object.keys(s.statuses)).toHaveLength(n);
      expect(s.keyUnchanged).toBe(true);
      expect(s.status).toBe(n < 3 ? 1 : 3);
    }
    const s = await state(id);
    expect(s.statuses).toEqual({ '0': 3, '1': 3, '2': 3 });
    expect(JSON.parse(s.otherInfo)).toMatchObject({
      status_reason: expect.stringContaining('所有密钥均已被自动禁用'),
      status_message: { code: 'channel.all_keys_disabled' },
    });
    const abilities = await h.deps.db.selectFrom('abilities').selectAll().where('channel_id', '=', id).execute();
    expect(abilities.every((a) => a.enabled === 0)).toBe(true);
    // Root hears about the channel once, when its last key went.
    await expect
      .poll(async () => (await h.deps.services.messages.list({ page: 1, pageSize: 50 })).items.map((m) => m.title))
      .toContainEqual(expect.stringContaining(`#${id}`));
    // The admin enables the channel again: its auto-disabled keys come back with it, still the same keys.
    await trpcCaller(h.t, admin).channels.setStatus({ id, status: 1 });
    expect(await state(id)).toMatchObject({ statuses: {}, status: 1, keyUnchanged: true });
  });
});

describe('channel tests and the re-enable probe', () => {
  it('a failing test-all marks the tested key; the channel follows only when no key is left; keys kept', async () => {
    const id = await channel({
      key: 'tst-a+fail-500\ntst-b+fail-500',
      baseUrl: h.fake.url,
      models: ['mtest'],
    });
    // The admin's own test reports the failure and marks nothing.
    const caller = trpcCaller(h.t, admin);
    const r = await caller.channels.test({ id });
    expect(r.ok).toBe(false);
    expect(await state(id)).toMatchObject({ statuses: {}, status: 1, keyUnchanged: true });
    // The scheduler's run (test-all): one key per run.
    await h.deps.services.channels.testAll();
    expect(Object.values((await state(id)).statuses)).toEqual([3]);
    expect((await state(id)).status).toBe(1);
    await h.deps.services.channels.testAll();
    expect(await state(id)).toMatchObject({ statuses: { '0': 3, '1': 3 }, status: 3, keyUnchanged: true });
    // The next run is the re-enable probe: both keys still fail, both stay auto-disabled and kept.
    await h.deps.services.channels.testAll();
    expect(await state(id)).toMatchObject({ statuses: { '0': 3, '1': 3 }, status: 3, keyUnchanged: true });
  });

  it('the probe re-enables a key that answers again (and its channel), never a manually disabled key', async () => {
    const id = await channel({
      key: 'fl-a\nfl-b\nfl-c',
      baseUrl: h.fake.url,
      models: ['mflaky', 'mok'],
      // The upstream refuses these keys for this model only: a "brief auth outage" of the keys.
      modelMapping: { mflaky: 'gpt+fail-401-invalid-key' },
      setting: { multi_key_mode: 'polling' },
    });
    await h.deps.db.updateTable('channels').set({ test_model: 'mok' }).where('id', '=', id).execute();
    const caller = trpcCaller(h.t, admin);
    await caller.channels.manageKeys({ id, action: 'disable_key', index: 2 });
    await relayRuntimeOf(h.deps)!.routing.reload();
    // Both enabled keys are refused in one request (the second tried after the first): the channel goes.
    await expect(ask(await userToken(), 'mflaky')).rejects.toMatchObject({ status: 401 });
    expect(await state(id)).toMatchObject({ statuses: { '0': 3, '1': 3, '2': 2 }, status: 3, keyUnchanged: true });
    // The outage is over: the admin's test probes the auto-disabled keys and brings them back.
    const r = await caller.channels.test({ id });
    expect(r.ok).toBe(true);
    expect(await state(id)).toMatchObject({ statuses: { '2': 2 }, status: 1, keyUnchanged: true });
    await relayRuntimeOf(h.deps)!.routing.reload();
    const from = h.fake.requests.length;
    for (let i = 0; i < 4; i++) await ask(await userToken(), 'mok');
    expect(new Set(usedKeys(from))).toEqual(new Set(['fl-a', 'fl-b']));
  });
});

describe('what the admin sees and does', () => {
  it('an auto-disabled key shows in the key list (tRPC and REST) within a second, masked, with its reason', async () => {
    const id = await channel({
      key: 'sk-view-0000-fail-401-invalid-key\nsk-view-1111-good-key',
      baseUrl: h.fake.url,
      models: ['mview'],
      setting: { multi_key_mode: 'polling' },
    });
    const caller = trpcCaller(h.t, admin);
    const { headers } = await loginAs(h.t, 100);
    const token = await userToken();
    await ask(token, 'mview');
    const answered = Date.now();
    const [viaTrpc, viaRest] = await Promise.all([
      caller.channels.keys({ id }),
      h.t.app.inject({
        method: 'POST',
        url: '/api/channel/multi_key/manage',
        headers,
        payload: { channel_id: id, action: 'get_key_status' },
      }),
    ]);
    expect(Date.now() - answered).toBeLessThan(1000);
    const rest = viaRest.json() as { success: boolean; data: typeof viaTrpc };
    expect(rest.success).toBe(true);
    for (const list of [viaTrpc, rest.data]) {
      expect(list).toMatchObject({ total: 2, enabled_count: 1, auto_disabled_count: 1, manual_disabled_count: 0 });
      expect(list.keys[0]).toMatchObject({ index: 0, status: 3, key_preview: 'sk-vi…-key' });
      expect(list.keys[0].reason).toContain('Incorrect API key');
      expect(Math.abs(list.keys[0].disabled_time! - answered / 1000)).toBeLessThan(5);
      expect(list.keys[1]).toEqual({ index: 1, status: 1, key_preview: 'sk-vi…-key' });
      // The whole key never leaves the server here.
      expect(JSON.stringify(list)).not.toContain('good-key');
    }
    // The channel answer new-api's console reads: channel_info with the per-key status, key blanked.
    const got = await h.t.app.inject({ method: 'GET', url: `/api/channel/${id}`, headers });
    const data = (got.json() as { data: { key: string; channel_info: Record<string, unknown> } }).data;
    expect(data.key).toBe('');
    expect(data.channel_info).toMatchObject({
      is_multi_key: true,
      multi_key_size: 2,
      multi_key_status_list: { '0': 3 },
      multi_key_mode: 'polling',
    });
  });

  it('per-key enable and disable through tRPC and REST; enable all; the key column never changes', async () => {
    const id = await channel({ key: 'sk-on-a\nsk-on-b\nsk-on-c', baseUrl: h.fake.url, models: ['mview'] });
    const caller = trpcCaller(h.t, admin);
    const { headers } = await loginAs(h.t, 100);
    const manage = async (payload: object) =>
      (
        await h.t.app.inject({
          method: 'POST',
          url: '/api/channel/multi_key/manage',
          headers,
          payload: { channel_id: id, ...payload },
        })
      ).json() as { success: boolean; message: string; data?: unknown };

    await caller.channels.manageKeys({ id, action: 'disable_key', index: 0 });
    expect(await manage({ action: 'disable_key', key_index: 1 })).toEqual({ success: true, message: '密钥已禁用' });
    expect((await state(id)).statuses).toEqual({ '0': 2, '1': 2 });
    expect(await manage({ action: 'enable_key', key_index: 1 })).toEqual({ success: true, message: '密钥已启用' });
    expect((await state(id)).statuses).toEqual({ '0': 2 });
    expect(await manage({ action: 'disable_key', key_index: 9 })).toMatchObject({
      success: false,
      message: '密钥索引超出范围',
    });
    expect(await manage({ action: 'frobnicate' })).toMatchObject({ success: false, message: '不支持的操作' });
    await caller.channels.manageKeys({ id, action: 'disable_all_keys' });
    expect((await state(id)).statuses).toEqual({ '0': 2, '1': 2, '2': 2 });
    // No usable key: the relay skips the channel rather than send a disabled key.
    await relayRuntimeOf(h.deps)!.routing.reload();
    expect(relayRuntimeOf(h.deps)!.routing.channel(id)).toBeUndefined();
    expect(await manage({ action: 'enable_all_keys' })).toEqual({ success: true, message: '已启用 3 个密钥' });
    expect(await state(id)).toMatchObject({ statuses: {}, status: 1, keyUnchanged: true });
    // Not a multi-key channel: refused with new-api's words.
    const single = await channel({ key: 'sk-single', baseUrl: h.fake.url, models: ['mview'] });
    const refused = await h.t.app.inject({
      method: 'POST',
      url: '/api/channel/multi_key/manage',
      headers,
      payload: { channel_id: single, action: 'get_key_status' },
    });
    expect(refused.json()).toMatchObject({ success: false, message: '该渠道不是多密钥模式' });
    // Ordinary users cannot read or change keys.
    const user = await insertUser(h.deps);
    await expect(trpcCaller(h.t, { id: user.id, role: 1 }).channels.keys({ id })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
  });

  it('in-turn mode goes round the enabled keys only', async () => {
    const id = await channel({
      key: 'turn-0\nturn-1\nturn-2\nturn-3',
      baseUrl: h.fake.url,
      models: ['mpoll'],
      setting: { multi_key_mode: 'polling' },
    });
    await trpcCaller(h.t, admin).channels.manageKeys({ id, action: 'disable_key', index: 1 });
    await relayRuntimeOf(h.deps)!.routing.reload();
    const token = await userToken();
    const from = h.fake.requests.length;
    for (let i = 0; i < 6; i++) await ask(token, 'mpoll');
    expect(usedKeys(from)).toEqual(['turn-0', 'turn-2', 'turn-3', 'turn-0', 'turn-2', 'turn-3']);
  });

  it("an admin's edit of the key list keeps the status of the keys it keeps; new keys are enabled", async () => {
    const id = await channel({ key: 'ed-a\ned-b\ned-c', baseUrl: h.fake.url, models: ['medit'] });
    const caller = trpcCaller(h.t, admin);
    await caller.channels.manageKeys({ id, action: 'disable_key', index: 1 });
    await h.deps.services.channels.update(
      updateChannelInput.parse({ id, key: 'ed-c\ned-new\ned-b', multi_key_mode: 'polling' }),
    );
    const r = await row(id);
    expect(r.key).toBe('ed-c\ned-new\ned-b');
    entered.set(id, r.key);
    const list = await caller.channels.keys({ id });
    expect(list.keys.map((k) => k.status)).toEqual([1, 1, 2]);
    expect(list.multi_key_mode).toBe('polling');
    // new-api's key_mode append adds keys, each once.
    await h.deps.services.channels.update(updateChannelInput.parse({ id, key: 'ed-new\ned-d', key_mode: 'append' }));
    expect((await row(id)).key).toBe('ed-c\ned-new\ned-b\ned-d');
    entered.set(id, 'ed-c\ned-new\ned-b\ned-d');
    expect((await caller.channels.keys({ id })).keys.map((k) => k.status)).toEqual([1, 1, 2, 1]);
  });

  it('after all of the above, every key column is exactly what the admin entered', async () => {
    const rows = await h.deps.db.selectFrom('channels').select(['id', 'key']).execute();
    for (const r of rows) expect(r.key).toBe(entered.get(Number(r.id)));
    expect(rows.length).toBe(entered.size);
  });
});
