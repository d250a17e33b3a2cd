import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createUser, login, restHeaders } from '../../../test/users.ts';

describe('sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('sets an httpOnly, SameSite=Strict, signed session cookie', async () => {
    const user = await createUser(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { username: user.username, password: user.password },
    });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^session=[^;]+\.[^;]+;/); // value.signature
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
  });

  it('revokes the session on logout, even for a copy of the cookie', async () => {
    const user = await createUser(t);
    const session = await login(t, user.username, user.password);
    const headers = restHeaders(session);
    expect((await t.app.inject({ url: '/api/user/self', headers })).statusCode).toBe(200);
    await t.app.inject({ url: '/api/user/logout', headers });
    const after = await t.app.inject({ url: '/api/user/self', headers });
    expect(after.statusCode).toBe(401);
  });

  it('ignores a forged cookie', async () => {
    const user = await createUser(t);
    const res = await t.app.inject({
      url: '/api/user/self',
      headers: { cookie: 'session=forged-session-id.badsignature', 'new-api-user': String(user.id) },
    });
    expect(res.statusCode).toBe(401);
  });
});
