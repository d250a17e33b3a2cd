import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefused } from '../../../test/rest-answers.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createUser, login, randomIp, setupRoot, setOption } from '../../../test/users.ts';

describe('registration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ generateDefaultToken: true });
    await setupRoot(t);
  });
  afterAll(() => t.close());

  const register = (payload: unknown, ip = randomIp()) =>
    t.app.inject({ method: 'POST', url: '/api/user/register', payload: payload as object, remoteAddress: ip });
  const userRow = (username: string) =>
    t.deps.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirstOrThrow();
  const userExists = async (username: string) =>
    (await t.deps.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst()) !==
    undefined;
  const withOption = async (key: string, value: string, fn: () => Promise<void>) => {
    const before = t.deps.services.options.getRaw(key) ?? '';
    await setOption(t, key, value);
    try {
      await fn();
    } finally {
      await setOption(t, key, before);
    }
  };

  it('creates a common user who can then log in', async () => {
    const res = await register({ username: 'alice', password: 'Passw0rd!', password2: 'Passw0rd!' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: '' });
    const row = await userRow('alice');
    expect(row).toMatchObject({ role: 1, status: 1, display_name: 'alice', group: 'default', quota: 0 });
    expect(row.password).toMatch(/^\$argon2id\$/);
    expect(row.aff_code).toMatch(/^[a-zA-Z0-9]{4}$/);
    expect((await login(t, 'alice', 'Passw0rd!')).userId).toBe(row.id);
  });

  it('creates the default token when GENERATE_DEFAULT_TOKEN is on', async () => {
    await register({ username: 'tokenuser', password: 'Passw0rd!' });
    const row = await userRow('tokenuser');
    const token = await t.deps.db.selectFrom('tokens').selectAll().where('user_id', '=', row.id).executeTakeFirst();
    expect(token).toMatchObject({ name: 'tokenuser的初始令牌', unlimited_quota: 1, expired_time: -1, status: 1 });
    expect(token?.key).toMatch(/^[a-zA-Z0-9]{48}$/);
  });

  it.each([
    [{ password: 'Passw0rd!' }, '用户名不能为空'],
    [{ username: 'a'.repeat(21), password: 'Passw0rd!' }, '用户名长度不能超过 20 个字符'],
    [{ username: 'shortpw', password: 'short' }, '密码长度不得小于 8 位'],
    [{ username: 'longpw', password: 'x'.repeat(21) }, '密码长度不得超过 20 位'],
    [{ username: 'mismatch', password: 'Passw0rd!', password2: 'Passw0rd?' }, '两次输入的密码不一致'],
    [{ username: 'bademail', password: 'Passw0rd!', email: 'not-an-email' }, '邮箱地址格式不正确'],
  ])('validates %o', async (payload, message) => {
    const res = await register(payload);
    expectRefused(res);
    expect(res.json().message).toContain(message);
    expect(await userExists('username' in payload ? payload.username : '')).toBe(false);
  });

  it('refuses wrong types with a readable message, never 500', async () => {
    const res = await register({ username: ['x'], password: 12345678 });
    expectRefused(res, '用户名必须是字符串');
  });

  it('refuses a taken username or e-mail, soft-deleted accounts included', async () => {
    const u = await createUser(t);
    let res = await register({ username: u.username, password: 'Passw0rd!' });
    expectRefused(res, '用户名已存在，或已注销');

    await t.deps.db.updateTable('users').set({ deleted_at: 1, status: 3 }).where('id', '=', u.id).execute();
    res = await register({ username: u.username, password: 'Passw0rd!' });
    expectRefused(res, '用户名已存在，或已注销');

    await register({ username: 'mailer', password: 'Passw0rd!', email: 'mailer@example.com' });
    res = await register({ username: 'mailer2', password: 'Passw0rd!', email: 'mailer@example.com' });
    expectRefused(res, '邮箱地址已被占用');
    expect(await userExists('mailer2')).toBe(false);
  });

  it('honours RegisterEnabled and PasswordRegisterEnabled', async () => {
    await withOption('RegisterEnabled', 'false', async () => {
      const res = await register({ username: 'closed1', password: 'Passw0rd!' });
      expectRefused(res, '管理员关闭了新用户注册');
    });
    await withOption('PasswordRegisterEnabled', 'false', async () => {
      const res = await register({ username: 'closed2', password: 'Passw0rd!' });
      expectRefused(res, '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册');
    });
    for (const username of ['closed1', 'closed2']) expect(await userExists(username)).toBe(false);
  });

  it('gives QuotaForNewUser and the invite rewards', async () => {
    await setOption(t, 'QuotaForNewUser', '1000');
    await setOption(t, 'QuotaForInviter', '300');
    await setOption(t, 'QuotaForInvitee', '200');
    await register({ username: 'inviter', password: 'Passw0rd!' });
    const inviter = await userRow('inviter');
    expect(inviter.quota).toBe(1000);

    await register({ username: 'invitee', password: 'Passw0rd!', aff_code: inviter.aff_code });
    const invitee = await userRow('invitee');
    expect(invitee).toMatchObject({ quota: 1200, inviter_id: inviter.id });
    expect(await userRow('inviter')).toMatchObject({
      aff_count: 1,
      aff_quota: 300,
      aff_history_quota: 300,
      quota: 1000,
    });
    expect(invitee.aff_code).not.toBe(inviter.aff_code);

    // An unknown invite code does not block the sign-up.
    const res = await register({ username: 'invitee2', password: 'Passw0rd!', aff_code: 'zzzz' });
    expect(res.json().success).toBe(true);
    expect((await userRow('invitee2')).inviter_id).toBe(0);
    await setOption(t, 'QuotaForNewUser', '0');
  });

  it('with e-mail verification on, needs a valid unused code', async () => {
    await withOption('EmailVerificationEnabled', 'true', async () => {
      let res = await register({ username: 'verified', password: 'Passw0rd!' });
      expectRefused(res, '管理员开启了邮箱验证，请输入邮箱地址和验证码');

      const now = Math.floor(Date.now() / 1000);
      await t.deps.db
        .insertInto('verification_codes')
        .values({
          purpose: 'email_verify',
          target: 'v@example.com',
          code: '123456',
          created_at: now,
          expires_at: now + 600,
        })
        .execute();
      res = await register({
        username: 'verified',
        password: 'Passw0rd!',
        email: 'v@example.com',
        verification_code: '000000',
      });
      expectRefused(res, '验证码错误或已过期');
      res = await register({
        username: 'verified',
        password: 'Passw0rd!',
        email: 'v@example.com',
        verification_code: '123456',
      });
      expect(res.json()).toEqual({ success: true, message: '' });
      expect((await userRow('verified')).email).toBe('v@example.com');
      // The same code cannot make a second account (the address is taken now anyway).
      res = await register({
        username: 'verified2',
        password: 'Passw0rd!',
        email: 'v@example.com',
        verification_code: '123456',
      });
      expectRefused(res, '邮箱地址已被占用');
      expect(await userExists('verified2')).toBe(false);
    });
  });

  it('with Turnstile on, refuses a request without a token', async () => {
    await setOption(t, 'TurnstileSiteKey', 'site-key');
    await setOption(t, 'TurnstileSecretKey', 'secret-key');
    await withOption('TurnstileCheckEnabled', 'true', async () => {
      const res = await register({ username: 'robot', password: 'Passw0rd!' });
      expectRefused(res, 'Turnstile token 为空');
    });
  });

  it('rate-limits registration per IP with HTTP 429', async () => {
    const ip = randomIp();
    for (let i = 0; i < 10; i++) await register({ username: '', password: '' }, ip);
    const res = await register({ username: 'late', password: 'Passw0rd!' }, ip);
    expect(res.statusCode).toBe(429);
    expect(res.body).toBe('');
    expect(await userExists('late')).toBe(false);
  });
});
