import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Mailbox, startMailbox, useMailbox } from '../signin/mailbox.ts';
import { setOption, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, openSession, type Session } from './harness.ts';

/* Registration with e-mail verification and password reset, with the mails delivered to a loopback SMTP server. */

describe('sign-in by e-mail in the browser', () => {
  let gateway: Gateway;
  let browser: Browser;
  let box: Mailbox;
  let s: Session;
  const email = 'carol@example.com';

  beforeAll(async () => {
    const { startGateway } = await import('./harness.ts');
    gateway = await startGateway();
    await setupRoot(gateway.test);
    box = await startMailbox();
    await useMailbox(gateway.test, box);
    await setOption(gateway.test, 'EmailVerificationEnabled', 'true');
    await setOption(gateway.test, 'ServerAddress', gateway.baseUrl);
    browser = await launchChromium();
    s = await openSession(browser, gateway.baseUrl);
  });

  afterAll(async () => {
    await browser?.close();
    await box?.close();
    await gateway?.close();
  });

  it('registers with the code from the mail, then logs in', async () => {
    const { page } = s;
    await page.goto('/register');
    await page.getByLabel('Username').fill('carol');
    await page.getByLabel('Password', { exact: true }).fill('carol-pass-1');
    await page.getByLabel('Confirm password').fill('carol-pass-1');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    // The button counts down 30 seconds before it can send again.
    await page.getByRole('button', { name: /Resend \(\d+s\)/ }).waitFor();
    const mail = await box.next(email);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
    expect(code).not.toBe('');
    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.waitForURL('**/login');

    await page.getByLabel('Username or e-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('carol-pass-1');
    await page.getByRole('button', { name: 'Log in', exact: true }).last().click();
    await page.waitForURL('**/app/tokens');
    const row = await gateway.test.deps.db
      .selectFrom('users')
      .select('email')
      .where('username', '=', 'carol')
      .executeTakeFirst();
    expect(row?.email).toBe(email);
  });

  it('resets the password through the mailed link', async () => {
    const reset = await openSession(browser, gateway.baseUrl);
    const { page } = reset;
    await page.goto('/reset');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send reset e-mail' }).click();
    await page.getByRole('button', { name: /Retry \(\d+s\)/ }).waitFor();
    const mail = await box.next(email);
    const link = /http:\/\/127\.0\.0\.1:\d+\/user\/reset\?[\w%.=&-]+/.exec(mail.text)?.[0] ?? '';
    expect(link).not.toBe('');
    await page.goto(link);
    await page.getByRole('button', { name: 'Confirm password reset' }).click();
    const password = (await page.getByTestId('new-password').textContent())?.trim() ?? '';
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);
    await page.getByRole('link', { name: 'Go to login' }).click();
    await page.getByLabel('Username or e-mail').fill('carol');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in', exact: true }).last().click();
    await page.waitForURL('**/app/tokens');
    expect([...s.errors, ...reset.errors]).toEqual([]);
  });
});
