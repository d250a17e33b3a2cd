import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app.ts';
import {
  type FakeProviders,
  GITHUB_CLIENT,
  LINUXDO_CLIENT,
  startFakeProviders,
  TURNSTILE_SECRET,
  WECHAT_TOKEN,
} from '../../../../test/signin/fake-providers.ts';
import { createUser, loginAs, randomIp, setOption, setupRoot } from '../../../../test/users.ts';

/* GitHub, Linux.do, WeChat, Telegram and Turnstile against local fakes of those services. */

const BOT_TOKEN = '123456:telegram-bot-token';
let t: TestApp;
let fake: FakeProviders;

beforeAll(async () => {
  fake = await startFakeProviders();
  t = await createTestApp();
  await setupRoot(t);
  const set = (k: string, v: string) => setOption(t, k, v);
  await set('GitHubClientId', GITHUB_CLIENT.id);
  await set('GitHubClientSecret', GITHUB_CLIENT.secret);
  await set('GitHubOAuthEnabled', 'true');
  await set('LinuxDOClientId', LINUXDO_CLIENT.id);
  await set('LinuxDOClientSecret', LINUXDO_CLIENT.secret);
  await set('LinuxDOOAuthEnabled', 'true');
  await set('WeChatServerAddress', fake.url);
  await set('WeChatServerToken', WECHAT_TOKEN);
  await set('WeChatAuthEnabled', 'true');
  await set('TelegramBotToken', BOT_TOKEN);
  await set('TelegramBotName', 'yard_bot');
  await set('TelegramOAuthEnabled', 'true');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const cookiesOf = (setCookie: string | string[] | undefined) =>
  (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []).map((c) => c.split(';')[0]).join('; ');

async function callback(provider: string, code: string, opts: { forge?: boolean; cookie?: string } = {}) {
  const s = await t.app.inject({ method: 'GET', url: '/api/oauth/state', headers: { cookie: opts.cookie ?? '' } });
  const state = opts.forge ? 'forgedState1' : (s.json().data as string);
  return t.app.inject({
    method: 'GET',
    url: `/api/oauth/${provider}?code=${code}&state=${state}`,
    headers: { cookie: [opts.cookie, cookiesOf(s.headers['set-cookie'])].filter(Boolean).join('; ') },
    remoteAddress: randomIp(),
  });
}

describe('GitHub', () => {
  it('signs up github_<n>, logs the same account in later, refuses bad codes and forged states', async () => {
    const first = await callback('github', 'gh-good');
    expect(first.json()).toMatchObject({ success: true, data: { display_name: 'Octo Cat' } });
    const user = first.json().data as { id: number; username: string };
    expect(user.username).toMatch(/^github_\d+$/);
    const row = await t.deps.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ github_id: '4242', email: 'octo@gh.test' });
    expect((await callback('github', 'gh-good')).json()).toMatchObject({ success: true, data: { id: user.id } });

    const bad = await callback('github', 'gh-bad');
    expect(bad.json()).toMatchObject({ success: false });
    expect(bad.json().message).toContain('incorrect or expired');
    expect((await callback('github', 'gh-good', { forge: true })).statusCode).toBe(403);

    // A private profile e-mail comes from /user/emails (the primary, verified one).
    const shy = (await callback('github', 'gh-good-private')).json().data as { id: number; display_name: string };
    expect(shy.display_name).toBe('shy');
    const shyRow = await t.deps.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', shy.id)
      .executeTakeFirstOrThrow();
    expect(shyRow.email).toBe('shy@gh.test');
  });
});

describe('Linux.do', () => {
  it('enforces the minimum trust level', async () => {
    await setOption(t, 'LinuxDOMinimumTrustLevel', '2');
    const low = await callback('linuxdo', 'ld-low');
    expect(low.json()).toMatchObject({ success: false });
    expect(low.json().message).toContain('信任等级');
    const good = await callback('linuxdo', 'ld-good');
    expect(good.json()).toMatchObject({ success: true, data: { display_name: 'Regular' } });
  });
});

