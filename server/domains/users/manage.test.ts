import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { expectRefused } from '../../../test/rest-answers.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import {
  type CreatedUser,
  createUser,
  login,
  loginAs,
  restHeaders,
  ROOT_PASSWORD,
  setupRoot,
} from '../../../test/users.ts';

const ROLE_MESSAGE = '无权进行此操作，权限不足';

describe('user administration', () => {
  let t: TestApp;
  let rootId: number;
  let root: Record<string, string>;
  let admin: Awaited<ReturnType<typeof loginAs>>;
  beforeAll(async () => {
    t = await createTestApp();
    rootId = (await setupRoot(t)).id;
    root = restHeaders(await login(t, 'root', ROOT_PASSWORD));
    admin = await loginAs(t, Role.Admin);
  });
  afterAll(() => t.close());

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => t.app.inject({ method, url, headers, payload });
  const row = (id: number) => t.deps.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('a normal user is refused every admin endpoint with the role message', async () => {
    const { headers } = await loginAs(t);
    const target = await createUser(t);
    const calls: [Parameters<typeof call>[0], string, object?][] = [
      ['GET', '/api/user/'],
      ['GET', '/api/user/search?keyword=a'],
      ['GET', `/api/user/${target.id}`],
      ['POST', '/api/user/', { username: 'newbie', password: 'Passw0rd!' }],
      ['PUT', '/api/user/', { id: target.id, quota: 5 }],
      ['POST', '/api/user/manage', { id: target.id, action: 'disable' }],
      ['DELETE', `/api/user/${target.id}`],
      ['GET', '/api/group/'],
    ];
    for (const [method, url, payload] of calls) {
      const res = await call(method, url, headers, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(200);
      expect(res.json()).toEqual({ success: false, message: ROLE_MESSAGE });
    }
    expect((await row(target.id)).status).toBe(1);
  });

  describe('list and search', () => {
    it('pages style A, newest first, soft-deleted included, no password', async () => {
      const made: CreatedUser[] = [];
      for (let i = 0; i < 3; i++) made.push(await createUser(t));
      await t.deps.db.updateTable('users').set({ deleted_at: 5, status: 3 }).where('id', '=', made[0].id).execute();
      let res = await call('GET', '/api/user/?p=0&page_size=2', admin.headers);
      const data = res.json().data;
      expect(data).toMatchObject({ page: 1, page_size: 2 });
      expect(data.items.map((u: { id: number }) => u.id)).toEqual([made[2].id, made[1].id]);
      expect(data.total).toBeGreaterThanOrEqual(5);
      expect(data.items[0].password).toBe('');
      expect(data.items[0].access_token).toBeNull();

      res = await call('GET', '/api/user/?p=1&page_size=500', admin.headers);
      expect(
        res.json().data.items.some((u: { id: number; DeletedAt: string }) => u.id === made[0].id && u.DeletedAt),
      ).toBe(true);
      expect(res.json().data.page_size).toBe(100);
      res = await call('GET', '/api/user/?page_size=-3', admin.headers);
      expect(res.json().data.page_size).toBe(10);
      // new-api reads an unparsable page as 0 (strconv.Atoi), i.e. the first page (issue #21).
      res = await call('GET', '/api/user/?p=abc&page_size=NaN', admin.headers);
      expect(res.json().data).toMatchObject({ page: 1, page_size: 10 });
    });

    it('searches by keyword (id too) and group', async () => {
      const a = await createUser(t, { username: 'findme_one', group: 'vip' });
      await createUser(t, { username: 'findme_two' });
      let res = await call('GET', '/api/user/search?keyword=findme', admin.headers);
      expect(res.json().data.total).toBe(2);
      res = await call('GET', '/api/user/search?keyword=findme&group=vip', admin.headers);
      expect(res.json().data.items.map((u: { id: number }) => u.id)).toEqual([a.id]);
      res = await call('GET', `/api/user/search?keyword=${a.id}`, admin.headers);
      expect(res.json().data.items.map((u: { id: number }) => u.id)).toContain(a.id);
    });
  });

  describe('get one', () => {
    it('admin sees a common user but not an admin or root; root sees an admin', async () => {
      const u = await createUser(t);
      expect((await call('GET', `/api/user/${u.id}`, admin.headers)).json().data).toMatchObject({
        id: u.id,
        password: '',
      });
      const other = await createUser(t, { role: Role.Admin });
      const outranked = '无权获取同级或更高等级用户的信息';
      expectRefused(await call('GET', `/api/user/${other.id}`, admin.headers), outranked);
      expectRefused(await call('GET', `/api/user/${rootId}`, admin.headers), outranked);
      expect((await call('GET', `/api/user/${other.id}`, root)).json().data.role).toBe(Role.Admin);
      expectRefused(await call('GET', '/api/user/999999', admin.headers), '用户不存在');
      expectRefused(await call('GET', '/api/user/abc', admin.headers), 'id 必须是数字');
    });
  });

  describe('create', () => {
    it('creates a common user whatever role is asked below own', async () => {
      let res = await call('POST', '/api/user/', admin.headers, {
        username: 'made_by_admin',
        password: 'Passw0rd!',
        display_name: 'M',
      });
      expect(res.json()).toEqual({ success: true, message: '' });
      const made = await t.deps.db
        .selectFrom('users')
        .selectAll()
        .where('username', '=', 'made_by_admin')
        .executeTakeFirstOrThrow();
      expect(made).toMatchObject({ role: 1, display_name: 'M' });
      res = await call('POST', '/api/user/', admin.headers, { username: 'made_by_admin', password: 'Passw0rd!' });
      expectRefused(res, '用户名已存在，或已注销');
      res = await call('POST', '/api/user/', admin.headers, {
        username: 'wants_admin',
        password: 'Passw0rd!',
        role: 10,
      });
      expectRefused(res, '无法创建权限大于等于自己的用户');
      expect(
        await t.deps.db.selectFrom('users').select('id').where('username', '=', 'wants_admin').executeTakeFirst(),
      ).toBeUndefined();
    });

    it('validates', async () => {
      let res = await call('POST', '/api/user/', admin.headers, { username: 'x' });
      expectRefused(res, '用户名和密码不能为空！');
      res = await call('POST', '/api/user/', admin.headers, { username: 'x', password: 'short' });
      expect(res.json().message).toBe('密码长度不得小于 8 位');
      res = await call('POST', '/api/user/', admin.headers, { username: 7, password: 'Passw0rd!' });
      expectRefused(res, '用户名必须是字符串');
    });
  });

  describe('update', () => {
    it('applies profile, group, password and a quota change with a manage log', async () => {
      const u = await createUser(t, { quota: 100 });
      const res = await call('PUT', '/api/user/', admin.headers, {
        id: u.id,
        username: u.username,
        display_name: 'Edited',
        group: 'vip',
        quota: 5000,
        password: 'Changed123',
      });
      expect(res.json()).toEqual({ success: true, message: '' });
      expect(await row(u.id)).toMatchObject({ display_name: 'Edited', group: 'vip', quota: 5000 });
      await login(t, u.username, 'Changed123');
      const log = await t.deps.db
        .selectFrom('logs')
        .selectAll()
        .where('user_id', '=', u.id)
        .where('type', '=', 3)
        .executeTakeFirstOrThrow();
      expect(log.content).toContain('管理员将用户额度从');
      expect(log.content).toContain('修改为');
    });

    it('add_quota is atomic, may be negative, never below zero, and publishes the change', async () => {
      const u = await createUser(t, { quota: 1000 });
      const seen: (string | undefined)[] = [];
      const off = t.deps.bus.subscribe('users', (p) => seen.push(p));
      let res = await call('PUT', '/api/user/', admin.headers, { id: u.id, quota: 1000, add_quota: -300 });
      expect(res.json().success).toBe(true);
      expect((await row(u.id)).quota).toBe(700);
      await Promise.all([
        call('PUT', '/api/user/', admin.headers, { id: u.id, add_quota: 50 }),
        call('PUT', '/api/user/', admin.headers, { id: u.id, add_quota: 50 }),
      ]);
      expect((await row(u.id)).quota).toBe(800);
      res = await call('PUT', '/api/user/', admin.headers, { id: u.id, add_quota: -801 });
      expectRefused(res, '用户额度不足，无法扣减 ＄0.001602 额度');
      expect((await row(u.id)).quota).toBe(800);
      off();
      expect(seen).toContain(String(u.id));
    });

    it('refuses to edit an admin or root, and bad input', async () => {
      const other = await createUser(t, { role: Role.Admin });
      const outranked = '无权更新同权限等级或更高权限等级的用户信息';
      let res = await call('PUT', '/api/user/', admin.headers, { id: other.id, display_name: 'x' });
      expectRefused(res, outranked);
      res = await call('PUT', '/api/user/', admin.headers, { id: rootId, quota: 1 });
      expectRefused(res, outranked);
      expect((await row(other.id)).display_name).not.toBe('x');
      expect((await row(rootId)).quota).not.toBe(1);
      const u = await createUser(t);
      res = await call('PUT', '/api/user/', admin.headers, { id: u.id, quota: 'lots' });
      expectRefused(res, '额度必须是数字');
      res = await call('PUT', '/api/user/', admin.headers, { id: u.id, quota: -5 });
      expectRefused(res, '额度不能为负数');
      res = await call('PUT', '/api/user/', admin.headers, { id: u.id, password: 'short' });
      expectRefused(res, '密码长度不得小于 8 位');
      res = await call('PUT', '/api/user/', root, { id: u.id, display_name: 'by root' });
      expect(res.json().success).toBe(true);
    });

    it('root adjusts its own balance (issue 45); its role stays; an admin still cannot edit itself', async () => {
      const before = Number((await row(rootId)).quota);
      let res = await call('PUT', '/api/user/', root, { id: rootId, add_quota: 500_000, role: Role.Common });
      expect(res.json().success).toBe(true);
      expect(await row(rootId)).toMatchObject({ quota: before + 500_000, role: Role.Root, status: 1 });
      res = await call('POST', '/api/user/manage', root, {
        id: rootId,
        action: 'add_quota',
        mode: 'override',
        value: 7,
      });
      expect(res.json().success).toBe(true);
      expect(Number((await row(rootId)).quota)).toBe(7);
      const adminQuota = Number((await row(admin.user.id)).quota);
      res = await call('PUT', '/api/user/', admin.headers, { id: admin.user.id, add_quota: 1_000 });
      expectRefused(res, '无权更新同权限等级或更高权限等级的用户信息');
      expect(Number((await row(admin.user.id)).quota)).toBe(adminQuota);
    });
  });

  describe('manage actions', () => {
    const manage = (headers: Record<string, string>, id: number, action: string) =>
      call('POST', '/api/user/manage', headers, { id, action });

    it('disable, enable, promote, demote, delete answer the new role and status', async () => {
      const u = await createUser(t);
      expect((await manage(admin.headers, u.id, 'disable')).json()).toEqual({
        success: true,
        message: '',
        data: { role: 1, status: 2 },
      });
      expect((await manage(admin.headers, u.id, 'enable')).json().data).toEqual({ role: 1, status: 1 });
      expect((await manage(root, u.id, 'promote')).json().data).toEqual({ role: 10, status: 1 });
      expect((await manage(root, u.id, 'demote')).json().data).toEqual({ role: 1, status: 1 });
      expect((await manage(admin.headers, u.id, 'delete')).json().data).toEqual({ role: 1, status: 3 });
      expect((await row(u.id)).deleted_at).not.toBeNull();
      expectRefused(await manage(root, u.id, 'enable'), '用户已注销，无法启用');
    });

    it('a disabled user is locked out at once', async () => {
      const victim = await loginAs(t);
      await manage(admin.headers, victim.user.id, 'disable');
      expectRefused(await call('GET', '/api/user/self', victim.headers), '用户已被封禁');
    });

    it('only root promotes', async () => {
      const u = await createUser(t);
      expectRefused(await manage(admin.headers, u.id, 'promote'), '普通管理员用户无法提升其他用户为管理员');
      expect((await row(u.id)).role).toBe(1);
    });

    it('an admin cannot act on another admin or root; root is untouchable', async () => {
      const other = await createUser(t, { role: Role.Admin });
      const outranked = '无权更新同权限等级或更高权限等级的用户信息';
      for (const action of ['disable', 'demote', 'delete']) {
        expectRefused(await manage(admin.headers, other.id, action), outranked, `${action} admin`);
        expectRefused(await manage(admin.headers, rootId, action), outranked, `${action} root`);
      }
      expectRefused(await manage(admin.headers, admin.user.id, 'disable'), outranked, 'disable self');
      expect(await row(other.id)).toMatchObject({ role: Role.Admin, status: 1, deleted_at: null });
      for (const [action, message] of [
        ['disable', '无法禁用超级管理员用户'],
        ['delete', '无法删除超级管理员用户'],
        ['demote', '无法降级超级管理员用户'],
      ]) {
        expectRefused(await manage(root, rootId, action), message, action);
      }
      expect((await manage(root, other.id, 'demote')).json().data.role).toBe(1);
      expect(await row(rootId)).toMatchObject({ role: 100, status: 1 });
    });

    it('validates the action and id', async () => {
      let res = await manage(admin.headers, 1, 'explode');
      expectRefused(res);
      expect(res.json().message).toContain('无效的操作');
      res = await call('POST', '/api/user/manage', admin.headers, { id: 'x', action: 'disable' });
      expectRefused(res, 'id必须是数字');
      res = await manage(admin.headers, 999999, 'disable');
      expectRefused(res, '用户不存在');
    });
  });

  describe('hard delete', () => {
    it('removes the user and their tokens; answers the envelope', async () => {
      const u = await createUser(t);
      await t.deps.db
        .insertInto('tokens')
        .values({ user_id: u.id, key: 'k'.repeat(48) })
        .execute();
      const res = await call('DELETE', `/api/user/${u.id}`, admin.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: '' });
      expect(
        await t.deps.db.selectFrom('users').select('id').where('id', '=', u.id).executeTakeFirst(),
      ).toBeUndefined();
      expect(
        await t.deps.db.selectFrom('tokens').select('id').where('user_id', '=', u.id).executeTakeFirst(),
      ).toBeUndefined();
    });

    it('nobody deletes the same or a higher role', async () => {
      const other = await createUser(t, { role: Role.Admin });
      const sameOrHigher = '无权删除同权限等级或更高权限等级的用户';
      expectRefused(await call('DELETE', `/api/user/${other.id}`, admin.headers), sameOrHigher);
      expectRefused(await call('DELETE', `/api/user/${rootId}`, admin.headers), sameOrHigher);
      expectRefused(await call('DELETE', `/api/user/${rootId}`, root), sameOrHigher);
      expect(
        await t.deps.db.selectFrom('users').select('id').where('id', 'in', [other.id, rootId]).execute(),
      ).toHaveLength(2);
      expect((await call('DELETE', `/api/user/${other.id}/`, root)).json().success).toBe(true);
    });
  });
});
