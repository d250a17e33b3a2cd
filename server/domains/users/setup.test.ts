import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { login, restHeaders, ROOT_PASSWORD, setupRoot } from '../../../test/users.ts';

describe('setup wizard', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  it('reports setup not done, then creates root', async () => {
    let res = await t.app.inject({ method: 'GET', url: '/api/setup' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      // The wizard is on this machine (loopback): no setup code asked (setup-code.test.ts).
      data: { status: false, root_init: false, database_type: t.deps.dbType, setup_code_required: false },
    });

    res = await t.app.inject({
      method: 'POST',
      url: '/api/setup',
      payload: {
        username: 'admin',
        password: 'Secret123',
        confirmPassword: 'Secret123',
        SelfUseModeEnabled: true,
        DemoSiteEnabled: false,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: '系统初始化成功' });

    const root = await t.deps.db.selectFrom('users').selectAll().where('username', '=', 'admin').executeTakeFirst();
    expect(root).toMatchObject({ role: 100, display_name: '超级管理员', quota: 100000000, status: 1 });
    expect(t.deps.services.options.get('SelfUseModeEnabled')).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/api/status' })).json().data.setup).toBe(true);
    res = await t.app.inject({ method: 'GET', url: '/api/setup' });
    expect(res.json().data.status).toBe(true);
  });

  it('refuses a second setup with HTTP 400', async () => {
    await setupRoot(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/setup',
      payload: { username: 'x', password: 'Secret123', confirmPassword: 'Secret123' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: '系统已经初始化完成' });
  });

  it.each([
    [{ username: 'a', password: 'Secret123', confirmPassword: 'Secret124' }, '两次输入的密码不一致'],
    [{ username: 'a', password: 'short', confirmPassword: 'short' }, '密码长度不得小于 8 位'],
    [{ password: 'Secret123', confirmPassword: 'Secret123' }, '用户名不能为空'],
    [{ username: 'a'.repeat(21), password: 'Secret123', confirmPassword: 'Secret123' }, '用户名长度不能超过 20 个字符'],
  ])('validates %o', async (payload, message) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/setup', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message });
    expect((await t.app.inject({ method: 'GET', url: '/api/setup' })).json().data.status).toBe(false);
  });

  it('test helpers: setupRoot then login gives a working session', async () => {
    const root = await setupRoot(t);
    const session = await login(t, 'root', ROOT_PASSWORD);
    expect(session.userId).toBe(root.id);
    const res = await t.app.inject({ method: 'GET', url: '/api/option/', headers: restHeaders(session) });
    expect(res.statusCode).toBe(200);
  });
});
