import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { refusal as refused } from '../../../test/rest-answers.ts';
import { loginAs, setOption, trpcCaller } from '../../../test/users.ts';
import { findTokenByKey } from './tokens.repo.ts';

type Json = Record<string, unknown>;
type Headers = Record<string, string>;

const ok = { status: 200, body: { success: true, message: '' } };

describe('tokens REST', () => {
  let t: TestApp;
  let alice: Headers;
  let bob: Headers;
  let aliceId: number;
  const published: (string | undefined)[] = [];

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: unknown) => {
    const res = await t.app.inject({ method, url, payload: payload as Json, headers });
    return { status: res.statusCode, body: res.json() as { success: boolean; message: string; data?: unknown } };
  };
  const create = (headers: Headers, body: Json) =>
    call('POST', '/api/token/', headers, { name: 't', remain_quota: 500000, expired_time: -1, ...body });
  const list = async (headers: Headers, qs = 'p=0&size=100') =>
    (await call('GET', `/api/token/?${qs}`, headers)).body.data as Json[];
  const byName = async (headers: Headers, name: string) => (await list(headers)).find((x) => x.name === name)!;

  beforeAll(async () => {
    t = await createTestApp();
    // These are the April 2025 contract's shapes (docs/new-api-contract/lists.md has 2026's).
    await setOption(t, 'ApiCompatContract', '2025-04');
    // An operator's vip group users may pick (a fresh install has only "default", issue 39).
    await setOption(t, 'GroupRatio', JSON.stringify({ default: 1, vip: 1 }));
    await setOption(t, 'UserUsableGroups', JSON.stringify({ default: '默认分组', vip: 'vip分组' }));
    const a = await loginAs(t, Role.Common);
    alice = a.headers;
    aliceId = a.user.id;
    bob = (await loginAs(t, Role.Common)).headers;
    t.deps.bus.subscribe('tokens', (k) => published.push(k));
  });
  afterAll(() => t.close());

  it('needs a login', async () => {
    expect((await call('GET', '/api/token/', {})).status).toBe(401);
  });

  it('creates a token with no data in the answer and lists it with a 48-char key without sk-', async () => {
    published.length = 0;
    const r = await create(alice, {
      name: 'first',
      model_limits_enabled: true,
      model_limits: 'gpt-4o, gpt-4o-mini',
      allow_ips: '10.0.0.1\n192.168.0.0/16\n\n2001:db8::/32',
      rate_limit_enabled: true,
      rate_limit_period: 30,
      rate_limit_count: 5,
      rate_limit_success: 3,
    });
    expect(r).toEqual({ status: 200, body: { success: true, message: '' } });
    const tok = await byName(alice, 'first');
    expect(tok.key).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(tok).toMatchObject({
      user_id: aliceId,
      status: 1,
      remain_quota: 500000,
      unlimited_quota: false,
      model_limits_enabled: true,
      model_limits: 'gpt-4o,gpt-4o-mini',
      allow_ips: '10.0.0.1\n192.168.0.0/16\n2001:db8::/32',
      rate_limit_enabled: true,
      rate_limit_period: 30,
      rate_limit_count: 5,
      rate_limit_success: 3,
      expired_time: -1,
      group: '',
      DeletedAt: null,
    });
    expect(published).toEqual([tok.key]);
  });

  it('validates name, expiry, quota, IPs, group and count', async () => {
    expect((await create(alice, { name: 'x'.repeat(31) })).body.message).toContain('令牌名称过长');
    expect((await create(alice, { name: '长'.repeat(31) })).body.message).toContain('令牌名称过长');
    expect(await create(alice, { name: '长'.repeat(30) })).toEqual(ok);
    expect((await create(alice, { expired_time: 0 })).body.message).toContain('过期时间格式错误');
    expect((await create(alice, { remain_quota: -1 })).body.message).toContain('额度不能为负数');
    const ip = await create(alice, { allow_ips: '10.0.0.1\nnot-an-ip' });
    expect(ip.status).toBe(200);
    expect(ip.body.success).toBe(false);
    expect(ip.body.message).toContain('IP 白名单格式错误');
    expect((await create(alice, { allow_ips: '10.0.0.0/33' })).body.message).toContain('IP 白名单格式错误');
    expect((await create(alice, { allow_ips: '256.1.1.1' })).body.message).toContain('IP 白名单格式错误');
    expect((await create(alice, { group: 'secret-group' })).body.message).toBe('无权使用该分组');
    expect(await create(alice, { name: 'vip', group: 'vip' })).toEqual(ok);
    expect(await create(alice, { name: 'own', group: 'default' })).toEqual(ok);
    // Usable but without a group ratio: the relay could not bill it.
    await t.deps.services.options.update('UserUsableGroups', '{"default":"d","vip":"v","noratio":"n"}');
    expect((await create(alice, { group: 'noratio' })).body.message).toBe('无权使用该分组');
    expect((await create(alice, { count: 101 })).body.message).toContain('1 到 100');
    expect(await create(alice, { count: 0 })).toEqual(refused('批量创建数量必须在 1 到 100 之间'));
  });

  it('batch-creates tokens: the extras get the name plus a 6-character suffix', async () => {
    expect(await create(bob, { name: 'bulk', count: 3 })).toEqual(ok);
    const names = (await list(bob)).map((x) => String(x.name)).filter((n) => n.startsWith('bulk'));
    expect(names).toHaveLength(3);
    expect(names.filter((n) => n === 'bulk')).toHaveLength(1);
    expect(names.filter((n) => /^bulk-[A-Za-z0-9]{6}$/.test(n))).toHaveLength(2);
    const keys = (await list(bob)).map((x) => x.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('batch-created extras of a 30-character name stay within the limit and can be saved again', async () => {
    const carol = (await loginAs(t, Role.Common)).headers;
    const long = 'n'.repeat(30);
    expect(await create(carol, { name: long, count: 2 })).toEqual(ok);
    const extra = (await list(carol)).find((x) => x.name !== long)!;
    expect(String(extra.name)).toMatch(/^n{23}-[A-Za-z0-9]{6}$/);
    expect(await call('PUT', '/api/token/', carol, extra)).toMatchObject({ status: 200, body: { success: true } });
  });

  it('pages with p (0-based) and size, newest first, and searches by name and key', async () => {
    // Names with '.', which the earlier bulk tokens' random suffixes ([A-Za-z0-9]) cannot contain.
    for (const n of ['p.1', 'p.2', 'p.3']) await create(bob, { name: n });
    const first = await list(bob, 'p=0&size=2');
    expect(first.map((x) => x.name)).toEqual(['p.3', 'p.2']);
    const second = await list(bob, 'p=1&size=2');
    expect(second[0].name).toBe('p.1');
    expect(await list(bob, 'p=0&size=0')).toHaveLength(6);
    expect(await list(bob, 'p=0&page_size=2')).toHaveLength(2);
    const big = await call('GET', '/api/token/?p=0&size=1000', bob);
    expect((big.body.data as Json[]).length).toBe(6);

    const found = await call('GET', '/api/token/search?keyword=%20p.2%20', bob);
    expect((found.body.data as Json[]).map((x) => x.name)).toEqual(['p.2']);
    const p2 = await byName(bob, 'p.2');
    const part = String(p2.key).slice(5, 20);
    const byKey = await call('GET', `/api/token/search?token=sk-${part}`, bob);
    expect((byKey.body.data as Json[]).map((x) => x.name)).toEqual(['p.2']);
    const none = await call('GET', '/api/token/search?keyword=%25', bob);
    expect(none.body.data).toEqual([]);
  });

  it("keeps users apart: another user's token is not found, not editable, not deletable", async () => {
    const mine = await byName(alice, 'first');
    expect((await list(bob)).some((x) => x.id === mine.id)).toBe(false);
    const search = await call('GET', '/api/token/search?keyword=first', bob);
    expect(search.body.data).toEqual([]);
    const get = await call('GET', `/api/token/${mine.id}`, bob);
    expect(get).toEqual(refused('令牌不存在'));
    expect(await call('PUT', '/api/token/', bob, { id: mine.id, name: 'stolen' })).toEqual(refused('令牌不存在'));
    expect(await call('PUT', '/api/token/?status_only=true', bob, { id: mine.id, status: 2 })).toEqual(
      refused('令牌不存在'),
    );
    expect(await call('DELETE', `/api/token/${mine.id}/`, bob)).toEqual(refused('令牌不存在'));
    const still = await call('GET', `/api/token/${mine.id}`, alice);
    expect((still.body.data as Json).name).toBe('first');
    expect((still.body.data as Json).status).toBe(1);
  });

  it('updates every form field and answers the updated token, status untouched', async () => {
    const tok = await byName(alice, 'first');
    published.length = 0;
    const r = await call('PUT', '/api/token/', alice, {
      id: tok.id,
      name: 'renamed',
      expired_time: 4102444800,
      remain_quota: 10,
      unlimited_quota: true,
      model_limits_enabled: false,
      model_limits: '',
      allow_ips: '',
      group: 'vip',
      status: 2,
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      id: tok.id,
      name: 'renamed',
      expired_time: 4102444800,
      remain_quota: 10,
      unlimited_quota: true,
      allow_ips: '',
      group: 'vip',
      status: 1,
      key: tok.key,
    });
    expect(published).toEqual([tok.key]);
    expect(await call('PUT', '/api/token/', alice, { id: tok.id, name: 'x'.repeat(40) })).toEqual(
      refused('令牌名称过长'),
    );
  });

  it('status_only: disables, re-enables, and refuses enabling expired or exhausted tokens', async () => {
    const tok = await byName(alice, 'renamed');
    const off = await call('PUT', '/api/token/?status_only=true', alice, { id: tok.id, status: 2 });
    expect(off.body.data).toMatchObject({ id: tok.id, status: 2 });
    const on = await call('PUT', '/api/token/?status_only=true', alice, { id: tok.id, status: 1 });
    expect((on.body.data as Json).status).toBe(1);
    expect(await call('PUT', '/api/token/?status_only=true', alice, { id: tok.id, status: 3 })).toEqual(
      refused('状态只能是 1 或 2'),
    );

    await create(alice, { name: 'old', expired_time: 1000 });
    const old = await byName(alice, 'old');
    await t.deps.db.updateTable('tokens').set({ status: 3 }).where('id', '=', Number(old.id)).execute();
    const expired = await call('PUT', '/api/token/?status_only=true', alice, { id: old.id, status: 1 });
    expect(expired.body.message).toBe('令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期');

    await create(alice, { name: 'empty', remain_quota: 0 });
    const empty = await byName(alice, 'empty');
    await call('PUT', '/api/token/?status_only=true', alice, { id: empty.id, status: 2 });
    const exhausted = await call('PUT', '/api/token/?status_only=true', alice, { id: empty.id, status: 1 });
    expect(exhausted.body.message).toBe('令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度');
    await call('PUT', '/api/token/', alice, { ...empty, unlimited_quota: true });
    const ok = await call('PUT', '/api/token/?status_only=true', alice, { id: empty.id, status: 1 });
    expect((ok.body.data as Json).status).toBe(1);
  });

  it('soft-deletes: the token disappears everywhere and no longer resolves by key', async () => {
    const tok = await byName(alice, 'vip');
    published.length = 0;
    expect((await call('DELETE', `/api/token/${tok.id}/`, alice)).body).toEqual({ success: true, message: '' });
    expect(published).toEqual([tok.key]);
    expect((await list(alice)).some((x) => x.id === tok.id)).toBe(false);
    expect(await call('GET', `/api/token/${tok.id}`, alice)).toEqual(refused('令牌不存在'));
    expect((await call('GET', '/api/token/search?keyword=vip', alice)).body.data).toEqual([]);
    expect(await call('PUT', '/api/token/', alice, { id: tok.id, name: 'back' })).toEqual(refused('令牌不存在'));
    expect(await findTokenByKey(t.deps.db, String(tok.key))).toBeUndefined();
    const row = await t.deps.db.selectFrom('tokens').selectAll().where('id', '=', Number(tok.id)).executeTakeFirst();
    expect(row?.deleted_at).toBeGreaterThan(0);
    expect(await call('DELETE', `/api/token/${tok.id}`, alice)).toEqual(refused('令牌不存在'));
  });

  it('a deleted token no longer authenticates on the relay (its cache entry is dropped)', async () => {
    await create(alice, { name: 'relay-auth' });
    const tok = await byName(alice, 'relay-auth');
    const relay = () =>
      t.app.inject({ method: 'GET', url: '/v1/models', headers: { authorization: `Bearer sk-${tok.key}` } });
    expect((await relay()).statusCode).toBe(200);
    await call('DELETE', `/api/token/${tok.id}`, alice);
    expect((await relay()).statusCode).toBe(401);
  });

  it('tRPC: paged list with total, create returns sk- keys, setStatus, remove and removeMany', async () => {
    const me = { id: aliceId, role: Role.Common };
    const api = trpcCaller(t, me);
    const created = await api.tokens.create({ name: 'rpc', count: 2 });
    expect(created.keys).toHaveLength(2);
    expect(created.keys[0]).toMatch(/^sk-[A-Za-z0-9]{48}$/);
    const page = await api.tokens.list({ page: 1, pageSize: 2 });
    expect(page.items).toHaveLength(2);
    expect(page.total).toBeGreaterThan(2);
    const found = await api.tokens.list({ key: created.keys[0] });
    expect(found.total).toBe(1);
    const id = found.items[0].id;
    expect((await api.tokens.setStatus({ id, status: 2 })).status).toBe(2);
    await expect(trpcCaller(t, { id: 999999, role: Role.Common }).tokens.get({ id })).rejects.toThrow('令牌不存在');
    const before = page.total;
    const bobsIds = ((await list(bob)) as Json[]).map((x) => Number(x.id));
    expect(await api.tokens.removeMany({ ids: [id, ...bobsIds] })).toBe(1);
    expect((await list(bob)).length).toBe(bobsIds.length);
    await api.tokens.remove({ id: page.items[0].id });
    expect((await api.tokens.list({})).total).toBe(before - 2);
  });
});
