import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { type Mailbox, startMailbox, useMailbox } from '../../../test/signin/mailbox.ts';
import { createUser, loginAs, login, randomIp, restHeaders, setOption, setupRoot } from '../../../test/users.ts';

/* Registration codes, e-mail binding and password reset, delivered to a real SMTP server on loopback. */

let t: TestApp;
let box: Mailbox;

beforeAll(async () => {
  t = await createTestApp();
  await setupRoot(t);
  box = await startMailbox();
  await useMailbox(t, box);
  await setOption(t, 'SystemName', 'Yard');
  await setOption(t, 'ServerAddress', 'https://gw.example.com');
  await setOption(t, 'QuotaForNewUser', '1234');
});
afterAll(async () => {
  await box.close();
  await t.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers, remoteAddress: randomIp() });
const codeOf = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';

describe('registration with e-mail verification', () => {
  it('mails a code that registration needs and uses up', async () => {
    await setOption(t, 'EmailVerificationEnabled', 'true');
    const email = 'newbie@example.com';
    const sent = await get(`/api/verification?email=${encodeURIComponent(email)}`);
    expect(sent.json()).toMatchObject({ success: true });
    const mail = await box.next(email);
    expect(mail.subject).toBe('Yard邮箱验证邮件');
    const code = codeOf(mail.text);
    expect(code).toMatch(/^\d{6}$/);

    const register = (verification_code: string, username: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/register',
        payload: { username, password: 'Passw0rd!x', email, verification_code },
        remoteAddress: randomIp(),
      });
    const wrong = await register(code === '000000' ? '111111' : '000000', 'newbie');
    expect(wrong.json()).toMatchObject({ success: false, message: '验证码错误或已过期' });
    expect((await register(code, 'newbie')).json()).toMatchObject({ success: true });
    const row = await t.deps.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', 'newbie')
      .executeTakeFirstOrThrow();
    expect(row.email).toBe(email);
    expect(row.quota).toBe(1234);
    // The same code cannot make a second account (the address is taken now anyway).
    expect((await register(code, 'newbie2')).json()).toMatchObject({ success: false });
    await setOption(t, 'EmailVerificationEnabled', 'false');
  });

  it('waits 30 seconds between mails to one address and refuses taken addresses', async () => {
    const email = 'twice@example.com';
    expect((await get(`/api/verification?email=${email}`)).statusCode).toBe(200);
    await box.next(email);
    const again = await get(`/api/verification?email=${email}`);
    // new-api's limiter answers 429 with an empty body (api-contract §0.1); the console shows its own toast.
    expect(again.statusCode).toBe(429);
    expect(again.body).toBe('');
    await new Promise((r) => setTimeout(r, 200));
    expect(box.mails.filter((m) => m.to.includes(email))).toHaveLength(1);

    await createUser(t, { username: 'holder' });
    await t.deps.db.updateTable('users').set({ email: 'held@example.com' }).where('username', '=', 'holder').execute();
    const taken = await get('/api/verification?email=held@example.com');
    expect(taken.statusCode).toBe(200);
    expect(taken.json()).toEqual({ success: false, message: '邮箱地址已被占用' });
  });

  it('applies the domain whitelist and the alias restriction', async () => {
    await setOption(t, 'EmailDomainRestrictionEnabled', 'true');
    await setOption(t, 'EmailDomainWhitelist', 'gmail.com,example.org');
    const outside = await get('/api/verification?email=a@elsewhere.net');
    expect(outside.json()).toMatchObject({ success: false });
    expect(outside.json().message).toContain('白名单');
    await setOption(t, 'EmailAliasRestrictionEnabled', 'true');
    expect((await get('/api/verification?email=a%2Btag@example.org')).json().message).toContain('别名');
    expect((await get('/api/verification?email=j.doe@gmail.com')).json().message).toContain('别名');
    expect((await get('/api/verification?email=jdoe@gmail.com')).json()).toMatchObject({ success: true });
    await box.next('jdoe@gmail.com');
    await setOption(t, 'EmailDomainRestrictionEnabled', 'false');
    await setOption(t, 'EmailAliasRestrictionEnabled', 'false');
  });
});

describe('e-mail binding', () => {
  it('sets the signed-in user’s address with a mailed code', async () => {
    const { user, headers } = await loginAs(t);
    const email = 'bind-me@example.com';
    await get(`/api/verification?email=${email}`);
    const code = codeOf((await box.next(email)).text);
    const noSession = await get(`/api/oauth/email/bind?email=${email}&code=${code}`);
    expect(noSession.statusCode).toBe(401);
    const bound = await get(`/api/oauth/email/bind?email=${email}&code=${code}`, headers);
    expect(bound.json()).toMatchObject({ success: true });
    const row = await t.deps.db.selectFrom('users').select('email').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.email).toBe(email);
  });
});

describe('password reset', () => {
  it('mails a single-use link whose token gives a new 12-char password', async () => {
    const user = await createUser(t, { username: 'forgetful' });
    await t.deps.db.updateTable('users').set({ email: 'forgetful@example.com' }).where('id', '=', user.id).execute();
    const asked = await get('/api/reset_password?email=forgetful@example.com');
    expect(asked.json()).toMatchObject({ success: true });
    const mail = await box.next('forgetful@example.com');
    const link = /https:\/\/gw\.example\.com\/user\/reset\?[\w%.=&;-]+/.exec(mail.text)?.[0] ?? '';
    expect(link).not.toBe('');
    const params = new URL(link.replace(/&amp;/g, '&')).searchParams;
    expect(params.get('email')).toBe('forgetful@example.com');

    const reset = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/reset',
        payload: { email: params.get('email'), token: params.get('token') },
        remoteAddress: randomIp(),
      });
    const first = (await reset()).json() as { success: boolean; data: string };
    expect(first.success).toBe(true);
    expect(first.data).toMatch(/^[A-Za-z0-9]{12}$/);
    const session = await login(t, 'forgetful', first.data);
    expect(session.userId).toBe(user.id);
    await expect(login(t, 'forgetful', user.password)).rejects.toThrow();
    expect((await reset()).json()).toMatchObject({ success: false });
    expect(restHeaders(session)['new-api-user']).toBe(String(user.id));
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const before = box.mails.length;
    expect((await get('/api/reset_password?email=nobody@example.com')).json()).toMatchObject({ success: true });
    await new Promise((r) => setTimeout(r, 200));
    expect(box.mails.length).toBe(before);
  });
});
