import { randomInt } from 'node:crypto';
import { generate } from 'otplib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../app.ts';
import { listen } from '../legacy-console/console-client.ts';
import { insertChannel } from '../relay-fixtures.ts';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';

/*
 * Today's new-api console (classic UI) on two-factor sign-in, over HTTP, each call built as its source
 * builds it and each answer read the way it reads it:
 * - Personal settings › two-factor card (controller/twofa.go's handlers): GET /api/user/2fa/status reads
 *   `data.enabled` / `data.backup_codes_remaining`; POST /api/user/2fa/setup (no body) reads
 *   `data.secret`, `data.qr_code_data`, `data.backup_codes`; enable / disable / backup_codes POST {code};
 * - web/classic/src/components/auth/LoginForm.jsx: POST /api/user/login?turnstile= {username, password};
 *   `data.require_2fa` switches to the code form (TwoFAVerification.jsx), which POSTs
 *   /api/user/login/2fa {code} (a 6-digit code, or an 8-character backup code) and stores `data` as the user;
 * - web/classic/src/services/secureVerification.js: POST /api/verify {method: '2fa', code}, then
 *   POST /api/channel/:id/key {} reads `data.key`.
 * The browser keeps every cookie it is given, so this client does too.
 */

type Envelope<T = Record<string, unknown>> = { success?: boolean; message?: string; data?: T; code?: string };

/** The console's axios instance with a browser's cookie jar: every cookie set is sent back. */
class Browser {
  private jar = new Map<string, string>();
  userId = -1;
  constructor(private readonly base: string) {}

  async send(method: string, url: string, body?: unknown) {
    const headers: Record<string, string> = {
      'New-API-User': String(this.userId),
      'Cache-Control': 'no-store',
      'x-forwarded-for': `10.${randomInt(1, 250)}.${randomInt(1, 250)}.${randomInt(1, 250)}`,
    };
    if (this.jar.size) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(this.base + url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      const expired = value === '' || attrs.some((a) => /max-age=0\b/i.test(a) || /expires=Thu, 01 Jan 1970/i.test(a));
      if (expired) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return {
      status: res.status,
      body: (await res.json().catch(() => ({}))) as Envelope,
      cookies: res.headers.getSetCookie(),
    };
  }
  get = (url: string) => this.send('GET', url);
  post = (url: string, body?: unknown) => this.send('POST', url, body);
  hasSession = () => this.jar.has('session');
}

let t: TestApp;
let base: string;
const codeNow = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) });
const nextStep = () => vi.setSystemTime(Date.now() + 30_000);

