import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, type Session, startGateway } from './harness.ts';
import { overflowing } from './layout-checks.ts';

/*
 * Issue 32, subscription plans in Switchyard's console: an admin creates a plan on /admin/subscriptions
 * (the drawer), takes it off sale and back from the row menu; a user on a phone sees it in the wallet,
 * buys it from the balance and sees the subscription with the quota left and the next renewal; the
 * admin then sees it in the user's drawer.
 */

/** A plan's table row, or its card on a phone. */
const row = (page: Page, text: string) =>
  page.locator('tr, [data-testid="phone-card"]').filter({ hasText: text }).first();

describe('a subscription plan from the admin page to a user wallet', () => {
  let gateway: Gateway;
  let browser: Browser;
  let admin: Session;
  let dora: Session;
  const doraLogin = { username: 'dora', password: 'dora-pass-1' };

  beforeAll(async () => {
    gateway = await startGateway();
    await setupRoot(gateway.test);
    await createUser(gateway.test, { ...doraLogin, quota: 5_000_000 }); // $10
    browser = await launchChromium();
    admin = await openSession(browser, gateway.baseUrl);
    dora = await openSession(browser, gateway.baseUrl, { width: 390, height: 844 });
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('the admin creates a plan in the drawer and switches it off sale and back', async () => {
    await logIn(admin, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    await admin.page.getByRole('link', { name: 'Subscription plans' }).click();
    await admin.page.waitForURL('**/admin/subscriptions');
    await admin.page.getByText('No plans yet').waitFor();
    await admin.page.getByTestId('create-plan').click();
    const drawer = admin.page.getByRole('dialog', { name: 'New subscription plan' });
    await drawer.getByLabel(/^Title/).fill('Pro monthly');
    await drawer.getByLabel('Subtitle', { exact: true }).fill('For daily work');
    await drawer.getByTestId('plan-price').fill('4');
    await drawer.getByTestId('plan-quota').fill('2');
    await drawer.getByTestId('plan-reset').click();
    await admin.page.getByRole('option', { name: 'Every day', exact: true }).click();
    await drawer.getByTestId('plan-save').click();
    await admin.page.getByText('Plan created').waitFor();

    const plan = row(admin.page, 'Pro monthly');
    await expect
      .poll(() => plan.innerText())
      .toMatch(/On sale[\s\S]*\$4\.00[\s\S]*1 month[\s\S]*\$2\.00[\s\S]*Every day/i);
    await plan.getByRole('button', { name: 'More actions' }).click();
    await admin.page.getByRole('menuitem', { name: 'Disable' }).click();
    await expect.poll(() => plan.innerText()).toMatch(/off sale/i);
    await plan.getByRole('button', { name: 'More actions' }).click();
    await admin.page.getByRole('menuitem', { name: 'Enable' }).click();
    await expect.poll(() => plan.innerText()).toMatch(/on sale/i);
    expect(admin.errors).toEqual([]);
  });

  it('a user buys it in the wallet from the balance and sees what is left and when it renews', async () => {
    await logIn(dora, doraLogin);
    await dora.page.goto('/app/wallet');
    const section = dora.page.getByTestId('subscription-plans');
    const card = section.getByTestId('plan-card').filter({ hasText: 'Pro monthly' });
    await expect.poll(() => card.innerText()).toMatch(/\$4\.00[\s\S]*Valid for 1 month[\s\S]*\$2\.00 per period/);
    await card.getByRole('button', { name: 'Subscribe' }).click();
    await dora.page.getByTestId('pay-with-balance').click();
    await dora.page.getByText('Subscribed', { exact: true }).waitFor();

    const mine = section.getByTestId('my-subscription');
    await expect
      .poll(() => mine.innerText())
      .toMatch(/Pro monthly[\s\S]*Active[\s\S]*\$2\.00 left of \$2\.00 this period/i);
    await expect.poll(() => mine.innerText()).toMatch(/Renews \d{4}-\d{2}-\d{2}/);
    await expect.poll(() => dora.page.getByTestId('wallet-balance').innerText()).toBe('$6.00');
    await expect.poll(() => section.getByTestId('billing-preference').inputValue()).toBe('Subscription first');
    expect(await overflowing(dora.page)).toEqual([]);
    expect(dora.errors).toEqual([]);
  });

  it("the admin sees it in the user's drawer", async () => {
    await admin.page.getByRole('link', { name: 'User management' }).click();
    await admin.page.waitForURL('**/admin/users');
    const user = row(admin.page, 'dora');
    await user.getByRole('button', { name: 'Edit' }).first().click();
    const subs = admin.page.getByTestId('user-subscriptions');
    await expect.poll(() => subs.innerText()).toMatch(/Pro monthly[\s\S]*Active[\s\S]*\$2\.00 left of \$2\.00/i);
    expect(admin.errors).toEqual([]);
  });
});
