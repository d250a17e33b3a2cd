import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { expectRefused } from '../../../test/rest-answers.ts';
import { loginAs, setOption } from '../../../test/users.ts';

type Json = Record<string, unknown>;

describe('channel tags and copies', () => {
  let t: TestApp;
  let admin: Record<string, string>;

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, payload: payload as Json, headers: admin });
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
    admin = (await loginAs(t, Role.Admin)).headers;
    // An untagged channel: tag mode lists it after the tags.
    await create({ name: 'loose' });
  });
  afterAll(() => t.close());

  it('tags: batch tag, tag mode, tag edit and tag enable/disable keep abilities in sync', async () => {
    await create({ name: 'ta', models: 'm1' });
    await create({ name: 'tb', models: 'm1' });
    const ids = [(await channelByName('ta'))[0].id, (await channelByName('tb'))[0].id];
    expect((await call('POST', '/api/channel/batch/tag', { ids, tag: 'pool' })).body.data).toBe(2);
    expect((await abilities(ids[0]))[0].tag).toBe('pool');

    const tagMode = (await call('GET', '/api/channel/?p=0&page_size=1&tag_mode=true')).body.data as Json[];
    expect(tagMode.map((c) => c.name).sort()).toEqual(['ta', 'tb']);
    const next = (await call('GET', '/api/channel/?p=1&page_size=1&tag_mode=true')).body.data as Json[];
    expect(next).toHaveLength(1);
    expect(next[0].tag).toBeNull();
    const found = (await call('GET', '/api/channel/search?keyword=ta&tag_mode=true')).body.data as Json[];
    expect(found.map((c) => c.name).sort()).toEqual(['ta', 'tb']);

    expect((await call('PUT', '/api/channel/tag', { tag: 'pool' })).body.message).toBe('没有任何修改');
    const badMapping = await call('PUT', '/api/channel/tag', { tag: 'pool', model_mapping: '{x' });
    expectRefused(badMapping);
    expect(badMapping.body.message).toContain('模型映射必须是合法的 JSON 格式！');
    expectRefused(await call('PUT', '/api/channel/tag', { tag: 'nope', priority: 1 }), '标签不存在');
    const edit = await call('PUT', '/api/channel/tag', {
      tag: 'pool',
      new_tag: 'pool2',
      priority: 7,
      weight: null,
      models: 'm2,m3',
      groups: 'default,vip',
    });
    expect(edit.body).toEqual({ success: true, message: '' });
    const ab = await abilities(ids[1]);
    expect(ab.map((a) => `${a.group}/${a.model}/${a.priority}/${a.tag}`)).toEqual([
      'default/m2/7/pool2',
      'default/m3/7/pool2',
      'vip/m2/7/pool2',
      'vip/m3/7/pool2',
    ]);
    expect((await channelByName('ta'))[0].weight).toBe(0);

    await call('POST', '/api/channel/tag/disabled', { tag: 'pool2' });
    expect((await channelByName('tb'))[0].status).toBe(2);
    expect((await abilities(ids[0])).every((a) => a.enabled === 0)).toBe(true);
    await call('POST', '/api/channel/tag/enabled', { tag: 'pool2' });
    expect((await abilities(ids[0])).every((a) => a.enabled === 1)).toBe(true);
  });

  it('a tag edit writes only the fields sent: channels that differ keep their own values (issue 45)', async () => {
    await create({ name: 'mx1', priority: 10, weight: 5, models: 'gpt-4o', group: 'default' });
    await create({ name: 'mx2', priority: 0, weight: 0, models: 'gpt-4o,gpt-4o-mini', group: 'default,vip' });
    const ids = [(await channelByName('mx1'))[0].id, (await channelByName('mx2'))[0].id];
    await call('POST', '/api/channel/batch/tag', { ids, tag: 'mixed' });
    const values = async () =>
      (await Promise.all(['mx1', 'mx2'].map(channelByName))).map(([c]) => [c.priority, c.weight, c.models, c.group]);

    // new-api's semantics: absent, null and empty fields are unchanged.
    const res = await call('PUT', '/api/channel/tag', {
      tag: 'mixed',
      weight: 2,
      priority: null,
      models: '',
      groups: null,
    });
    expect(res.body).toEqual({ success: true, message: '' });
    expect(await values()).toEqual([
      [10, 2, 'gpt-4o', 'default'],
      [0, 2, 'gpt-4o,gpt-4o-mini', 'default,vip'],
    ]);
    // Only the priority: the weights just set stay.
    await call('PUT', '/api/channel/tag', { tag: 'mixed', priority: 3 });
    expect((await values()).map(([p, w]) => [p, w])).toEqual([
      [3, 2],
      [3, 2],
    ]);
  });

  it('copies a channel with its key and abilities, without usage or balance', async () => {
    const [src] = await channelByName('ta');
    await t.deps.db.updateTable('channels').set({ used_quota: 99, balance: 3 }).where('id', '=', src.id).execute();
    const r = await call('POST', `/api/channel/copy/${src.id}`);
    const newId = (r.body.data as { id: number }).id;
    const [copy] = await channelByName('ta_复制');
    expect(copy).toMatchObject({
      id: newId,
      key: src.key,
      models: src.models,
      used_quota: 0,
      balance: 0,
      tag: src.tag,
    });
    expect((await abilities(newId)).length).toBe((await abilities(src.id)).length);
    expectRefused(await call('POST', '/api/channel/copy/99999'), '渠道不存在，请刷新后重试');
  });
});
