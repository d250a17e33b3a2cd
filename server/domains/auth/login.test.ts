import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefused } from '../../../test/rest-answers.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createUser, login, loginAs, randomIp, restHeaders, setupRoot, setOption } from '../../../test/users.ts';

const WRONG_CREDENTIALS = '用户名或密码错误，或用户已被封禁';

describe('login, logout and REST authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await setupRoot(t);
  });
  afterAll(() => t.close());

  const post = (payload: unknown, ip = randomIp()) =>
    t.app.inject({ method: 'POST', url: '/api/user/login', payload: payload as object, remoteAddress: ip });

  it('logs in by username and answers the login-user shape', async () => {
    const u = await createUser(t, { quota: 500 });
    const res = await post({ username: u.username, password: u.password });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({ id: u.id, username: u.username, display_name: u.username, role: 1, status: 1 });
    expect(body.data.group).toBe('default');
    // Everything else is present with zero values, as new-api's whole-struct answer.
    expect(body.data).toMatchObject({ quota: 0, password: '', access_token: null, DeletedAt: null, email: '' });
    expect(res.headers['set-cookie']).toMatch(/^session=/);
  });

  it('logs in by e-mail', async () => {
    const u = await createUser(t);
    await t.deps.db
      .updateTable('users')
      .set({ email: `${u.username}@example.com` })
      .where('id', '=', u.id)
      .execute();
    const res = await post({ username: `${u.username}@example.com`, password: u.password });
    expect(res.json()).toMatchObject({ success: true, data: { id: u.id } });
  });

  it('refuses a wrong password, an unknown user and missing fields with readable messages', async () => {
    const u = await createUser(t);
    for (const payload of [
      { username: u.username, password: 'wrong-password' },
      { username: 'nobody-here', password: 'whatever1' },
    ]) {
      const res = await post(payload);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: false, message: WRONG_CREDENTIALS });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const res = await post({ username: u.username });
    expectRefused(res, '请输入用户名和密码！');
  });

  it('refuses a banned user', async () => {
    const u = await createUser(t);
    await t.deps.db.updateTable('users').set({ status: 2 }).where('id', '=', u.id).execute();
    const res = await post({ username: u.username, password: u.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: false, message: '用户已被封禁' });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a soft-deleted user', async () => {
    const u = await createUser(t);
    await t.deps.db.updateTable('users').set({ deleted_at: 1, status: 3 }).where('id', '=', u.id).execute();
    expectRefused(await post({ username: u.username, password: u.password }), WRONG_CREDENTIALS);
  });

  it('honours PasswordLoginEnabled', async () => {
    const u = await createUser(t);
    await setOption(t, 'PasswordLoginEnabled', 'false');
    try {
      const res = await post({ username: u.username, password: u.password });
      expectRefused(res);
      expect(res.json().message).toContain('管理员关闭了密码登录');
    } finally {
      await setOption(t, 'PasswordLoginEnabled', 'true');
    }
  });

  it('answers malformed JSON and wrong types with a refusal envelope', async () => {
    let res = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
      remoteAddress: randomIp(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: false,
      message: '无效的参数：请求体不是合法的 JSON',
      // Ours: the parser's own words, for the console's "details" disclosure (issue 31).
      detail: expect.stringContaining('FST_ERR_CTP_INVALID_JSON_BODY'),
    });
    res = await post({ username: 42, password: ['x'] });
    expectRefused(res);
    expect(res.json().message).toContain('用户名必须是字符串');
  });

  // The sign-in limits (per account and per address, with Retry-After) have their own file: sign-in-limits.test.ts.

  it('verifies an imported bcrypt hash and upgrades it to argon2id', async () => {
    const u = await createUser(t);
    const legacy = bcrypt.hashSync('OldPassw0rd', 10).replace(/^\$2b\$/, '$2a$');
    await t.deps.db.updateTable('users').set({ password: legacy }).where('id', '=', u.id).execute();
    expectRefused(await post({ username: u.username, password: 'wrong-one' }), WRONG_CREDENTIALS);
    const res = await post({ username: u.username, password: 'OldPassw0rd' });
    expect(res.json().success).toBe(true);
    const row = await t.deps.db.selectFrom('users').select('password').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^\$argon2id\$/);
    expect((await post({ username: u.username, password: 'OldPassw0rd' })).json().success).toBe(true);
  });

  it('logout clears the session and needs no auth', async () => {
    const { session, headers } = await loginAs(t);
    expect((await t.app.inject({ method: 'GET', url: '/api/user/self', headers })).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: '/api/user/logout' });
    expect(res.json()).toEqual({ success: true, message: '' });
    expect(String(res.headers['set-cookie'])).toMatch(/session=;/);
    // The browser now holds the emptied cookie, which signs in nobody.
    const cleared = String(res.headers['set-cookie']).split(';')[0];
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/user/self',
      headers: { cookie: cleared, 'new-api-user': String(session.userId) },
    });
    expect(after.statusCode).toBe(401);
  });

  describe('New-Api-User header', () => {
    it('is required (401) and must match the session user (401)', async () => {
      const { session } = await loginAs(t);
      let res = await t.app.inject({ method: 'GET', url: '/api/user/self', headers: { cookie: session.cookie } });
      expect(res.statusCode).toBe(401);
      expect(res.json().success).toBe(false);
      res = await t.app.inject({
        method: 'GET',
        url: '/api/user/self',
        headers: { cookie: session.cookie, 'new-api-user': String(session.userId + 1000) },
      });
      expect(res.statusCode).toBe(401);
      res = await t.app.inject({ method: 'GET', url: '/api/user/self', headers: restHeaders(session) });
      expect(res.statusCode).toBe(200);
    });

    it('no session and no access token → 401', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/user/self', headers: { 'new-api-user': '1' } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ success: false, message: '未登录且未提供 access token' });
    });

    it('works with a system access token plus the header', async () => {
      const { session, headers } = await loginAs(t);
      const token = (await t.app.inject({ method: 'GET', url: '/api/user/token', headers })).json().data as string;
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/user/self',
        headers: { authorization: `Bearer ${token}`, 'new-api-user': String(session.userId) },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.id).toBe(session.userId);
      const noHeader = await t.app.inject({
        method: 'GET',
        url: '/api/user/self',
        headers: { authorization: token },
      });
      expect(noHeader.statusCode).toBe(401);
    });

    it('refuses an unknown access token with HTTP 200 (a 401 would sign a console out), real-status routes included', async () => {
      const { session } = await loginAs(t);
      for (const [method, url] of [
        ['GET', '/api/user/self'],
        ['PUT', '/api/option/'],
      ] as const) {
        const res = await t.app.inject({
          method,
          url,
          headers: { authorization: 'Bearer not-a-real-access-token', 'new-api-user': String(session.userId) },
          ...(method === 'PUT' ? { payload: { key: 'SystemName', value: 'hijacked' } } : {}),
        });
        expect(res.statusCode, `${method} ${url}`).toBe(200);
        expect(res.json()).toEqual({ success: false, message: 'access token 无效' });
      }
      expect(t.deps.services.options.getRaw('SystemName')).not.toBe('hijacked');
    });
  });

  it('re-reads role and status on each request: a ban takes effect at once', async () => {
    const { user, headers } = await loginAs(t);
    await t.deps.db.updateTable('users').set({ status: 2 }).where('id', '=', user.id).execute();
    const res = await t.app.inject({ method: 'GET', url: '/api/user/self', headers });
    expectRefused(res, '用户已被封禁');
  });

  it('login helper rejects bad credentials loudly', async () => {
    await expect(login(t, 'root', 'nope-nope')).rejects.toThrow(/login\(root\) failed/);
  });
});
