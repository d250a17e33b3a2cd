import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSeconds } from '../../server/db/time.ts';
import { insertMidjourney, insertTask } from '../../server/domains/tasks/tasks.repo.ts';
import { createTestApp, type TestApp } from '../app.ts';
import { LegacyConsole, listen } from '../legacy-console/console-client.ts';
import { insertChannel } from '../relay-fixtures.ts';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setOption, setupRoot } from '../users.ts';

/*
 * Today's new-api console (web/classic, 2026) against the lists and the token/channel/redemption/
 * task calls, with ApiCompatContract at its default ('2026'). Each call is built as the console's
 * hook builds it (file cited beside it) and each answer read as the hook reads it (`data.items`,
 * `data.total`, `data.page`, `data.page_size`). The April 2025 shapes of the same lists are at the end.
 */

interface Envelope<T = unknown> {
  success: boolean;
  message: string;
  data: T;
}
interface Page<T = Record<string, unknown>> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

let t: TestApp;
let root: LegacyConsole;
let alice: LegacyConsole;
let bob: LegacyConsole;
let aliceId: number;
let bobId: number;
let admin: LegacyConsole;

const env = <T = unknown>(r: { data: unknown }) => r.data as Envelope<T>;
const page = async <T = Record<string, unknown>>(c: LegacyConsole, url: string) => {
  const e = env<Page<T>>(await c.get(url));
  expect(e.success, `${url}: ${e.message}`).toBe(true);
  return e.data;
};

beforeAll(async () => {
  t = await createTestApp({ trustProxy: true });
  const base = await listen(t);
  await setupRoot(t);
  root = await new LegacyConsole(base).login(ROOT_USERNAME, ROOT_PASSWORD);
  const a = await createUser(t, { quota: 1_000_000 });
  const b = await createUser(t);
  const ad = await createUser(t, { role: 10 });
  aliceId = a.id;
  bobId = b.id;
  alice = await new LegacyConsole(base).login(a.username, a.password);
  bob = await new LegacyConsole(base).login(b.username, b.password);
  admin = await new LegacyConsole(base).login(ad.username, ad.password);
  // Alice: 23 tokens, Bob: one.
  for (let i = 0; i < 23; i++)
    await alice.post('/api/token/', { name: `a${i}`, remain_quota: 0, unlimited_quota: true, expired_time: -1 });
  await bob.post('/api/token/', { name: 'bob-token', remain_quota: 0, unlimited_quota: true, expired_time: -1 });
});
afterAll(() => t.close());

