import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, setOption, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, startGateway } from './harness.ts';

/*
 * Accounts spec: the register page offers the enabled third-party sign-up buttons even when
 * password registration is closed (line 24), and a 401 from a console REST call ends the
 * stored session the way a tRPC UNAUTHORIZED does (line 91).
 */

const ALICE = { username: 'alice', password: 'alice-pass-1' };

describe('register page switches and the REST 401 rule in a browser', () => {
  let gateway: Gateway;
  let browser: Browser;

  beforeAll(async () => {
    [gateway, browser] = await Promise.all([startGateway(), launchChromium()]);
    const t = gateway.test;
    await setupRoot(t);
    await createUser(t, ALICE);
    await setOption(t, 'GitHubClientId', 'gh-client');
    await setOption(t, 'GitHubClientSecret', 'gh-secret');
    await setOption(t, 'GitHubOAuthEnabled', 'true');
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('offers GitHub sign-up when registration is open but password registration is closed', async () => {
    await setOption(gateway.test, 'RegisterEnabled', 'true');
    await setOption(gateway.test, 'PasswordRegisterEnabled', 'false');
    const s = await openSession(browser, gateway.baseUrl);
    await s.page.goto('/register');
    const closed = s.page.getByTestId('password-register-closed');
    await expect(closed.innerText()).resolves.toBe(
      'The administrator has closed registration with a password. Sign up with one of the options below.',
    );
    await s.page.getByRole('button', { name: 'GitHub' }).waitFor();
    await expect(s.page.getByLabel('Username').count()).resolves.toBe(0);
    await expect(s.page.getByRole('button', { name: 'Register' }).count()).resolves.toBe(0);
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('shows the form and the button when both are open, and neither when registration is closed', async () => {
    await setOption(gateway.test, 'PasswordRegisterEnabled', 'true');
    const s = await openSession(browser, gateway.baseUrl);
    await s.page.goto('/register');
    await s.page.getByRole('button', { name: 'Register' }).waitFor();
    await s.page.getByRole('button', { name: 'GitHub' }).waitFor();

    await setOption(gateway.test, 'RegisterEnabled', 'false');
    await s.page.reload();
    await s.page.getByText('The administrator has closed registration.', { exact: true }).waitFor();
    await expect(s.page.getByRole('button', { name: 'GitHub' }).count()).resolves.toBe(0);
    await expect(s.page.getByRole('button', { name: 'Register' }).count()).resolves.toBe(0);
    await s.context.close();
  });

  it('sends a user whose session ended to the expired login when an e-mail bind gets a 401', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await logIn(s, ALICE);
    await s.page.goto('/app/me');
    const row = s.page.getByTestId('bind-email');
    await row.getByRole('button', { name: 'Bind' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Bind e-mail' });
    await dialog.getByLabel('E-mail').fill('alice@example.test');
    await dialog.getByLabel('Verification code').fill('123456');
    // The session ends on the server side (here: the cookie is gone) while the page still holds the user.
    await s.context.clearCookies();
    await dialog.getByRole('button', { name: 'Bind' }).click();
    // At once, from the bind call's own answer (the inbox's 30 s unread poll would find out too, later).
    await s.page.waitForURL((url) => url.pathname === '/login' && url.search === '?expired=true&returnTo=%2Fapp%2Fme', {
      timeout: 5_000,
    });
    await s.page.getByTestId('expired').waitFor();
    expect(await s.page.evaluate(() => localStorage.getItem('user'))).toBeNull();

    // Signing in again returns to the page the 401 interrupted.
    await s.page.getByLabel('Username or e-mail').fill(ALICE.username);
    await s.page.getByLabel('Password', { exact: true }).fill(ALICE.password);
    await s.page.getByRole('button', { name: 'Log in', exact: true }).last().click();
    await s.page.waitForURL('**/app/me');
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('says the webhook URL must be https when Save is pressed with none, and saves nothing', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await logIn(s, ALICE);
    await s.page.goto('/app/me');
    await s.page.getByRole('tab', { name: 'Notification settings' }).click();
    await s.page.getByRole('radio', { name: 'Webhook' }).check();
    const error = s.page.getByText('Webhook URL must start with https://');
    expect(await error.count()).toBe(0);
    await s.page.getByRole('button', { name: 'Save' }).click();
    await error.waitFor();
    const row = await gateway.test.deps.db
      .selectFrom('users')
      .select('setting')
      .where('username', '=', ALICE.username)
      .executeTakeFirstOrThrow();
    expect(row.setting ?? '').not.toContain('webhook');
    await s.context.close();
  });
});
