import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../shared/constants.ts';
import { softAuthenticator } from '../../server/domains/passkeys/passkeys.fixtures.ts';
import { createTestApp, type TestApp } from '../app.ts';
import { listen } from '../legacy-console/console-client.ts';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';

/*
 * Today's new-api console signing in with a passkey, over loopback HTTP, each call built as its source builds
 * it: web/classic/src/components/auth/LoginForm.jsx (handlePasskeyLogin: POST login/begin, its
 * `data.options.publicKey` through prepareCredentialRequestOptions to navigator.credentials.get, the
 * assertion from buildAssertionResult POSTed to login/finish, the answer's `data` kept as the user),
 * web/classic/src/components/settings/PersonalSetting.jsx (register begin/finish with buildRegistrationResult,
 * GET /api/user/passkey's `data.enabled` and `data.last_used_at`, DELETE /api/user/passkey),
 * web/classic/src/services/secureVerification.js (verify begin/finish) and the users table's
 * DELETE /api/user/:id/reset_passkey. navigator.credentials is a software authenticator with real ES256 keys
 * (server/domains/passkeys/passkeys.fixtures.ts); a browser keeps every cookie the server sets.
 */

type Envelope = { success?: boolean; message?: string; data?: Record<string, unknown> };

/** One browser tab of the console: its cookie jar, and `New-API-User` from the signed-in user (-1 before). */
class Browser {
  private cookies = new Map<string, string>();
  userId = -1;
  constructor(private readonly base: string) {}

  async send(method: string, url: string, body?: unknown): Promise<{ status: number; body: Envelope }> {
    const headers: Record<string, string> = { 'New-API-User': String(this.userId), 'Cache-Control': 'no-store' };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(this.base + url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
      if (value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Envelope };
  }

  async passwordLogin(username: string, password: string) {
    const r = await this.send('POST', '/api/user/login?turnstile=', { username, password });
    expect(r.body.success, r.body.message).toBe(true);
    this.userId = Number(r.body.data!.id);
    return this;
  }

  /** LoginForm's handlePasskeyLogin with this authenticator as navigator.credentials. */
  async passkeyLogin(auth: ReturnType<typeof softAuthenticator>, origin: string) {
    const begin = await this.send('POST', '/api/user/passkey/login/begin');
    if (!begin.body.success) return begin;
    const publicKey = (begin.body.data!.options as { publicKey: object }).publicKey;
    const finish = await this.send('POST', '/api/user/passkey/login/finish', auth.get(publicKey, origin));
    if (finish.body.success) this.userId = Number(finish.body.data!.id);
    return finish;
  }
}

let t: TestApp;
let base: string;
let root: Browser;
beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t);
  await setupRoot(t);
  root = await new Browser(base).passwordLogin(ROOT_USERNAME, ROOT_PASSWORD);
});
afterAll(() => t.close());

const setOption = async (key: string, value: string) =>
  expect((await root.send('PUT', '/api/option/', { key, value })).body.success).toBe(true);