describe('tokens (hooks/tokens/useTokensData.jsx)', () => {
  it('lists a page object with masked keys; p and size are 1-based GetPageQuery', async () => {
    // loadTokens: `/api/token/?p=${page}&size=${size}`
    const first = await page<{ key: string; name: string }>(alice, '/api/token/?p=1&size=10');
    expect(first).toMatchObject({ total: 23, page: 1, page_size: 10 });
    expect(first.items).toHaveLength(10);
    for (const tok of first.items) expect(tok.key).toMatch(/^[A-Za-z0-9]{4}\*{10}[A-Za-z0-9]{4}$/);
    const last = await page(alice, '/api/token/?p=3&size=10');
    expect(last.items).toHaveLength(3);
    expect(last.page).toBe(3);
  });

  it.each([
    ['p=0', '/api/token/?p=0&size=10', 1, 10],
    ['p=-1', '/api/token/?p=-1&size=10', 1, 10],
    ['p=NaN', '/api/token/?p=NaN&size=NaN', 1, 10],
    ['page_size over 100', '/api/token/?p=1&page_size=500', 1, 100],
    ['ps', '/api/token/?p=2&ps=5', 2, 5],
    ['size', '/api/token/?p=2&size=7', 2, 7],
    ['nothing', '/api/token/', 1, 10],
  ])('paging edge case %s', async (_name, url, wantPage, wantSize) => {
    const r = await page(alice, url);
    expect(r.page).toBe(wantPage);
    expect(r.page_size).toBe(wantSize);
    expect(r.total).toBe(23);
    expect(r.items).toHaveLength(Math.min(wantSize, Math.max(0, 23 - (wantPage - 1) * wantSize)));
  });

  it('search pages too and never shows another user’s tokens', async () => {
    // searchTokens: keyword, token, p, size
    const r = await page<{ name: string }>(alice, '/api/token/search?keyword=a1&token=&p=1&size=5');
    expect(r.total).toBe(11); // a1, a10..a19
    expect(r.items).toHaveLength(5);
    expect((await page(alice, '/api/token/search?keyword=bob&token=&p=1&size=10')).total).toBe(0);
  });

  it('reveals the caller’s own keys, one or several, and refuses another user’s', async () => {
    const mine = (await page<{ id: number; key: string }>(alice, '/api/token/?p=1&size=2')).items;
    const bobs = (await page<{ id: number }>(bob, '/api/token/?p=1&size=1')).items;
    // helpers/token.js fetchTokenKey: POST /api/token/:id/key, reads data.key
    const one = env<{ key: string }>(await alice.post(`/api/token/${mine[0].id}/key`));
    expect(one.success).toBe(true);
    expect(one.data.key).toHaveLength(48);
    expect(one.data.key.slice(0, 4) + '**********' + one.data.key.slice(-4)).toBe(mine[0].key);
    const stored = await t.deps.db
      .selectFrom('tokens')
      .select('key')
      .where('id', '=', mine[0].id)
      .executeTakeFirstOrThrow();
    expect(one.data.key).toBe(stored.key);
    // Another user's id is simply not found; nothing leaks.
    const refused = env(await alice.post(`/api/token/${bobs[0].id}/key`));
    expect(refused.success).toBe(false);
    expect(JSON.stringify(refused)).not.toMatch(/[A-Za-z0-9]{48}/);
    // fetchTokenKeysBatch: POST /api/token/batch/keys {ids}, reads data.keys[id]
    const many = env<{ keys: Record<string, string> }>(
      await alice.post('/api/token/batch/keys', { ids: [mine[0].id, mine[1].id, bobs[0].id] }),
    );
    expect(many.success).toBe(true);
    expect(Object.keys(many.data.keys).sort()).toEqual([String(mine[0].id), String(mine[1].id)].sort());
    expect(many.data.keys[mine[0].id]).toBe(stored.key);
  });

  it('GET /api/token/:id and the status PUT answer masked keys', async () => {
    const [tok] = (await page<{ id: number }>(alice, '/api/token/?p=1&size=1')).items;
    const got = env<{ key: string }>(await alice.get(`/api/token/${tok.id}`));
    expect(got.data.key).toContain('**********');
    // manageToken: PUT /api/token/?status_only=true {id, status}, reads data.status
    const put = env<{ key: string; status: number }>(
      await alice.put('/api/token/?status_only=true', { id: tok.id, status: 2 }),
    );
    expect(put.data).toMatchObject({ status: 2 });
    expect(put.data.key).toContain('**********');
  });

  it('batch delete removes only the caller’s tokens and answers the count', async () => {
    const bobs = (await page<{ id: number }>(bob, '/api/token/?p=1&size=1')).items;
    const mine = (await page<{ id: number }>(alice, '/api/token/?p=1&size=2')).items;
    // batchDeleteTokens: POST /api/token/batch {ids}, reads data (the count)
    const r = env<number>(await alice.post('/api/token/batch', { ids: [...mine.map((x) => x.id), bobs[0].id] }));
    expect(r).toMatchObject({ success: true, data: 2 });
    expect((await page(bob, '/api/token/')).total).toBe(1);
    expect((await page(alice, '/api/token/')).total).toBe(21);
    // manageToken delete: DELETE /api/token/${id}/ (trailing slash)
    const [next] = (await page<{ id: number }>(alice, '/api/token/?p=1&size=1')).items;
    expect(env(await alice.del(`/api/token/${next.id}/`)).success).toBe(true);
    expect((await page(alice, '/api/token/')).total).toBe(20);
  });
});

