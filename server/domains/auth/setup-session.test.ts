import { afterEach, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createUser } from '../../../test/users.ts';

/* Issue 22 item 8: after the wizard the new root is signed in, not sent to a logged-out home page. */
describe('setup wizard signs the new root in', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const setup = (app: TestApp, input: object) =>
    app.app.inject({ method: 'POST', url: '/trpc/auth.setup', payload: input });

  it('answers the root account and sets a session cookie that works', async () => {
    t = await createTestApp();
    const res = await setup(t, { username: 'boss', password: 'Passw0rd!', confirmPassword: 'Passw0rd!' });
    expect(res.statusCode).toBe(200);
    const data = (res.json() as { result: { data: { user: { username: string; role: number } } } }).result.data;
    expect(data.user).toMatchObject({ username: 'boss', role: Role.Root });
    const cookie = String(res.headers['set-cookie']).split(';')[0];
    expect(cookie).toMatch(/=/);
    const me = await t.app.inject({ method: 'GET', url: '/trpc/auth.me', headers: { cookie } });
    expect((me.json() as { result: { data: { username: string } } }).result.data.username).toBe('boss');
  });

  it('signs nobody in when an imported root already existed', async () => {
    t = await createTestApp();
    await createUser(t, { username: 'imported', role: Role.Root });
    const res = await setup(t, {});
    expect((res.json() as { result: { data: unknown } }).result.data).toEqual({ user: null });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('REST POST /api/setup answers as before', async () => {
    t = await createTestApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/setup',
      payload: { username: 'boss', password: 'Passw0rd!', confirmPassword: 'Passw0rd!' },
    });
    expect(res.json()).toEqual({ success: true, message: '系统初始化成功' });
  });
});
