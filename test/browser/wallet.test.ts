import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../shared/constants.ts';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, openSession, type Session, startGateway, logIn } from './harness.ts';

describe('redemption codes: an admin creates them, a user redeems one in the wallet', () => {
  let gateway: Gateway;
  let browser: Browser;
  let admin: Session;
  let carol: Session;
  const carolLogin = { username: 'carol', password: 'carol-pass-1' };
  let keys: string[] = [];

  beforeAll(async () => {
    gateway = await startGateway();
    await setupRoot(gateway.test);
    await createUser(gateway.test, { ...carolLogin, role: Role.Common, quota: 500_000 });
    browser = await launchChromium();
    admin = await openSession(browser, gateway.baseUrl);
    carol = await openSession(browser, gateway.baseUrl, { width: 390, height: 844 });
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('creates two $10 codes from /admin/coupons and shows the generated keys', async () => {
    await logIn(admin, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    await admin.page.getByRole('link', { name: 'Redemption codes' }).click();
    await admin.page.waitForURL('**/admin/coupons');
    await admin.page.getByTestId('create-codes').click();
    const drawer = admin.page.getByRole('dialog', { name: 'Create redemption codes' });
    await drawer.getByText('$10', { exact: true }).click();
    await drawer.getByLabel('Count').fill('2');
    await drawer.getByRole('button', { name: 'Create', exact: true }).click();

    const shown = admin.page.getByTestId('generated-keys');
    await shown.waitFor();
    keys = (await shown.innerText()).trim().split('\n');
    expect(keys).toHaveLength(2);
    for (const k of keys) expect(k).toMatch(/^[0-9a-f]{32}$/);
    await admin.page.keyboard.press('Escape');
    // The name defaulted to the formatted quota.
    await expect.poll(() => admin.page.getByRole('row', { name: /\$10\.00.*Unused/ }).count()).toBe(2);
    expect(admin.errors).toEqual([]);
  });

  it('redeems a code from a ?code= link and shows the new balance', async () => {
    await logIn(carol, { username: carolLogin.username, password: carolLogin.password });
    await carol.page.goto('/app/wallet');
    const balance = carol.page.getByTestId('wallet-balance');
    await expect.poll(() => balance.innerText()).toBe('$1.00');

    await carol.page.getByTestId('redeem-submit').click();
    await carol.page.getByText('Please enter the redemption code').waitFor();

    await carol.page.goto(`/app/wallet?code=${keys[0]}`);
    await expect(carol.page.getByTestId('redeem-code').inputValue()).resolves.toBe(keys[0]);
    await carol.page.getByTestId('redeem-submit').click();
    await carol.page.getByText('Redeemed successfully, $10.00 added').waitFor();
    await expect.poll(() => balance.innerText()).toBe('$11.00');

    // The same code a second time is refused with the server's message.
    await carol.page.getByTestId('redeem-code').fill(keys[0]);
    await carol.page.getByTestId('redeem-submit').click();
    // The server's refusal in the console's language (issue 22): its code, translated.
    await carol.page.getByText('This redemption code has already been used').waitFor();
    await expect.poll(() => balance.innerText()).toBe('$11.00');
    await carol.page.getByText('The administrator has not enabled online top-up').waitFor();
    expect(carol.errors).toEqual([]);
  });

  it('shows the admin the redeemed code as used', async () => {
    await admin.page.reload();
    await expect.poll(() => admin.page.getByRole('row', { name: /\$10\.00.*Used/ }).count()).toBe(1);
  });
});