describe('users (hooks/users/useUsersData.jsx and the quota control)', () => {
  it('lists users in a page object; ps is read as the page size', async () => {
    const r = await page(root, '/api/user/?p=1&ps=2');
    expect(r).toMatchObject({ page: 1, page_size: 2 });
    expect(r.items).toHaveLength(2);
    expect(r.total).toBeGreaterThanOrEqual(4);
  });

  const quotaOf = async (id: number) =>
    Number((await t.deps.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota);

  it('add_quota adds, subtracts and overrides through the manage call, each with a manage log', async () => {
    // The quota control: {"id":2,"action":"add_quota","mode":"add","value":2500000}
    const before = await quotaOf(aliceId);
    expect(
      env(await root.post('/api/user/manage', { id: aliceId, action: 'add_quota', mode: 'add', value: 2_500_000 })),
    ).toEqual({
      success: true,
      message: '',
    });
    expect(await quotaOf(aliceId)).toBe(before + 2_500_000);
    await root.post('/api/user/manage', { id: aliceId, action: 'add_quota', mode: 'subtract', value: 500_000 });
    expect(await quotaOf(aliceId)).toBe(before + 2_000_000);
    await root.post('/api/user/manage', { id: aliceId, action: 'add_quota', mode: 'override', value: 42 });
    expect(await quotaOf(aliceId)).toBe(42);
    const logs = await t.deps.db
      .selectFrom('logs')
      .select('type')
      .where('user_id', '=', aliceId)
      .where('type', '=', 3)
      .execute();
    expect(logs.length).toBe(3);
  });

  it('refuses a subtraction below zero, a zero or negative amount, an unknown mode and an equal role', async () => {
    const refused = async (c: LegacyConsole, body: object) => {
      const r = env(await c.post('/api/user/manage', body));
      expect(r.success, JSON.stringify(body)).toBe(false);
      return r.message;
    };
    await root.post('/api/user/manage', { id: aliceId, action: 'add_quota', mode: 'override', value: 100 });
    expect(await refused(root, { id: aliceId, action: 'add_quota', mode: 'subtract', value: 101 })).toContain(
      '额度不足',
    );
    expect(await quotaOf(aliceId)).toBe(100);
    expect(await refused(root, { id: aliceId, action: 'add_quota', mode: 'add', value: 0 })).toBe('额度必须大于 0');
    expect(await refused(root, { id: aliceId, action: 'add_quota', mode: 'override', value: -1 })).toBe(
      '额度不能为负数',
    );
    await refused(root, { id: aliceId, action: 'add_quota', mode: 'double', value: 5 });
    // An admin may not change another admin's (or root's) balance.
    const other = await createUser(t, { role: 10 });
    await refused(admin, { id: other.id, action: 'add_quota', mode: 'add', value: 5 });
    await refused(admin, { id: 1, action: 'add_quota', mode: 'add', value: 5 });
    expect(
      env(await admin.post('/api/user/manage', { id: bobId, action: 'add_quota', mode: 'add', value: 5 })).success,
    ).toBe(true);
    expect(await quotaOf(aliceId)).toBe(100);
  });
});

describe('redemptions (hooks/redemptions, EditRedemptionModal)', () => {
  it('lists 1-based pages, carries expired_time, refuses an expired code and deletes invalid ones', async () => {
    const past = nowSeconds() - 60;
    const made = env<string[]>(
      await root.post('/api/redemption/', { name: 'old', count: 2, quota: 1000, expired_time: past }),
    );
    expect(made.success, made.message).toBe(true);
    env(await root.post('/api/redemption/', { name: 'fresh', count: 3, quota: 1000, expired_time: 0 }));
    const list = await page<{ name: string; expired_time: number; key: string }>(
      root,
      '/api/redemption/?p=1&page_size=4',
    );
    expect(list).toMatchObject({ total: 5, page: 1, page_size: 4 });
    expect(list.items).toHaveLength(4);
    expect((await page(root, '/api/redemption/?p=0&page_size=4')).page).toBe(1);
    const search = await page<{ name: string; expired_time: number; key: string }>(
      root,
      '/api/redemption/search?keyword=old&p=1&page_size=10',
    );
    expect(search.items.map((r) => r.expired_time)).toEqual([past, past]);
    // Redeeming an expired code says so.
    const redeemed = env(await alice.post('/api/user/topup', { key: made.data[0] }));
    expect(redeemed).toMatchObject({ success: false, message: '该兑换码已过期' });
    // A used one and a disabled one join the expired ones; the unused fresh ones stay.
    const fresh = (
      await page<{ id: number; key: string }>(root, '/api/redemption/search?keyword=fresh&p=1&page_size=10')
    ).items;
    expect(env(await alice.post('/api/user/topup', { key: fresh[0].key })).success).toBe(true);
    await root.put('/api/redemption/?status_only=true', { id: fresh[1].id, status: 2 });
    const deleted = env<number>(await root.del('/api/redemption/invalid'));
    expect(deleted).toMatchObject({ success: true, data: 4 });
    expect((await page(root, '/api/redemption/?p=1&page_size=10')).total).toBe(1);
  });

  it('expired_time can be set on update', async () => {
    const [row] = (await page<{ id: number; name: string; quota: number }>(root, '/api/redemption/?p=1&page_size=1'))
      .items;
    const later = nowSeconds() + 3600;
    const r = env<{ expired_time: number; valid_until: number }>(
      await root.put('/api/redemption/', { id: row.id, name: row.name, quota: row.quota, expired_time: later }),
    );
    expect(r.data).toMatchObject({ expired_time: later, valid_until: later });
  });
});

describe('channels (hooks/channels/useChannelsData.jsx, EditChannelModal, MultiKeyManageModal)', () => {
  let multiId: number;
  beforeAll(async () => {
    await insertChannel(t.deps, {
      baseUrl: 'https://up.example',
      name: 'oa-1',
      type: 1,
      models: ['gpt-4o'],
      groups: ['default'],
    });
    await insertChannel(t.deps, {
      baseUrl: 'https://up.example',
      name: 'oa-2',
      type: 1,
      models: ['gpt-4o', 'gpt-4o-mini'],
      groups: ['vip'],
    });
    await insertChannel(t.deps, {
      baseUrl: 'https://up.example',
      name: 'claude',
      type: 14,
      models: ['claude-3'],
      groups: ['default'],
    });
    multiId = await insertChannel(t.deps, {
      baseUrl: 'https://up.example',
      name: 'multi',
      type: 1,
      key: 'k1\nk2\nk3',
      models: ['gpt-4o'],
    });
    await t.deps.db.updateTable('channels').set({ status: 2 }).where('name', '=', 'claude').execute();
    await t.deps.db.updateTable('channels').set({ tag: 'team' }).where('name', 'in', ['oa-1', 'oa-2']).execute();
  });

  it('lists a page object with type_counts; status, type and group filter', async () => {
    // executeChannelsQuery: `/api/channel/?p=${page}&page_size=${pageSz}&id_sort=${sortFlag}&tag_mode=${tagMode}${typeParam}${statusParam}`
    const all = await page(root, '/api/channel/?p=1&page_size=2&id_sort=false&tag_mode=false');
    const data = all as Page & { type_counts: Record<string, number> };
    expect(data).toMatchObject({ total: 4, page: 1, page_size: 2, type_counts: { 1: 3, 14: 1 } });
    expect(data.items).toHaveLength(2);
    for (const c of data.items) expect(c.key).toBe('');
    const typed = (await page(root, '/api/channel/?p=1&page_size=10&id_sort=true&tag_mode=false&type=14')) as Page & {
      type_counts: Record<string, number>;
    };
    expect(typed.total).toBe(1);
    expect(typed.type_counts).toEqual({ 1: 3, 14: 1 }); // counts ignore the type filter
    expect((await page(root, '/api/channel/?p=1&page_size=10&id_sort=false&tag_mode=false&status=enabled')).total).toBe(
      3,
    );
    expect((await page(root, '/api/channel/?p=1&page_size=10&id_sort=false&tag_mode=false&status=0')).total).toBe(1);
    expect((await page(root, '/api/channel/?p=1&page_size=10&group=vip')).total).toBe(1);
    // Tag mode: the tag is one entry (with both its channels), untagged channels one each.
    const tagged = await page<{ tag: string | null }>(
      root,
      '/api/channel/?p=1&page_size=1&id_sort=false&tag_mode=true',
    );
    expect(tagged.total).toBe(3);
    expect(tagged.items.map((c) => c.tag)).toEqual(['team', 'team']);
  });

  it('searches with the same page object and filters', async () => {
    const params = new URLSearchParams({
      keyword: 'oa',
      group: '',
      model: '',
      id_sort: 'false',
      tag_mode: 'false',
      p: '1',
      page_size: '1',
    });
    const r = (await page(root, `/api/channel/search?${params.toString()}`)) as Page & {
      type_counts: Record<string, number>;
    };
    expect(r).toMatchObject({ total: 2, page: 1, page_size: 1, type_counts: { 1: 2 } });
    expect(r.items).toHaveLength(1);
    const byModel = await page(
      root,
      `/api/channel/search?keyword=&group=&model=mini&id_sort=false&tag_mode=false&p=1&page_size=10`,
    );
    expect(byModel.total).toBe(1);
  });

  it('tag models, fix and copy answer as today’s console reads them', async () => {
    expect(env(await root.get('/api/channel/tag/models?tag=team'))).toMatchObject({
      success: true,
      data: 'gpt-4o,gpt-4o-mini',
    });
    const fix = env<{ success: number; fails: number }>(await root.post('/api/channel/fix'));
    expect(fix.data).toMatchObject({ fails: 0 });
    expect(fix.data.success).toBeGreaterThan(0);
    const copy = env(await root.post(`/api/channel/copy/${multiId}`));
    expect(copy.success).toBe(true);
    expect((await page(root, '/api/channel/?p=1&page_size=10')).total).toBe(5);
  });

  it('accepts "model_mapping":"null" and the fields sent as strings or null', async () => {
    // EditChannelModal's add body: {mode, multi_key_mode, channel: {...}}
    const add = env(
      await root.post('/api/channel/', {
        mode: 'single',
        multi_key_mode: 'random',
        batch_add_set_key_prefix_2_name: false,
        channel: {
          name: 'nulls',
          type: 1,
          key: 'sk-x',
          models: 'gpt-4o',
          group: 'default',
          model_mapping: 'null',
          status_code_mapping: '',
          settings: '{}',
          param_override: null,
          header_override: null,
          other_settings: null,
          setting: null,
          channel_info: null,
          multi_key_mode: '',
        },
      }),
    );
    expect(add.success, add.message).toBe(true);
    const row = await t.deps.db
      .selectFrom('channels')
      .select(['id', 'model_mapping'])
      .where('name', '=', 'nulls')
      .executeTakeFirstOrThrow();
    expect(row.model_mapping ?? '').toBe('');
    const upd = env(
      await root.put('/api/channel/', {
        id: row.id,
        model_mapping: 'null',
        settings: '',
        header_override: '{}',
        key_mode: '',
      }),
    );
    expect(upd.success, upd.message).toBe(true);
  });

  it('multi_key/manage reads and changes the keys of a multi-key channel', async () => {
    // MultiKeyManageModal: {channel_id, action, key_index?, page?, page_size?, status?}
    const status = env<{ keys: { index: number; status: number }[]; total: number }>(
      await root.post('/api/channel/multi_key/manage', {
        channel_id: multiId,
        action: 'get_key_status',
        page: 1,
        page_size: 10,
      }),
    );
    expect(status.success, status.message).toBe(true);
    expect(status.data.keys).toHaveLength(3);
    const disable = env(
      await root.post('/api/channel/multi_key/manage', { channel_id: multiId, action: 'disable_key', key_index: 1 }),
    );
    expect(disable.success).toBe(true);
    const after = env<{ keys: { index: number; status: number }[] }>(
      await root.post('/api/channel/multi_key/manage', { channel_id: multiId, action: 'get_key_status' }),
    );
    expect(after.data.keys.find((k) => k.index === 1)?.status).toBe(2);
    expect(
      env(await root.post('/api/channel/multi_key/manage', { channel_id: multiId, action: 'enable_all_keys' })).success,
    ).toBe(true);
    expect(
      env(await root.post('/api/channel/multi_key/manage', { channel_id: multiId, action: 'delete_key', key_index: 2 }))
        .success,
    ).toBe(true);
    const last = env<{ keys: unknown[] }>(
      await root.post('/api/channel/multi_key/manage', { channel_id: multiId, action: 'get_key_status' }),
    );
    expect(last.data.keys).toHaveLength(2);
  });
});

describe('task and drawing logs (hooks/task-logs/useTaskLogsData.js, hooks/mj-logs/useMjLogsData.js)', () => {
  beforeAll(async () => {
    for (let i = 0; i < 12; i++)
      await insertTask(t.deps.db, {
        task_id: `t${i}`,
        platform: 'suno',
        user_id: i < 11 ? aliceId : bobId,
        channel_id: 1,
        submit_time: nowSeconds(),
        status: 'SUCCESS',
      });
    for (let i = 0; i < 3; i++)
      await insertMidjourney(t.deps.db, {
        mj_id: `m${i}`,
        user_id: aliceId,
        channel_id: 1,
        submit_time: Date.now(),
        action: 'IMAGINE',
      });
  });

  it('answers page objects; the console’s NaN dates mean no date', async () => {
    // `/api/task/?p=${page}&page_size=${size}&channel_id=${channel_id}&task_id=${task_id}&start_timestamp=...&end_timestamp=...`
    const all = await page(
      root,
      '/api/task/?p=2&page_size=5&channel_id=&task_id=&start_timestamp=NaN&end_timestamp=NaN',
    );
    expect(all).toMatchObject({ total: 12, page: 2, page_size: 5 });
    expect(all.items).toHaveLength(5);
    const mine = await page(alice, '/api/task/self?p=1&page_size=20&task_id=&start_timestamp=&end_timestamp=');
    expect(mine.total).toBe(11);
    expect((await page(alice, '/api/task/self?p=1&page_size=20&task_id=t3')).total).toBe(1);
    const mj = await page(root, '/api/mj/?p=1&page_size=2&channel_id=&mj_id=&start_timestamp=&end_timestamp=');
    expect(mj).toMatchObject({ total: 3, page_size: 2 });
    expect((await page(bob, '/api/mj/self?p=1&page_size=10&mj_id=')).total).toBe(0);
  });
});

describe("the same lists under ApiCompatContract '2025-04'", () => {
  beforeAll(() => setOption(t, 'ApiCompatContract', '2025-04'));
  afterAll(() => setOption(t, 'ApiCompatContract', '2026'));

  it('answers plain arrays with full keys, 0-based pages, style B redemptions and int fix', async () => {
    const tokens = env<{ key: string }[]>(await alice.get('/api/token/?p=0&size=5'));
    expect(Array.isArray(tokens.data)).toBe(true);
    expect(tokens.data).toHaveLength(5);
    expect(tokens.data[0].key).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(Array.isArray(env(await alice.get('/api/token/search?keyword=a&token=')).data)).toBe(true);
    expect(Array.isArray(env(await root.get('/api/channel/?p=0&page_size=10&id_sort=false')).data)).toBe(true);
    expect(Array.isArray(env(await root.get('/api/channel/search?keyword=oa')).data)).toBe(true);
    expect(typeof env(await root.post('/api/channel/fix')).data).toBe('number');
    expect(env<Page>(await root.get('/api/redemption/?p=0&page_size=10')).data).toMatchObject({ page: 0 });
    const tasks = env<unknown[]>(await root.get('/api/task/?p=1'));
    expect(tasks.data).toHaveLength(2); // page 1 of 10, 0-based
    expect(Array.isArray(env(await root.get('/api/mj/?p=0')).data)).toBe(true);
    // The new calls answer under both contracts.
    const [tok] = env<{ id: number }[]>(await alice.get('/api/token/?p=0&size=1')).data;
    expect(env<{ key: string }>(await alice.post(`/api/token/${tok.id}/key`)).data.key).toHaveLength(48);
  });
});