describe('WeChat', () => {
  it('logs in with a fresh code, rejects an expired one, binds with a session', async () => {
    fake.wechatCodes.set('fresh1', ['openid-a', Date.now()]);
    fake.wechatCodes.set('stale1', ['openid-b', Date.now() - 4 * 60_000]);
    const ok = await t.app.inject({ method: 'GET', url: '/api/oauth/wechat?code=fresh1', remoteAddress: randomIp() });
    expect(ok.json()).toMatchObject({ success: true });
    expect((ok.json().data as { username: string }).username).toMatch(/^wechat_\d+$/);
    const stale = await t.app.inject({
      method: 'GET',
      url: '/api/oauth/wechat?code=stale1',
      remoteAddress: randomIp(),
    });
    expect(stale.json()).toMatchObject({ success: false, message: '验证码错误或已过期' });

    // A first sign-in from an invite link credits the inviter.
    const inviter = await loginAs(t);
    const { aff_code } = await t.deps.db
      .selectFrom('users')
      .select('aff_code')
      .where('id', '=', inviter.user.id)
      .executeTakeFirstOrThrow();
    fake.wechatCodes.set('fresh3', ['openid-d', Date.now()]);
    const invited = await t.app.inject({
      method: 'GET',
      url: `/api/oauth/wechat?code=fresh3&aff=${aff_code}`,
      remoteAddress: randomIp(),
    });
    const invitedId = (invited.json().data as { id: number }).id;
    const invitedRow = await t.deps.db
      .selectFrom('users')
      .select('inviter_id')
      .where('id', '=', invitedId)
      .executeTakeFirstOrThrow();
    expect(invitedRow.inviter_id).toBe(inviter.user.id);

    const { user, headers } = await loginAs(t);
    fake.wechatCodes.set('fresh2', ['openid-c', Date.now()]);
    const bind = await t.app.inject({ method: 'GET', url: '/api/oauth/wechat/bind?code=fresh2', headers });
    expect(bind.json()).toMatchObject({ success: true });
    const row = await t.deps.db
      .selectFrom('users')
      .select('wechat_id')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.wechat_id).toBe('openid-c');
  });
});

/** What Telegram's login widget hands the page: the fields and their HMAC. */
function widgetPayload(fields: Record<string, string>, token = BOT_TOKEN): string {
  const check = Object.entries(fields)
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join('\n');
  const hash = createHmac('sha256', createHash('sha256').update(token).digest()).update(check).digest('hex');
  return new URLSearchParams({ ...fields, hash }).toString();
}

