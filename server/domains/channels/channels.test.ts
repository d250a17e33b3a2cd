import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { expectRefused } from '../../../test/rest-answers.ts';
import { loginAs, setOption, trpcCaller } from '../../../test/users.ts';

type Json = Record<string, unknown>;

describe('channels REST', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let adminUser: { id: number; role: number };
  let userHeaders: Record<string, string>;
  const published: (string | undefined)[] = [];

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = admin) => {
    const res = await t.app.inject({ method, url, payload: payload as Json, headers });
    return { status: res.statusCode, body: res.json() as { success: boolean; message: string; data?: unknown } & Json };
  };
  const create = (c: Json) =>
    call('POST', '/api/channel/', { type: 1, name: 'c', key: 'sk-a', models: 'gpt-4o', ...c });
  const abilities = (channelId: number) =>
    t.deps.db
      .selectFrom('abilities')
      .selectAll()
      .where('channel_id', '=', channelId)
      .orderBy('group')
      .orderBy('model')
      .execute();
  const channelByName = (name: string) =>
    t.deps.db.selectFrom('channels').selectAll().where('name', '=', name).orderBy('id').execute();

  beforeAll(async () => {
    t = await createTestApp();
    // These are the April 2025 contract's shapes (docs/new-api-contract/lists.md has 2026's).
    await setOption(t, 'ApiCompatContract', '2025-04');
    const a = await loginAs(t, Role.Admin);
    admin = a.headers;
    adminUser = { id: Number(a.user.id), role: Role.Admin };
    userHeaders = (await loginAs(t, Role.Common)).headers;
    t.deps.bus.subscribe('channels', (p) => published.push(p));
  });
  afterAll(() => t.close());

  it('refuses every channel endpoint to a normal user with the role message, and to a visitor with 401', async () => {
    for (const [method, url] of [
      ['GET', '/api/channel/'],
      ['GET', '/api/channel/search?keyword=x'],
      ['GET', '/api/channel/1'],
      ['POST', '/api/channel/'],
      ['PUT', '/api/channel/'],
      ['DELETE', '/api/channel/1'],
      ['GET', '/api/channel/models'],
      ['GET', '/api/channel/models_enabled'],
      ['POST', '/api/channel/fix'],
      ['PUT', '/api/channel/tag'],
      ['GET', '/api/channel/test/1'],
      ['GET', '/api/channel/update_balance/1'],
      ['POST', '/api/channel/fetch_models'],
    ] as const) {
      const r = await call(method, url, method === 'GET' || method === 'DELETE' ? undefined : {}, userHeaders);
      expectRefused(r, '无权进行此操作，权限不足', `${method} ${url}`);
    }
    expect((await call('GET', '/api/channel/', undefined, {})).status).toBe(401);
  });

  it('creates a channel with defaults, derives its abilities and tells the relay', async () => {
    published.length = 0;
    const r = await create({
      name: 'main',
      key: 'sk-secret-main',
      models: 'gpt-4o, gpt-4o-mini',
      group: 'default,vip',
      base_url: 'https://up.example.com/',
      priority: 5,
      weight: -3,
    });
    expect(r).toMatchObject({ status: 200, body: { success: true, message: '' } });
    expect(r.body.data).toBeUndefined();
    const [row] = await channelByName('main');
    expect(row).toMatchObject({ base_url: 'https://up.example.com', weight: 0, priority: 5, status: 1, auto_ban: 1 });
    expect(row.key).toBe('sk-secret-main');
    const ab = await abilities(row.id);
    expect(ab.map((a) => `${a.group}/${a.model}`)).toEqual([
      'default/gpt-4o',
      'default/gpt-4o-mini',
      'vip/gpt-4o',
      'vip/gpt-4o-mini',
    ]);
    expect(ab.every((a) => a.enabled === 1 && a.priority === 5 && a.weight === 0)).toBe(true);
    expect(published).toEqual([undefined]);
  });

  it('validates the form with the spec messages', async () => {
    expect((await create({ name: '' })).body.message).toBe('请填写渠道名称和渠道密钥！');
    expect((await create({ key: ' ' })).body.message).toBe('请填写渠道名称和渠道密钥！');
    expect((await create({ models: ' , ' })).body.message).toBe('请至少选择一个模型！');
    const bad = await create({ model_mapping: '{oops' });
    expectRefused(bad);
    expect(bad.body.message).toContain('模型映射必须是合法的 JSON 格式！');
    expect((await create({ model_mapping: '[1]' })).body.message).toContain('模型映射必须是合法的 JSON 格式！');
    expect((await create({ setting: 'x' })).body.message).toContain('渠道额外设置必须是合法的 JSON 格式！');
    expect((await create({ param_override: '1' })).body.message).toContain('参数覆盖必须是合法的 JSON 格式！');
    expect((await create({ status_code_mapping: '{' })).body.message).toContain('状态码复写必须是合法的 JSON 格式！');
    expect((await create({ priority: -1000 })).body.message).toContain('优先级不能小于 -999');
    expect((await create({ type: 41, other: '{bad' })).body.message).toBe('部署地区必须是合法的 JSON 格式！');
    const ok = await create({ name: 'ok-mapping', model_mapping: '{"a":"b"}', model_mapping_extra: 1 });
    expect(ok).toMatchObject({ status: 200, body: { success: true } });
  });

  it('takes the automatic cache switch (settings auto_cache_control) on REST and tRPC, as a boolean only', async () => {
    const message = '渠道额外设置中的 auto_cache_control 只能是 true 或 false';
    expectRefused(await create({ name: 'cache-bad', type: 14, setting: '{"auto_cache_control":"false"}' }), message);
    expect(await channelByName('cache-bad')).toEqual([]);
    const ok = await create({ name: 'cache-off', type: 14, setting: '{"auto_cache_control":false,"proxy":""}' });
    expect(ok.body.success).toBe(true);
    const [row] = await channelByName('cache-off');
    expect(JSON.parse(row.setting ?? '')).toEqual({ auto_cache_control: false, proxy: '' });

    const caller = trpcCaller(t, adminUser);
    await expect(caller.channels.update({ id: row.id, setting: '{"auto_cache_control":1}' })).rejects.toThrow(message);
    await caller.channels.update({ id: row.id, setting: '{"auto_cache_control":true}' });
    expect(JSON.parse((await channelByName('cache-off'))[0].setting ?? '')).toEqual({ auto_cache_control: true });
  });

  it('defaults type 18 other to v2.1 and keeps a Vertex AI key whole', async () => {
    await create({ name: 'spark', type: 18 });
    expect((await channelByName('spark'))[0].other).toBe('v2.1');
    const sa = '{\n  "type": "service_account",\n  "project_id": "p"\n}';
    await create({ name: 'vertex', type: 41, key: sa, other: '{"default":"us-central1"}' });
    const rows = await channelByName('vertex');
    expect(rows).toHaveLength(1);
    expect(rows[0].key).toBe(sa);
  });

  it('creates one channel per key line in batch mode, or one multi-key channel', async () => {
    await create({ name: 'batch', key: 'k1\nk2\n\n k3 ' });
    const batch = await channelByName('batch');
    expect(batch.map((c) => c.key)).toEqual(['k1', 'k2', 'k3']);
    for (const c of batch) expect(await abilities(c.id)).toHaveLength(1);

    await call('POST', '/api/channel/', {
      mode: 'multi_to_single',
      channel: { type: 1, name: 'multi', key: 'm1\nm2', models: 'gpt-4o' },
    });
    const multi = await channelByName('multi');
    expect(multi).toHaveLength(1);
    expect(multi[0].key).toBe('m1\nm2');
  });

  it('blanks keys in list, search, get and tag mode', async () => {
    const list = await call('GET', '/api/channel/?p=0&page_size=100');
    const items = list.body.data as Json[];
    expect(items.length).toBeGreaterThan(3);
    expect(items.every((c) => c.key === '')).toBe(true);
    const search = await call('GET', '/api/channel/search?keyword=sk-secret-main');
    expect((search.body.data as Json[]).map((c) => c.name)).toEqual(['main']);
    expect((search.body.data as Json[])[0].key).toBe('');
    const id = (items.find((c) => c.name === 'main') as Json).id;
    const one = await call('GET', `/api/channel/${id}`);
    expect((one.body.data as Json).key).toBe('');
    await call('POST', '/api/channel/batch/tag', { ids: [id], tag: 'T' });
    const tagged = await call('GET', '/api/channel/?p=0&page_size=10&tag_mode=true');
    expect((tagged.body.data as Json[]).every((c) => c.key === '')).toBe(true);
    await call('POST', '/api/channel/batch/tag', { ids: [id], tag: null });
  });

  it('pages, sorts by priority or id, and searches by model and group', async () => {
    const byPriority = (await call('GET', '/api/channel/?p=0&page_size=2')).body.data as Json[];
    expect(byPriority[0].name).toBe('main');
    expect(byPriority).toHaveLength(2);
    const byId = (await call('GET', '/api/channel/?p=0&page_size=2&id_sort=true')).body.data as Json[];
    expect(Number(byId[0].id)).toBeGreaterThan(Number(byId[1].id));
    const page2 = (await call('GET', '/api/channel/?p=1&page_size=2&id_sort=true')).body.data as Json[];
    expect(Number(page2[0].id)).toBeLessThan(Number(byId[1].id));
    const vip = (await call('GET', '/api/channel/search?group=vip')).body.data as Json[];
    expect(vip.map((c) => c.name)).toEqual(['main']);
    const mini = (await call('GET', '/api/channel/search?model=gpt-4o-mini&group=null')).body.data as Json[];
    expect(mini.map((c) => c.name)).toEqual(['main']);
  });

  it('keeps abilities in sync on update, status change and delete', async () => {
    const [row] = await channelByName('main');
    published.length = 0;
    const r = await call('PUT', '/api/channel/', {
      id: row.id,
      key: '',
      models: 'claude-sonnet-4-20250514',
      group: 'default',
      priority: 9,
      weight: 4,
    });
    expect(r).toMatchObject({ status: 200, body: { success: true } });
    expect((r.body.data as Json).key).toBe('');
    expect((await channelByName('main'))[0].key).toBe('sk-secret-main');
    let ab = await abilities(row.id);
    expect(ab.map((a) => [a.group, a.model, a.priority, a.weight])).toEqual([
      ['default', 'claude-sonnet-4-20250514', 9, 4],
    ]);
    await call('PUT', '/api/channel/', { id: row.id, status: 2 });
    ab = await abilities(row.id);
    expect(ab[0].enabled).toBe(0);
    expect((await call('GET', '/api/channel/models_enabled')).body.data).not.toContain('claude-sonnet-4-20250514');
    await call('PUT', '/api/channel/', { id: row.id, status: 1 });
    expect((await call('GET', '/api/channel/models_enabled')).body.data).toContain('claude-sonnet-4-20250514');
    expect(published.length).toBe(3);
    expect((await call('PUT', '/api/channel/', { id: row.id, models: '' })).body.message).toBe('请至少选择一个模型！');
    const gone = await call('PUT', '/api/channel/', { id: 99999, name: 'x' });
    expectRefused(gone, '渠道不存在，请刷新后重试');

    const extra = await create({ name: 'doomed' });
    expect(extra).toMatchObject({ status: 200, body: { success: true } });
    const [doomed] = await channelByName('doomed');
    expect((await call('DELETE', `/api/channel/${doomed.id}/`)).body).toEqual({ success: true, message: '' });
    expect(await abilities(doomed.id)).toHaveLength(0);
    expectRefused(await call('DELETE', `/api/channel/${doomed.id}`), '渠道不存在，请刷新后重试');
  });

  it('takes groups as a comma string (the wire form) or as an array', async () => {
    expect(await create({ name: 'grouped', groups: 'default, vip' })).toMatchObject({
      status: 200,
      body: { success: true },
    });
    const [row] = await channelByName('grouped');
    expect(row.group).toBe('default,vip');
    expect((await abilities(row.id)).map((a) => a.group)).toEqual(['default', 'vip']);
    expect(await call('PUT', '/api/channel/', { id: row.id, groups: ['svip'] })).toMatchObject({
      status: 200,
      body: { success: true },
    });
    expect((await abilities(row.id)).map((a) => a.group)).toEqual(['svip']);
    await call('DELETE', `/api/channel/${row.id}/`);
  });

  it('deletes disabled channels and batches of ids, answering counts', async () => {
    await create({ name: 'off1', status: 1 });
    const [off1] = await channelByName('off1');
    await call('PUT', '/api/channel/', { id: off1.id, status: 3 });
    const del = await call('DELETE', '/api/channel/disabled');
    expect(del.body).toEqual({ success: true, message: '', data: 1 });
    expect(await abilities(off1.id)).toHaveLength(0);
    const batch = await channelByName('batch');
    const r = await call('POST', '/api/channel/batch', { ids: batch.map((c) => c.id) });
    expect(r.body.data).toBe(3);
    expect(await channelByName('batch')).toHaveLength(0);
  });

  it('keeps a status given on create', async () => {
    await create({ name: 'born-off', status: 2 });
    const [row] = await channelByName('born-off');
    expect(row.status).toBe(2);
    expect((await abilities(row.id)).every((a) => a.enabled === 0)).toBe(true);
  });

  it('fix rebuilds every ability and answers the channel count', async () => {
    await t.deps.db.deleteFrom('abilities').execute();
    const n = (
      await t.deps.db
        .selectFrom('channels')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
    const r = await call('POST', '/api/channel/fix');
    expect(r.body.data).toBe(Number(n));
    expect((await t.deps.db.selectFrom('abilities').selectAll().execute()).length).toBeGreaterThan(0);
  });

  it('lists models: enabled, all known, and defaults per channel type', async () => {
    const known = (await call('GET', '/api/channel/models')).body.data as Json[];
    expect(known.find((m) => m.id === 'gpt-4o')).toMatchObject({ object: 'model', owned_by: 'openai', parent: null });
    await create({ name: 'custom', models: 'my-custom-model' });
    const again = (await call('GET', '/api/channel/models')).body.data as Json[];
    expect(again.find((m) => m.id === 'my-custom-model')).toMatchObject({ owned_by: 'custom' });
    const defaults = await call('GET', '/api/models', undefined, userHeaders);
    const data = defaults.body.data as Record<string, string[]>;
    expect(data['1']).toContain('gpt-4o');
    expect(data['14'].some((m) => m.startsWith('claude'))).toBe(true);
    expect(data['43']).toContain('deepseek-chat');
  });

  it('tRPC: lists with a total, reveals keys only to root', async () => {
    const adminRow = { id: 1, role: Role.Admin };
    const list = await trpcCaller(t, adminRow).channels.list({ page: 1, pageSize: 2 });
    expect(list.items).toHaveLength(2);
    expect(list.total).toBeGreaterThan(2);
    expect(list.items.every((c) => c.key === '')).toBe(true);
    const found = await trpcCaller(t, adminRow).channels.list({ keyword: 'main' });
    expect(found.items.map((c) => c.name)).toEqual(['main']);
    expect(found.total).toBe(1);
    const [main] = await channelByName('main');
    await expect(trpcCaller(t, adminRow).channels.revealKey({ id: main.id })).rejects.toThrow();
    const shown = await trpcCaller(t, { id: 1, role: Role.Root }).channels.revealKey({ id: main.id });
    expect(shown.key).toBe('sk-secret-main');
    await expect(trpcCaller(t, { id: 2, role: Role.Common }).channels.list({})).rejects.toThrow();
  });
});
