import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createUser, setupRoot, trpcCaller, trpcHttp } from '../../../test/users.ts';
import type { UserRow } from './users.table.ts';

describe('tRPC auth, users and groups', () => {
  let t: TestApp;
  let root: UserRow;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const codeOf = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (err) {
      return err instanceof TRPCError ? { code: err.code, message: err.message } : { code: 'OTHER', message: '' };
    }
    return { code: 'NONE', message: '' };
  };

  it('auth.setupStatus and auth.setup', async () => {
    const visitor = trpcCaller(t);
    expect(await visitor.auth.setupStatus()).toMatchObject({ status: false });
    root = await setupRoot(t);
    expect(await visitor.auth.setupStatus()).toMatchObject({ status: true });
    expect(
      await codeOf(visitor.auth.setup({ username: 'again', password: 'Passw0rd!', confirmPassword: 'Passw0rd!' })),
    ).toEqual({ code: 'BAD_REQUEST', message: '系统已经初始化完成' });
  });

  it('auth.login sets the session cookie; auth.logout clears it', async () => {
    const u = await createUser(t);
    const http = trpcHttp();
    const user = await trpcCaller(t, undefined, http).auth.login({ username: u.username, password: u.password });
    expect(user).toMatchObject({ id: u.id, role: 1, quota: 0 });
    expect(http.cookies[0]).toMatchObject({ name: 'session' });
    await trpcCaller(t, undefined, http).auth.logout();
    expect(http.cookies[1]).toMatchObject({ name: 'session', cleared: true });
    expect(await codeOf(trpcCaller(t).auth.login({ username: u.username, password: 'wrong-one' }))).toEqual({
      code: 'BAD_REQUEST',
      message: '用户名或密码错误，或用户已被封禁',
    });
  });

  it('auth.register and auth.me', async () => {
    await trpcCaller(t).auth.register({ username: 'via_trpc', password: 'Passw0rd!' });
    const row = await t.deps.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', 'via_trpc')
      .executeTakeFirstOrThrow();
    expect(await trpcCaller(t).auth.me()).toBeNull();
    expect(await trpcCaller(t, row).auth.me()).toMatchObject({ id: row.id, username: 'via_trpc', role: 1 });
  });

  it('users.self / updateSelf / generateAccessToken / affCode', async () => {
    const u = await createUser(t);
    const caller = trpcCaller(t, { id: u.id, role: Role.Common });
    await caller.users.updateSelf({ display_name: 'Trpc Name' });
    expect(await caller.users.self()).toMatchObject({ id: u.id, display_name: 'Trpc Name' });
    expect(await caller.users.generateAccessToken()).toMatch(/^[a-zA-Z0-9]{32}$/);
    expect(await caller.users.affCode()).toMatch(/^[a-zA-Z0-9]{4}$/);
    expect(await caller.users.selfGroups()).toHaveProperty('default');
    expect(await caller.users.models()).toEqual([]);
  });

  it('users.deleteSelf checks the typed username', async () => {
    const u = await createUser(t);
    const caller = trpcCaller(t, { id: u.id, role: Role.Common });
    expect(await codeOf(caller.users.deleteSelf({ confirmUsername: 'someone-else' }))).toEqual({
      code: 'BAD_REQUEST',
      message: '请输入你的账户名以确认删除',
    });
    await caller.users.deleteSelf({ confirmUsername: u.username });
    const row = await t.deps.db.selectFrom('users').selectAll().where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
  });

  it('admin procedures: roles enforced, list paging, manage', async () => {
    const common = await createUser(t);
    const admin = await createUser(t, { role: Role.Admin });
    expect(await codeOf(trpcCaller(t, { id: common.id, role: Role.Common }).users.list({}))).toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(await codeOf(trpcCaller(t).users.list({}))).toMatchObject({ code: 'UNAUTHORIZED' });

    const asAdmin = trpcCaller(t, { id: admin.id, role: Role.Admin });
    const page = await asAdmin.users.list({ page: 0, pageSize: 2 });
    expect(page).toMatchObject({ page: 1, pageSize: 2 });
    expect(page.items).toHaveLength(2);
    expect(await asAdmin.users.manage({ id: common.id, action: 'disable' })).toEqual({ role: 1, status: 2 });
    expect(await codeOf(asAdmin.users.manage({ id: common.id, action: 'promote' }))).toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(await codeOf(asAdmin.users.get({ id: root.id }))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await asAdmin.groups.list()).toEqual(['default']);

    const { id } = await asAdmin.users.create({ username: 'trpc_made', password: 'Passw0rd!' });
    await asAdmin.users.update({ id, add_quota: 42 });
    expect(await asAdmin.users.get({ id })).toMatchObject({ quota: 42, role: 1 });
    await asAdmin.users.remove({ id });
    expect(await codeOf(asAdmin.users.get({ id }))).toMatchObject({ code: 'NOT_FOUND' });

    const asRoot = trpcCaller(t, root);
    expect(await asRoot.users.manage({ id: common.id, action: 'promote' })).toEqual({ role: 10, status: 2 });
  });

  it('zod input errors are BAD_REQUEST with the schema message', async () => {
    const admin = await createUser(t, { role: Role.Admin });
    const asAdmin = trpcCaller(t, { id: admin.id, role: Role.Admin });
    expect(await codeOf(asAdmin.users.manage({ id: 1, action: 'explode' as unknown as 'disable' }))).toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});