describe('Telegram', () => {
  it('binds (302 to /app/me), then logs in; refuses a wrong hash and a stale login', async () => {
    const { user, headers } = await loginAs(t);
    const fields = {
      id: '99001',
      first_name: 'Tele',
      username: 'tele',
      auth_date: String(Math.floor(Date.now() / 1000)),
    };
    const bind = await t.app.inject({
      method: 'GET',
      url: `/api/oauth/telegram/bind?${widgetPayload(fields)}`,
      headers,
    });
    expect(bind.statusCode).toBe(302);
    expect(bind.headers.location).toBe('/app/me');
    const login = await t.app.inject({
      method: 'GET',
      url: `/api/oauth/telegram/login?${widgetPayload(fields)}`,
      remoteAddress: randomIp(),
    });
    expect(login.json()).toMatchObject({ success: true, data: { id: user.id } });

    const forged = await t.app.inject({
      method: 'GET',
      url: `/api/oauth/telegram/login?${widgetPayload(fields, '999:someone-elses-bot')}`,
      remoteAddress: randomIp(),
    });
    expect(forged.json()).toMatchObject({ success: false, message: 'Telegram 校验失败' });
    const old = { ...fields, auth_date: String(Math.floor(Date.now() / 1000) - 3 * 86400) };
    const stale = await t.app.inject({
      method: 'GET',
      url: `/api/oauth/telegram/login?${widgetPayload(old)}`,
      remoteAddress: randomIp(),
    });
    expect(stale.json()).toMatchObject({ success: false });
    // Unknown Telegram accounts are not signed up.
    const stranger = { ...fields, id: '99002' };
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/oauth/telegram/login?${widgetPayload(stranger)}` })).json(),
    ).toMatchObject({ success: false });
  });
});

describe('Turnstile', () => {
  it('needs a verified token once, then the browser is remembered', async () => {
    const u = await createUser(t);
    await setOption(t, 'TurnstileSiteKey', 'site-key');
    await setOption(t, 'TurnstileSecretKey', TURNSTILE_SECRET);
    await setOption(t, 'TurnstileCheckEnabled', 'true');
    const login = (query: string, cookie = '') =>
      t.app.inject({
        method: 'POST',
        url: `/api/user/login${query}`,
        payload: { username: u.username, password: u.password },
        headers: { cookie },
        remoteAddress: randomIp(),
      });
    expect((await login('')).json()).toMatchObject({ success: false, message: 'Turnstile token 为空' });
    expect((await login('?turnstile=robot')).json()).toMatchObject({ success: false });
    const ok = await login('?turnstile=human-ok');
    expect(ok.json()).toMatchObject({ success: true });
    const human = cookiesOf(ok.headers['set-cookie'])
      .split('; ')
      .filter((c) => c.startsWith('human='))
      .join('');
    expect(human).not.toBe('');
    expect((await login('', human)).json()).toMatchObject({ success: true });
    const mail = await t.app.inject({
      method: 'GET',
      url: '/api/verification?email=x@example.com',
      remoteAddress: randomIp(),
    });
    expect(mail.json()).toMatchObject({ success: false, message: 'Turnstile token 为空' });
    await setOption(t, 'TurnstileCheckEnabled', 'false');
  });

  it('tRPC auth.login (the login page) takes the token with the credentials', async () => {
    const u = await createUser(t);
    await setOption(t, 'TurnstileSiteKey', 'site-key');
    await setOption(t, 'TurnstileSecretKey', TURNSTILE_SECRET);
    await setOption(t, 'TurnstileCheckEnabled', 'true');
    const login = (turnstile?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/trpc/auth.login',
        payload: { username: u.username, password: u.password, turnstile },
        remoteAddress: randomIp(),
      });
    const none = await login();
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toBe('Turnstile token 为空');
    expect((await login('robot')).statusCode).toBe(400);
    const ok = await login('human-ok');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().result.data).toMatchObject({ id: u.id, username: u.username });
    const cookies = cookiesOf(ok.headers['set-cookie']);
    expect(cookies).toMatch(/(^|; )session=/);
    expect(cookies).toMatch(/(^|; )human=/);
    await setOption(t, 'TurnstileCheckEnabled', 'false');
  });

  it('tRPC auth.register (the sign-up page) takes the token with the form', async () => {
    await setOption(t, 'TurnstileSiteKey', 'site-key');
    await setOption(t, 'TurnstileSecretKey', TURNSTILE_SECRET);
    await setOption(t, 'TurnstileCheckEnabled', 'true');
    const register = (username: string, turnstile?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/trpc/auth.register',
        payload: { username, password: 'new-user-pw-1', password2: 'new-user-pw-1', turnstile },
        remoteAddress: randomIp(),
      });
    const none = await register('human_none');
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toBe('Turnstile token 为空');
    expect((await register('human_robot', 'robot')).statusCode).toBe(400);
    expect((await register('human_ok', 'human-ok')).statusCode).toBe(200);
    // Only the verified call made an account: the refused names are still free.
    const login = async (username: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/user/login',
          payload: { username, password: 'new-user-pw-1' },
          remoteAddress: randomIp(),
        })
      ).json().success;
    await setOption(t, 'TurnstileCheckEnabled', 'false');
    expect(await login('human_ok')).toBe(true);
    expect(await login('human_none')).toBe(false);
    expect(await login('human_robot')).toBe(false);
  });
});