beforeAll(async () => {
  // Behind a trusted proxy, so each call's X-Forwarded-For is its address: the per-IP sign-in limit meant
  // for one browser is not tripped by a suite of sign-ins.
  t = await createTestApp({ trustProxy: true });
  base = await listen(t);
  await setupRoot(t);
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

/** Signs in with the password the way LoginForm does; answers the login call's body. */
async function passwordLogin(b: Browser, username: string, password: string) {
  const res = await b.post('/api/user/login?turnstile=', { username, password });
  if (res.body.success && res.body.data && !res.body.data.require_2fa) b.userId = Number(res.body.data.id);
  return res;
}

/** Personal settings: setup, then enable with the app's code; answers the secret and backup codes. */
async function turnOn(b: Browser) {
  const setup = await b.post('/api/user/2fa/setup');
  expect(setup.body.success).toBe(true);
  const { secret, qr_code_data, backup_codes } = setup.body.data as {
    secret: string;
    qr_code_data: string;
    backup_codes: string[];
  };
  expect(qr_code_data).toContain(`secret=${secret}`);
  const enabled = await b.post('/api/user/2fa/enable', { code: await codeNow(secret) });
  expect(enabled.body).toMatchObject({ success: true });
  return { secret, backupCodes: backup_codes };
}

describe('two-factor sign-in as the 2026 console drives it', () => {
  it('setup → enable → logout → password asks for the code, no session → wrong code refused → code signs in → backup code once', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const u = await createUser(t);
    const b = new Browser(base);
    await passwordLogin(b, u.username, u.password);
    expect((await b.get('/api/user/2fa/status')).body.data).toEqual({ enabled: false, locked: false });
    const { secret, backupCodes } = await turnOn(b);
    expect((await b.get('/api/user/2fa/status')).body.data).toMatchObject({ enabled: true, backup_codes_remaining: 8 });
    await b.get('/api/user/logout');
    b.userId = -1;
    expect(b.hasSession()).toBe(false);

    // The password alone: success with require_2fa, no user, and no session anywhere.
    const first = await passwordLogin(b, u.username, u.password);
    expect(first.body).toMatchObject({ success: true, message: '请输入两步验证码', data: { require_2fa: true } });
    expect(first.body.data).not.toHaveProperty('id');
    expect(first.cookies.some((c) => c.startsWith('session='))).toBe(false);
    expect(b.hasSession()).toBe(false);
    b.userId = u.id; // even claiming the id, nothing opens
    expect((await b.get('/api/user/self')).status).toBe(401);

    // TwoFAVerification: a wrong code is refused and signs nobody in; the right one answers the user.
    const wrong = await b.post('/api/user/login/2fa', { code: '000000' });
    expect(wrong.body).toEqual({ success: false, message: '验证码或备用码错误，请重试' });
    expect(b.hasSession()).toBe(false);
    nextStep();
    const right = await b.post('/api/user/login/2fa', { code: await codeNow(secret) });
    expect(right.body).toMatchObject({ success: true, data: { id: u.id, username: u.username } });
    expect(b.hasSession()).toBe(true);
    expect((await b.get('/api/user/self')).body).toMatchObject({ success: true, data: { id: u.id } });
    // The pending sign-in was used up: the same step again is refused.
    expect((await b.post('/api/user/login/2fa', { code: '000000' })).body.message).toBe('会话已过期，请重新登录');

    // Another browser: a backup code (typed without the dash, as the console's 8-character field wants) once.
    const other = new Browser(base);
    await passwordLogin(other, u.username, u.password);
    const typed = backupCodes[0].replace('-', '');
    const byBackup = await other.post('/api/user/login/2fa', { code: typed });
    expect(byBackup.body).toMatchObject({ success: true, data: { id: u.id } });
    const third = new Browser(base);
    await passwordLogin(third, u.username, u.password);
    expect((await third.post('/api/user/login/2fa', { code: typed })).body.success).toBe(false);
    expect(third.hasSession()).toBe(false);
    expect((await b.get('/api/user/2fa/status')).body.data).toMatchObject({ backup_codes_remaining: 7 });
  });

  it('a second step started in one browser cannot be finished in another', async () => {
    const u = await createUser(t);
    const b = new Browser(base);
    await passwordLogin(b, u.username, u.password);
    const { secret } = await turnOn(b);
    const a = new Browser(base);
    const started = await passwordLogin(a, u.username, u.password);
    expect(started.body.data, JSON.stringify(started.body)).toMatchObject({ require_2fa: true });
    const stranger = new Browser(base);
    vi.useFakeTimers({ toFake: ['Date'] });
    nextStep();
    const res = await stranger.post('/api/user/login/2fa', { code: await codeNow(secret) });
    expect(res.body).toEqual({ success: false, message: '会话已过期，请重新登录' });
    expect(stranger.hasSession()).toBe(false);
  });

  it("root views a channel's key only after POST /api/verify with a code (HTTP 403 VERIFICATION_REQUIRED before)", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const channelId = await insertChannel(t.deps, {
      name: 'multi',
      baseUrl: 'http://127.0.0.1:9',
      models: ['gpt-4o'],
      key: 'sk-first\nsk-second',
    });
    const b = new Browser(base);
    await passwordLogin(b, ROOT_USERNAME, ROOT_PASSWORD);
    const before = await b.post(`/api/channel/${channelId}/key`, {});
    expect(before.status, JSON.stringify(before.body)).toBe(403);
    expect(before.body).toMatchObject({ success: false, code: 'VERIFICATION_REQUIRED' });

    // Without two-factor on, the 2fa method has nothing to check against.
    expect((await b.post('/api/verify', { method: '2fa', code: '123456' })).body).toEqual({
      success: false,
      message: '用户未启用2FA',
    });
    const { secret } = await turnOn(b);
    expect((await b.post('/api/verify', { method: '2fa', code: '000000' })).body.success).toBe(false);
    expect((await b.post(`/api/channel/${channelId}/key`, {})).status).toBe(403);
    nextStep();
    const verified = await b.post('/api/verify', { method: '2fa', code: await codeNow(secret) });
    expect(verified.body).toMatchObject({ success: true, message: '验证成功', data: { verified: true } });
    const shown = await b.post(`/api/channel/${channelId}/key`, {});
    // A multi-key channel's keys come as stored: all of them, one a line.
    expect(shown.body).toEqual({ success: true, message: '获取成功', data: { key: 'sk-first\nsk-second' } });

    // Five minutes later the check has lapsed.
    vi.setSystemTime(Date.now() + 301_000);
    expect((await b.post(`/api/channel/${channelId}/key`, {})).status).toBe(403);
    // An admin below root never sees it, verified or not.
    const admin = await createUser(t, { role: 10 });
    const ab = new Browser(base);
    await passwordLogin(ab, admin.username, admin.password);
    expect((await ab.post(`/api/channel/${channelId}/key`, {})).body).toMatchObject({ success: false });
  });
});
