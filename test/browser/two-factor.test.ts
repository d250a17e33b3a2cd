import { generate } from 'otplib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, startGateway } from './harness.ts';

/*
 * Two-factor in our console, in Chromium: turn it on in Me › Security by reading the key the dialog shows
 * and computing the app's code with otplib (as an authenticator app would), keep the backup codes, sign
 * out; then the password alone does not get in (no session cookie, the page asks for the code), a wrong
 * code is refused, the right one signs in.
 */

let gateway: Gateway;
let browser: Browser;

beforeAll(async () => {
  gateway = await startGateway();
  await setupRoot(gateway.test);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await gateway?.close();
});

/** The app's code now, or one 30-second step ahead (still accepted: a code works once per step). */
const appCode = (secret: string, stepsAhead = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * stepsAhead });

describe('two-factor sign-in in our console', () => {
  it('turns on in Me › Security; then the password alone does not sign in, the code does', async () => {
    const user = await createUser(gateway.test);
    const s = await openSession(browser, gateway.baseUrl);
    await logIn(s, user);
    await s.page.goto('/app/me');
    const card = s.page.getByTestId('two-factor-card');
    await card.getByText('Off', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Turn on' }).click();

    const dialog = s.page.getByRole('dialog');
    const secret = (await dialog.getByTestId('twofa-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expect(dialog.getByRole('img', { name: 'QR code for the authenticator app' }).isVisible()).resolves.toBe(
      true,
    );
    await dialog.locator('input').first().click();
    await s.page.keyboard.type(await appCode(secret));
    const codes = (await dialog.getByTestId('backup-codes').innerText()).split(/\s+/).filter(Boolean);
    expect(codes).toHaveLength(8);
    for (const c of codes) expect(c).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    await dialog.getByRole('button', { name: 'I have saved them' }).click();
    await card.getByText('On', { exact: true }).waitFor();
    await card.getByText('Backup codes left: 8').waitFor();

    // Sign out, then the password alone: the page asks for the code, and no session exists.
    await s.page.getByTestId('user-menu').click();
    await s.page.getByRole('menuitem', { name: 'Log out' }).click();
    await s.page.waitForURL('**/login');
    await s.page.getByLabel('Username or e-mail').fill(user.username);
    await s.page.getByLabel('Password', { exact: true }).fill(user.password);
    await s.page.getByRole('button', { name: 'Log in', exact: true }).last().click();
    const step = s.page.getByTestId('two-factor-step');
    await step.waitFor();
    expect((await s.context.cookies()).some((c) => c.name === 'session')).toBe(false);
    await s.page.goto('/app/tokens');
    await s.page.waitForURL('**/login**');

    await s.page.getByLabel('Username or e-mail').fill(user.username);
    await s.page.getByLabel('Password', { exact: true }).fill(user.password);
    await s.page.getByRole('button', { name: 'Log in', exact: true }).last().click();
    await step.waitFor();
    await step.locator('input').first().click();
    await s.page.keyboard.type('000000');
    await s.page.getByText('Wrong verification or backup code, please try again').first().waitFor();
    expect(s.page.url()).toContain('/login');

    // The right code (the next step's: the one used to turn it on cannot be used twice) signs in.
    for (let i = 0; i < 6; i++) await s.page.keyboard.press('Backspace');
    await step.locator('input').first().click();
    await s.page.keyboard.type(await appCode(secret, 1));
    await s.page.waitForURL('**/app/tokens');
    await expect(s.page.getByTestId('user-menu').innerText()).resolves.toContain(user.username);
    expect(s.errors).toEqual([]);
    await s.context.close();
  });
});
