import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupCodeOf } from '../../server/domains/users/setup-code.rules.ts';
import { SIGN_IN_LIMITS } from '../../server/domains/auth/sign-in-limits.service.ts';
import { createUser, randomIp } from '../users.ts';
import { type Gateway, launchChromium, openSession, type Session, startGateway } from './harness.ts';
import { overflowing } from './layout-checks.ts';

/*
 * Issue 39 in the console: the setup page of a fresh instance reached from another machine asks for the
 * setup code printed in the server log (refusing none and a wrong one, in the field), and the sign-in page
 * of a locked account says when to try again. Reached "from another machine": the browser's requests
 * carry X-Forwarded-For, as through a reverse proxy, which the server never counts as on the server itself.
 * Pictures at 1366 and 390 px, light and dark, go to /work/notes/shots/signin-setup for review.
 */

const SHOTS = process.env.SHOTS_DIR ?? '/work/notes/shots/signin-setup';
const ROOT = { username: 'root', password: 'root-password-1' };
const VIEWS = [
  { width: 1366, theme: 'light' },
  { width: 390, theme: 'dark' },
  { width: 390, theme: 'light' },
  { width: 1366, theme: 'dark' },
] as const;

describe('setup code and sign-in lock in a browser', () => {
  let gateway: Gateway;
  let browser: Browser;
  const sessions: Session[] = [];

  const remote = async (opts: Parameters<typeof openSession>[2] = {}) => {
    const s = await openSession(browser, gateway.baseUrl, opts);
    await s.context.setExtraHTTPHeaders({ 'x-forwarded-for': '198.51.100.20' });
    sessions.push(s);
    return s;
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    gateway = await startGateway();
    browser = await launchChromium();
  });
  afterAll(async () => {
    for (const s of sessions) expect(s.errors).toEqual([]);
    await browser?.close();
    await gateway?.close();
  });

  it('shows no code field to a browser on the server itself', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    sessions.push(s);
    await s.page.goto('/setup');
    await s.page.getByRole('heading', { name: 'Set up Switchyard' }).waitFor();
    expect(await s.page.getByTestId('setup-code').count()).toBe(0);
  });

  it('asks a remote browser for the setup code and says where to find it, at every width', async () => {
    for (const v of VIEWS) {
      const s = await remote({ width: v.width, theme: v.theme });
      await s.page.goto('/setup');
      const field = s.page.getByTestId('setup-code');
      await field.waitFor();
      await expect(field.textContent()).resolves.toContain('setup code:');
      await expect(field.textContent()).resolves.toContain('docker logs switchyard');
      expect(await overflowing(s.page)).toEqual([]);
      await s.page.screenshot({ path: `${SHOTS}/setup-code-${v.width}-${v.theme}.png`, fullPage: true });
    }
    const zh = await remote({ width: 390, lang: 'zh' });
    await zh.page.goto('/setup');
    await zh.page.getByText('初始化码', { exact: true }).first().waitFor();
    await zh.page.screenshot({ path: `${SHOTS}/setup-code-390-zh.png`, fullPage: true });
  });

  it('refuses no code and a wrong one in the field, and sets up with the right one', async () => {
    const s = await remote();
    await s.page.goto('/setup');
    await s.page.getByLabel('Username').fill(ROOT.username);
    await s.page.getByLabel('Password', { exact: true }).fill(ROOT.password);
    await s.page.getByLabel('Confirm password').fill(ROOT.password);
    const submit = s.page.getByRole('button', { name: 'Initialise system' });
    await submit.click();
    await s.page
      .getByTestId('setup-code')
      .getByText('Enter the setup code: it is printed in the server log at start', { exact: false })
      .waitFor();

    const code = s.page.getByRole('textbox', { name: 'Setup code' });
    await code.fill('ABCD-EFGH');
    await submit.click();
    await s.page.getByTestId('setup-code').getByText('Wrong setup code').waitFor();
    await s.page.screenshot({ path: `${SHOTS}/setup-code-wrong-1366.png`, fullPage: true });
    expect(await gateway.test.deps.db.selectFrom('users').select('id').execute()).toEqual([]);

    await code.fill(setupCodeOf(gateway.test.deps.config.sessionSecret).toLowerCase());
    await submit.click();
    await s.page.getByText('System initialised').waitFor();
    await s.page.waitForURL((url) => url.pathname === '/admin/channels', { timeout: 10_000 });
  });

  it('tells a locked account on the sign-in page when to try again', async () => {
    const u = await createUser(gateway.test);
    for (let i = 0; i < SIGN_IN_LIMITS.account.failures; i++)
      await gateway.test.app.inject({
        method: 'POST',
        url: '/api/user/login',
        payload: { username: u.username, password: `wrong-${i}` },
        remoteAddress: randomIp(),
      });
    for (const v of [...VIEWS, { width: 390, theme: 'light', lang: 'zh' } as const]) {
      const lang = 'lang' in v ? v.lang : 'en';
      const s = await remote({ width: v.width, theme: v.theme, lang });
      await s.page.goto('/login');
      await s.page.getByLabel(lang === 'zh' ? '用户名或邮箱' : 'Username or e-mail').fill(u.username);
      await s.page.getByLabel(lang === 'zh' ? '密码' : 'Password', { exact: true }).fill(u.password);
      await s.page
        .getByRole('button', { name: lang === 'zh' ? '登录' : 'Log in', exact: true })
        .last()
        .click();
      const locked = s.page.getByTestId('sign-in-locked');
      await locked.waitFor();
      await expect(locked.textContent()).resolves.toBe(
        lang === 'zh' ? '登录尝试次数过多，请在 15 分钟后重试' : 'Too many attempts, try again in 15 min',
      );
      expect(s.page.url()).toContain('/login');
      expect(await overflowing(s.page)).toEqual([]);
      await s.page.screenshot({ path: `${SHOTS}/sign-in-locked-${v.width}-${v.theme}-${lang}.png`, fullPage: true });
    }
  });
});