describe('passkeys as new-api’s console uses them', () => {
  it('refuses every ceremony while the site has passkeys off, and says so in the status', async () => {
    const status = await new Browser(base).send('GET', '/api/status');
    expect(status.body.data).toMatchObject({ passkey_login: false, passkey_user_verification: 'preferred' });
    const begin = await new Browser(base).send('POST', '/api/user/passkey/login/begin');
    expect(begin).toEqual({ status: 200, body: { success: false, message: '管理员未启用 Passkey 登录' } });
  });

  it('registers, signs in with the passkey alone, verifies, removes; the status follows', async () => {
    await setOption('passkey.enabled', 'true');
    expect((await new Browser(base).send('GET', '/api/status')).body.data!.passkey_login).toBe(true);
    const u = await createUser(t);
    const tab = await new Browser(base).passwordLogin(u.username, u.password);
    const auth = softAuthenticator();

    // Not /api/user/:id ("id 必须是数字"): the passkey routes come first.
    expect((await tab.send('GET', '/api/user/passkey')).body).toEqual({
      success: true,
      message: '',
      data: { enabled: false },
    });

    const begin = await tab.send('POST', '/api/user/passkey/register/begin');
    const creation = (begin.body.data!.options as { publicKey: Record<string, unknown> }).publicKey;
    expect(creation).toMatchObject({ rp: { id: '127.0.0.1' }, user: { name: u.username } });
    const finish = await tab.send('POST', '/api/user/passkey/register/finish', auth.create(creation, base));
    expect(finish.body).toEqual({ success: true, message: 'Passkey 注册成功' });
    expect((await tab.send('GET', '/api/user/passkey')).body.data).toEqual({ enabled: true, last_used_at: null });

    // Sign out, then sign in with the passkey alone in a fresh tab: no username, no password.
    await tab.send('GET', '/api/user/logout');
    const fresh = new Browser(base);
    const signIn = await fresh.passkeyLogin(auth, base);
    expect(signIn.body).toMatchObject({ success: true, data: { id: u.id, username: u.username } });
    expect((await fresh.send('GET', '/api/user/self')).body.data).toMatchObject({ id: u.id });
    const status = (await fresh.send('GET', '/api/user/passkey')).body.data!;
    expect(Date.parse(String(status.last_used_at))).toBeGreaterThan(Date.now() - 60_000);

    // Secure verification of the signed-in user (secureVerification.js: begin, get, finish).
    const vBegin = await fresh.send('POST', '/api/user/passkey/verify/begin');
    const request = (vBegin.body.data!.options as { publicKey: Record<string, unknown> }).publicKey;
    expect(request.allowCredentials).toHaveLength(1);
    const vFinish = await fresh.send('POST', '/api/user/passkey/verify/finish', auth.get(request, base));
    expect(vFinish.body).toEqual({ success: true, message: 'Passkey 验证成功' });
    // Then POST /api/verify turns the fresh passkey check into a verified session, once.
    const verified = await fresh.send('POST', '/api/verify', { method: 'passkey' });
    expect(verified.body).toMatchObject({ success: true, data: { verified: true } });
    const again = await fresh.send('POST', '/api/verify', { method: 'passkey' });
    expect(again.body).toEqual({ success: false, message: 'Passkey 验证失败，请重试或联系管理员' });

    expect((await fresh.send('DELETE', '/api/user/passkey')).body).toEqual({
      success: true,
      message: 'Passkey 已解绑',
    });
    expect((await fresh.send('GET', '/api/user/passkey')).body.data).toEqual({ enabled: false });
    const after = await new Browser(base).passkeyLogin(auth, base);
    expect(after.body).toMatchObject({ success: false, message: 'Passkey 验证失败，请重试或联系管理员' });
  });

  it('a challenge is answered once, from the browser that asked for it', async () => {
    await setOption('passkey.enabled', 'true');
    const u = await createUser(t);
    const tab = await new Browser(base).passwordLogin(u.username, u.password);
    const auth = softAuthenticator();
    const begin = await tab.send('POST', '/api/user/passkey/register/begin');
    const creation = (begin.body.data!.options as { publicKey: object }).publicKey;
    await tab.send('POST', '/api/user/passkey/register/finish', auth.create(creation, base));

    const asker = new Browser(base);
    const options = await asker.send('POST', '/api/user/passkey/login/begin');
    const assertion = auth.get((options.body.data!.options as { publicKey: object }).publicKey, base);
    // Another browser (no flow cookie of the asker) cannot use the asker's challenge.
    const thief = await new Browser(base).send('POST', '/api/user/passkey/login/finish', assertion);
    expect(thief.body).toEqual({ success: false, message: 'Passkey 验证已过期或未开始，请重试' });
    const ok = await asker.send('POST', '/api/user/passkey/login/finish', assertion);
    expect(ok.body.success).toBe(true);
    const replay = await asker.send('POST', '/api/user/passkey/login/finish', assertion);
    expect(replay.body).toEqual({ success: false, message: 'Passkey 验证已过期或未开始，请重试' });
    // The finish calls take the credential JSON: anything else is a plain refusal.
    const junk = await asker.send('POST', '/api/user/passkey/login/finish', { id: 'x' });
    expect(junk.body.success).toBe(false);
  });

  it('a disabled user cannot sign in by passkey; signing up for one needs a session', async () => {
    await setOption('passkey.enabled', 'true');
    const u = await createUser(t);
    const tab = await new Browser(base).passwordLogin(u.username, u.password);
    const auth = softAuthenticator();
    const creation = (
      (await tab.send('POST', '/api/user/passkey/register/begin')).body.data!.options as { publicKey: object }
    ).publicKey;
    await tab.send('POST', '/api/user/passkey/register/finish', auth.create(creation, base));
    expect((await root.send('POST', '/api/user/manage', { id: u.id, action: 'disable' })).body.success).toBe(true);
    const refused = await new Browser(base).passkeyLogin(auth, base);
    expect(refused.body).toEqual({ success: false, message: '用户已被封禁' });
    expect((await new Browser(base).send('POST', '/api/user/passkey/register/begin')).status).toBe(401);
  });

  it('an admin resets a common user’s passkey, not another admin’s', async () => {
    await setOption('passkey.enabled', 'true');
    const admin = await createUser(t, { role: Role.Admin });
    const adminTab = await new Browser(base).passwordLogin(admin.username, admin.password);
    const withKey = async (role: number) => {
      const u = await createUser(t, { role });
      const tab = await new Browser(base).passwordLogin(u.username, u.password);
      const creation = (
        (await tab.send('POST', '/api/user/passkey/register/begin')).body.data!.options as { publicKey: object }
      ).publicKey;
      await tab.send('POST', '/api/user/passkey/register/finish', softAuthenticator().create(creation, base));
      return u;
    };
    const common = await withKey(Role.Common);
    const otherAdmin = await withKey(Role.Admin);
    const denied = await adminTab.send('DELETE', `/api/user/${otherAdmin.id}/reset_passkey`);
    expect(denied.body).toEqual({ success: false, message: '无权操作同权限等级或更高权限等级的用户' });
    const reset = await adminTab.send('DELETE', `/api/user/${common.id}/reset_passkey`);
    expect(reset.body).toEqual({ success: true, message: 'Passkey 已重置' });
    const again = await adminTab.send('DELETE', `/api/user/${common.id}/reset_passkey`);
    expect(again.body).toEqual({ success: false, message: '该用户尚未绑定 Passkey' });
  });
});
