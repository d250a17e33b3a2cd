import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { expectRefused } from '../../../test/rest-answers.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { loginAs, setOption, setupRoot, trpcCaller } from '../../../test/users.ts';

describe('redemption code admin (REST)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let userHeaders: Record<string, string>;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = admin) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  const create = async (body: Record<string, unknown>) => {
    const res = await call('POST', '/api/redemption/', { quota: 500000, count: 1, ...body });
    return { res, body: res.json() as { success: boolean; message: string; data: string[] } };
  };

  beforeAll(async () => {
    t = await createTestApp();
    // These are the April 2025 contract's shapes (docs/new-api-contract/lists.md has 2026's).
    await setOption(t, 'ApiCompatContract', '2025-04');
    await setupRoot(t);
    admin = (await loginAs(t, Role.Admin)).headers;
    userHeaders = (await loginAs(t, Role.Common)).headers;
  });
  afterAll(() => t.close());

  it('creates a batch of 32-char hex keys and lists them newest first', async () => {
    const { res, body } = await create({ name: 'batch-a', count: 3, quota: 1000 });
    expect(res.statusCode).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data).toHaveLength(3);
    for (const k of body.data) expect(k).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(body.data).size).toBe(3);

    const list = (await call('GET', '/api/redemption/?p=0&page_size=2')).json();
    expect(list.success).toBe(true);
    expect(list.data.page).toBe(0);
    expect(list.data.page_size).toBe(2);
    expect(list.data.total).toBe(3);
    expect(list.data.items).toHaveLength(2);
    const row = list.data.items[0];
    expect(row).toMatchObject({ name: 'batch-a', quota: 1000, status: 1, is_gift: false, max_uses: -1, count: 0 });
    expect(row.id).toBeGreaterThan(list.data.items[1].id);

    // Style B paging: p=1 is also the first page, p=2 the next one; page echoes what was sent.
    const p1 = (await call('GET', '/api/redemption/?p=1&page_size=2')).json().data;
    const p2 = (await call('GET', '/api/redemption/?p=2&page_size=2')).json().data;
    expect(p1.items.map((r: { id: number }) => r.id)).toEqual(list.data.items.map((r: { id: number }) => r.id));
    expect(p2.page).toBe(2);
    expect(p2.items).toHaveLength(1);
    expect((await call('GET', '/api/redemption/?p=-3&page_size=0')).json().data).toMatchObject({
      page: 0,
      page_size: 10,
    });
  });

  it('validates name, count, quota and the validity window with the known messages', async () => {
    expect((await create({ name: '' })).body.message).toContain('兑换码名称长度必须在1-20之间');
    expect((await create({ name: 'x'.repeat(21) })).body.message).toContain('兑换码名称长度必须在1-20之间');
    // Twenty Chinese characters are twenty characters, not sixty bytes.
    expect((await create({ name: '兑'.repeat(20) })).body.success).toBe(true);
    const tooMany = await create({ name: 'many', count: 101 });
    expect(tooMany.res.statusCode).toBe(200);
    expect(tooMany.body.success).toBe(false);
    expect(tooMany.body.message).toContain('一次兑换码批量生成的个数不能大于 100');
    expect((await create({ name: 'zero', count: 0 })).body.success).toBe(false);
    expect((await create({ name: 'q', quota: 'abc' })).body.success).toBe(false);
    const window = await create({ name: 'w', valid_from: 2000, valid_until: 1000 });
    expect(window.res.statusCode).toBe(200);
    expect(window.body.success).toBe(false);
    expect(window.body.message).toContain('生效时间必须早于过期时间');
    expect((await create({ name: 'w2', valid_from: 1000, valid_until: 0 })).body.success).toBe(true);
  });

  it('accepts a custom key once and refuses it when it is taken', async () => {
    const first = await create({ name: 'custom', key: 'WELCOME-2026' });
    expect(first.body.data).toEqual(['WELCOME-2026']);
    const again = await create({ name: 'custom', key: 'WELCOME-2026' });
    expectRefused(again.res, '该兑换码已存在');
    expectRefused((await create({ name: 'custom', key: 'X1', count: 2 })).res, '自定义兑换码一次只能生成一个');
  });

  it('gets, edits (only while unused) and switches status', async () => {
    const [key] = (await create({ name: 'edit-me', quota: 10 })).body.data;
    const id = (await t.deps.db.selectFrom('redemptions').select('id').where('key', '=', key).executeTakeFirstOrThrow())
      .id;
    const got = (await call('GET', `/api/redemption/${id}`)).json();
    expect(got.data).toMatchObject({ id, key, name: 'edit-me', quota: 10 });

    const edited = (
      await call('PUT', '/api/redemption/', {
        id,
        name: 'edited',
        quota: 20,
        is_gift: true,
        max_uses: 5,
        valid_from: 0,
        valid_until: 0,
      })
    ).json();
    expect(edited.data).toMatchObject({ name: 'edited', quota: 20, is_gift: true, max_uses: 5, key });

    const disabled = (await call('PUT', '/api/redemption/?status_only=true', { id, status: 2 })).json();
    expect(disabled.data.status).toBe(2);
    const editDisabled = await call('PUT', '/api/redemption/', { id, name: 'nope', quota: 1 });
    expectRefused(editDisabled, '只能编辑未使用的兑换码');
    expect((await call('GET', `/api/redemption/${id}`)).json().data).toMatchObject({ name: 'edited', quota: 20 });
    expect((await call('PUT', '/api/redemption/?status_only=true', { id, status: 1 })).json().data.status).toBe(1);
    expectRefused(await call('GET', '/api/redemption/999999'), '兑换码不存在');
  });

  it('searches by id or name prefix', async () => {
    const [key] = (await create({ name: 'findme-1' })).body.data;
    await create({ name: 'findme-2' });
    await create({ name: 'other-findme' });
    const byName = (await call('GET', '/api/redemption/search?keyword=findme&p=0&page_size=10')).json().data;
    expect(byName.items.map((r: { name: string }) => r.name).sort()).toEqual(['findme-1', 'findme-2']);
    const id = (await t.deps.db.selectFrom('redemptions').select('id').where('key', '=', key).executeTakeFirstOrThrow())
      .id;
    const byId = (await call('GET', `/api/redemption/search?keyword=${id}`)).json().data;
    expect(byId.items.map((r: { id: number }) => r.id)).toContain(id);
    expect((await call('GET', '/api/redemption/search?keyword=%25')).json().data.total).toBe(0);
  });

  it('bulk-disables, counts and deletes by name, deletes disabled and single codes', async () => {
    await create({ name: 'bulk', count: 4 });
    const ids = (await t.deps.db.selectFrom('redemptions').select('id').where('name', '=', 'bulk').execute()).map(
      (r) => r.id,
    );
    expect((await call('PUT', '/api/redemption/batch-disable', { ids: [] })).json().message).toContain(
      '请至少选择一个兑换码',
    );
    const disabled = (await call('PUT', '/api/redemption/batch-disable', { ids: ids.slice(0, 2) })).json();
    expect(disabled).toMatchObject({ success: true, data: 2 });

    expect((await call('GET', '/api/redemption/count-by-name?name=bulk')).json().data).toBe(4);
    expect((await call('DELETE', '/api/redemption/delete-disabled')).json().data).toBeGreaterThanOrEqual(2);
    expect((await call('GET', '/api/redemption/count-by-name?name=bulk')).json().data).toBe(2);

    const one = await call('DELETE', `/api/redemption/${ids[2]}/`);
    expect(one.json()).toEqual({ success: true, message: '' });
    expectRefused(await call('GET', `/api/redemption/${ids[2]}`), '兑换码不存在');
    expect((await call('DELETE', '/api/redemption/delete-by-name?name=bulk')).json().data).toBe(1);
    expect((await call('GET', '/api/redemption/count-by-name?name=bulk')).json().data).toBe(0);
    expectRefused(await call('GET', '/api/redemption/count-by-name?name='), '请输入兑换码名称');
  });

  it('names who redeemed a code and when, in the REST and tRPC lists (an unused code names nobody)', async () => {
    const { user, headers } = await loginAs(t, Role.Common);
    const [used, unused] = (await create({ name: 'redeemer', count: 2 })).body.data as [string, string];
    const before = Math.floor(Date.now() / 1000);
    const redeemed = await call('POST', '/api/user/topup', { key: used }, headers);
    expect(redeemed.json()).toMatchObject({ success: true });

    type Row = { id: number; key: string; used_user_id: number; used_username: string; redeemed_time: number };
    const rest = (await call('GET', '/api/redemption/search?keyword=redeemer')).json().data.items as Row[];
    const restUsed = rest.find((r) => r.key === used);
    expect(restUsed).toMatchObject({ used_user_id: user.id, used_username: user.username });
    expect(restUsed?.redeemed_time).toBeGreaterThanOrEqual(before);
    expect(rest.find((r) => r.key === unused)).toMatchObject({ used_user_id: 0, used_username: '', redeemed_time: 0 });

    const single = (await call('GET', `/api/redemption/${restUsed?.id}`)).json().data;
    expect(single.used_username).toBe(user.username);

    const page = await trpcCaller(t, { id: 1, role: Role.Admin }).redemptions.list({ keyword: 'redeemer' });
    const trpcUsed = page.items.find((r) => r.key === used);
    expect(trpcUsed).toMatchObject({ used_user_id: user.id, used_username: user.username });
    expect(trpcUsed?.redeemed_time).toBe(restUsed?.redeemed_time);
    expect(page.items.find((r) => r.key === unused)?.used_username).toBe('');
  });

  it('refuses every path to normal users with the role message, and to visitors with 401', async () => {
    const paths: ['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?][] = [
      ['GET', '/api/redemption/'],
      ['GET', '/api/redemption/search?keyword=a'],
      ['GET', '/api/redemption/1'],
      ['POST', '/api/redemption/', { name: 'x', quota: 1, count: 1 }],
      ['PUT', '/api/redemption/', { id: 1, name: 'x', quota: 1 }],
      ['PUT', '/api/redemption/?status_only=true', { id: 1, status: 2 }],
      ['DELETE', '/api/redemption/1'],
      ['PUT', '/api/redemption/batch-disable', { ids: [1] }],
      ['DELETE', '/api/redemption/delete-disabled'],
      ['GET', '/api/redemption/count-by-name?name=x'],
      ['DELETE', '/api/redemption/delete-by-name?name=x'],
    ];
    for (const [method, url, body] of paths) {
      expectRefused(await call(method, url, body, userHeaders), '无权进行此操作，权限不足', `${method} ${url}`);
      expect((await call(method, url, body, {})).statusCode, `${method} ${url}`).toBe(401);
    }
    // Nothing was made by the refused create (or renamed by the refused edit).
    expect(await t.deps.db.selectFrom('redemptions').select('id').where('name', '=', 'x').execute()).toEqual([]);
  });

  it('serves the same operations over tRPC to admins only', async () => {
    const adminRow = { id: 1, role: Role.Admin };
    const caller = trpcCaller(t, adminRow);
    const keys = await caller.redemptions.create({ name: 'trpc', quota: 42, count: 2 });
    expect(keys).toHaveLength(2);
    const page = await caller.redemptions.list({ keyword: 'trpc', page: 1, pageSize: 10 });
    expect(page.total).toBe(2);
    expect(await caller.redemptions.countByName({ name: 'trpc' })).toBe(2);
    await expect(trpcCaller(t, { id: 2, role: Role.Common }).redemptions.list({})).rejects.toThrow();
  });
});
