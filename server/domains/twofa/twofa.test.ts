import bcrypt from 'bcryptjs';
import { generate } from 'otplib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { expectRefused } from '../../../test/rest-answers.ts';
import { createUser, login, loginAs, randomIp, restHeaders, setupRoot } from '../../../test/users.ts';

/*
 * Two-factor rules through the REST adapter, as new-api's console calls them: setup, enable with a code,
 * a code per 30-second step used once, backup codes used once, the lock after five wrong codes, turning
 * it off, and the admin's reset (never on the same or a higher role). Date is faked (only Date), so a
 * test moves to the next time step instead of waiting for it.
 */

const WRONG = '验证码或备用码错误，请重试';
const REUSED = '该验证码已经使用过，请等待认证器显示下一个验证码';

describe('two-factor rules', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await setupRoot(t);
  });
  afterAll(() => t.close());
  afterEach(() => vi.useRealTimers());

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url, headers, payload, remoteAddress: randomIp() });
  /** The code an authenticator app shows now (or `stepsAhead` steps later: still inside the window). */
  const codeFor = (secret: string, stepsAhead = 0) =>
    generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });
  const nextStep = () => vi.setSystemTime(Date.now() + 30_000);

  /** A user with two-factor on: its headers, secret and backup codes. */
  async function withTwoFactor(role: number = Role.Common) {
    const { user, headers } = await loginAs(t, role);
    const setup = (await call('POST', '/api/user/2fa/setup', headers)).json();
    expect(setup.success).toBe(true);
    const { secret, backup_codes } = setup.data as { secret: string; backup_codes: string[] };
    const enabled = await call('POST', '/api/user/2fa/enable', headers, { code: await codeFor(secret) });
    expect(enabled.json()).toMatchObject({ success: true, message: '两步验证启用成功' });
    return { user, headers, secret, backupCodes: backup_codes };
  }

  it('sets up with a secret, an otpauth URL and eight backup codes, and is on only after a right code', async () => {
    const { user, headers } = await loginAs(t);
    expect((await call('GET', '/api/user/2fa/status', headers)).json().data).toEqual({ enabled: false, locked: false });
    const setup = (await call('POST', '/api/user/2fa/setup', headers)).json().data;
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.qr_code_data).toMatch(
      /^otpauth:\/\/totp\/Switchyard:.*\?secret=[A-Z2-7]{32}&issuer=Switchyard&digits=6&period=30$/,
    );
    expect(setup.qr_code_data).toContain(encodeURIComponent(`${user.username} (Switchyard)`));
    expect(setup.backup_codes).toHaveLength(8);
    for (const c of setup.backup_codes) expect(c).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);

    expectRefused(await call('POST', '/api/user/2fa/enable', headers, { code: '000000' }), WRONG);
    expect((await call('GET', '/api/user/2fa/status', headers)).json().data.enabled).toBe(false);
    await call('POST', '/api/user/2fa/enable', headers, { code: await codeFor(setup.secret) });
    expect((await call('GET', '/api/user/2fa/status', headers)).json().data).toEqual({
      enabled: true,
      locked: false,
      backup_codes_remaining: 8,
    });
    // A second setup while on is refused; the secret is never shown again, nor stored readable.
    expectRefused(await call('POST', '/api/user/2fa/setup', headers), '用户已启用2FA，请先禁用后重新设置');
    const row = await t.deps.db
      .selectFrom('two_fa')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(setup.secret);
    const hashes = await t.deps.db
      .selectFrom('two_fa_backup_codes')
      .select('code_hash')
      .where('user_id', '=', user.id)
      .execute();
    for (const { code_hash } of hashes)
      for (const c of setup.backup_codes) expect(code_hash).not.toContain(c.replace('-', ''));
  });

  it('accepts a code once per time step: the same code again is refused, the next step works', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { user, secret } = await withTwoFactor();
    nextStep();
    const code = await codeFor(secret);
    await expect(t.deps.services.twoFactor.verify(user.id, code)).resolves.toBe('totp');
    await expect(t.deps.services.twoFactor.verify(user.id, code)).rejects.toThrow(REUSED);
    nextStep();
    await expect(t.deps.services.twoFactor.verify(user.id, await codeFor(secret))).resolves.toBe('totp');
  });

  it('tells a sign-in whose code was already used to wait for the next one, without counting it as a wrong code', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { user, secret } = await withTwoFactor();
    const ip = randomIp();
    /** The password step in a new browser: its pending-sign-in cookie. */
    const passwordStep = async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/user/login',
        payload: { username: user.username, password: user.password },
        remoteAddress: ip,
      });
      expect(res.json().data).toMatchObject({ require_2fa: true });
      return String(res.headers['set-cookie']).split(';')[0];
    };
    const secondStep = (cookie: string, code: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/login/2fa',
        headers: { cookie },
        payload: { code },
        remoteAddress: ip,
      });

    nextStep();
    const code = await codeFor(secret);
    const first = await secondStep(await passwordStep(), code);
    expect(first.json()).toMatchObject({ success: true, data: { id: user.id } });
    // Another browser, the same 30 seconds, the code still on the phone: told why, not "wrong code".
    const other = await passwordStep();
    for (let i = 0; i < 6; i++)
      expect((await secondStep(other, code)).json()).toEqual({ success: false, message: REUSED });
    // A typo is still a wrong code.
    expect((await secondStep(other, '000000')).json()).toEqual({ success: false, message: WRONG });
    // Six reuses and one typo lock nothing (five wrong codes would): the next code signs in.
    nextStep();
    const next = await secondStep(other, await codeFor(secret));
    expect(next.json()).toMatchObject({ success: true, data: { id: user.id } });
    expect(String(next.headers['set-cookie'])).toMatch(/session=/);
  });

  it('takes each backup code once, in any case and with or without the dash', async () => {
    const { user, headers, backupCodes } = await withTwoFactor();
    const typed = backupCodes[0].replace('-', '').toLowerCase();
    await expect(t.deps.services.twoFactor.verify(user.id, typed)).resolves.toBe('backup');
    await expect(t.deps.services.twoFactor.verify(user.id, backupCodes[0])).rejects.toThrow(WRONG);
    expect((await call('GET', '/api/user/2fa/status', headers)).json().data.backup_codes_remaining).toBe(7);
    await expect(t.deps.services.twoFactor.verify(user.id, backupCodes[1])).resolves.toBe('backup');
  });

  it("takes a backup code brought from new-api (a bcrypt hash of XXXX-XXXX) once, beside the user's own", async () => {
    const { user, headers, backupCodes } = await withTwoFactor();
    // As new-api's importer leaves them (issue 42): its bcrypt hash of the capitalised, dashed code.
    await t.deps.db
      .insertInto('two_fa_backup_codes')
      .values({ user_id: user.id, code_hash: await bcrypt.hash('AB12-CD34', 4), created_at: 1 })
      .execute();
    expect((await call('GET', '/api/user/2fa/status', headers)).json().data.backup_codes_remaining).toBe(9);
    await expect(t.deps.services.twoFactor.verify(user.id, 'ab12cd34')).resolves.toBe('backup');
    await expect(t.deps.services.twoFactor.verify(user.id, 'AB12-CD34')).rejects.toThrow(WRONG);
    await expect(t.deps.services.twoFactor.verify(user.id, 'AB12-CD35')).rejects.toThrow(WRONG);
    await expect(t.deps.services.twoFactor.verify(user.id, backupCodes[2])).resolves.toBe('backup');
    expect((await call('GET', '/api/user/2fa/status', headers)).json().data.backup_codes_remaining).toBe(7);
  });

  it('locks the second step for five minutes after five wrong codes, even against a right one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { user, headers, secret } = await withTwoFactor();
    for (let i = 0; i < 5; i++)
      await expect(t.deps.services.twoFactor.verify(user.id, '000000')).rejects.toThrow(WRONG);
    nextStep();
    await expect(t.deps.services.twoFactor.verify(user.id, await codeFor(secret))).rejects.toThrow(
      '验证失败次数过多，请在 5 分钟后重试',
    );
    expect((await call('GET', '/api/user/2fa/status', headers)).json().data.locked).toBe(true);
    vi.setSystemTime(Date.now() + 300_000);
    await expect(t.deps.services.twoFactor.verify(user.id, await codeFor(secret))).resolves.toBe('totp');
  });

  it('renews backup codes against a TOTP code: the old ones stop working', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { user, headers, secret, backupCodes } = await withTwoFactor();
    nextStep();
    expectRefused(await call('POST', '/api/user/2fa/backup_codes', headers, { code: backupCodes[0] }));
    const renewed = (await call('POST', '/api/user/2fa/backup_codes', headers, { code: await codeFor(secret) })).json();
    expect(renewed).toMatchObject({ success: true, message: '备用码重新生成成功' });
    expect(renewed.data.backup_codes).toHaveLength(8);
    await expect(t.deps.services.twoFactor.verify(user.id, backupCodes[2])).rejects.toThrow(WRONG);
    await expect(t.deps.services.twoFactor.verify(user.id, renewed.data.backup_codes[0])).resolves.toBe('backup');
  });

  it('turns off with a backup code; a password alone then signs in again', async () => {
    const { user, headers, backupCodes } = await withTwoFactor();
    expectRefused(await call('POST', '/api/user/2fa/disable', headers, { code: '123456' }), WRONG);
    const off = await call('POST', '/api/user/2fa/disable', headers, { code: backupCodes[3] });
    expect(off.json()).toEqual({ success: true, message: '两步验证已禁用' });
    expect((await call('GET', '/api/user/2fa/status', headers)).json().data).toEqual({ enabled: false, locked: false });
    expect((await login(t, user.username, 'Passw0rd!')).userId).toBe(user.id);
  });

  it('lets an admin reset a common user (ending their sessions), never an equal or higher role', async () => {
    const target = await withTwoFactor();
    const otherAdmin = await withTwoFactor(Role.Admin);
    const admin = await loginAs(t, Role.Admin);
    const root = await login(t, 'root', 'RootPass123!');
    const outranked = '无权操作同级或更高级用户的2FA设置';
    expectRefused(await call('DELETE', `/api/user/${otherAdmin.user.id}/2fa`, admin.headers), outranked);
    expectRefused(await call('DELETE', `/api/user/${root.userId}/2fa`, admin.headers), outranked);
    expectRefused(await call('DELETE', `/api/user/${target.user.id}/2fa`, target.headers));

    const reset = await call('DELETE', `/api/user/${target.user.id}/2fa`, admin.headers);
    expect(reset.json()).toEqual({ success: true, message: '用户2FA已被强制禁用' });
    expect((await call('GET', '/api/user/self', target.headers)).statusCode).toBe(401);
    expectRefused(await call('DELETE', `/api/user/${target.user.id}/2fa`, admin.headers), '用户未启用2FA');
    // Root may reset an admin.
    const byRoot = await call('DELETE', `/api/user/${otherAdmin.user.id}/2fa`, restHeaders(root));
    expect(byRoot.json().success).toBe(true);

    const stats = (await call('GET', '/api/user/2fa/stats', admin.headers)).json().data;
    expect(stats).toMatchObject({ total_users: expect.any(Number), enabled_users: expect.any(Number) });
    expect(stats.enabled_rate).toMatch(/^\d+\.\d%$/);
    expectRefused(await call('GET', '/api/user/2fa/stats', (await loginAs(t)).headers));
  });

  it('keeps /api/user/2fa/* apart from /api/user/:id', async () => {
    const admin = await loginAs(t, Role.Admin);
    const other = await createUser(t);
    const status = (await call('GET', '/api/user/2fa/status', admin.headers)).json();
    expect(status).toEqual({ success: true, message: '', data: { enabled: false, locked: false } });
    expect((await call('GET', `/api/user/${other.id}`, admin.headers)).json().data.id).toBe(other.id);
  });
});
