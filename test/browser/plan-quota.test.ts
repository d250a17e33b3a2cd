import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeOpenAI } from '../../scripts/fake-upstream/server.ts';
import { relayRuntimeOf } from '../../server/relay/runtime.ts';
import { Role } from '../../shared/constants.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../relay-fixtures.ts';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, type Session, startGateway } from './harness.ts';
import { overflowing } from './layout-checks.ts';

/*
 * Issue 39, item 1: a plan whose quota was left empty must not go on sale as "unlimited" by accident.
 * The plan form refuses it (the message under the quota field) until the quota is filled in or the
 * "Unlimited quota" switch is turned on; an unlimited plan stands out in the list; and a call paid
 * from a plan says so in the usage log, on a desk and on a phone.
 */

/** Screenshots to look at (test-artifacts/ is not committed; SHOTS_DIR puts them elsewhere). */
const shotsDir = process.env.SHOTS_DIR ?? path.resolve(import.meta.dirname, '../../test-artifacts/screenshots');
/** SHOTS_THEME=dark runs the same walk in the dark theme, for its screenshots. */
const theme = process.env.SHOTS_THEME === 'dark' ? 'dark' : 'light';
const row = (page: Page, text: string) =>
  page.locator('tr, [data-testid="phone-card"]').filter({ hasText: text }).first();
/** A usage-log row, or its card on a phone. */
const logRow = (page: Page, text: string) =>
  page.locator('tbody tr, [data-testid="log-card"]').filter({ hasText: text }).first();
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(shotsDir, `plan-quota-${name}-${theme}.png`), fullPage: true });

describe.each([
  { width: 1366, height: 860, n: 1 },
  { width: 390, height: 844, n: 2 },
])('the plan form and the log at $width px', ({ width, height, n }) => {
  let gateway: Gateway;
  let fake: FakeUpstream;
  let browser: Browser;
  let admin: Session;
  // Each width's own titles, so the screenshots cannot be mistaken for one another.
  const starter = `Starter ${n}`;
  const basic = `Basic ${n}`;

  beforeAll(async () => {
    [gateway, fake, browser] = await Promise.all([startGateway(), startFakeOpenAI(), launchChromium()]);
    await setupRoot(gateway.test);
    mkdirSync(shotsDir, { recursive: true });
    admin = await openSession(browser, gateway.baseUrl, { width, height, theme });
    try {
      await logIn(admin, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    } catch (err) {
      await shot(admin.page, `login-failed-${width}`);
      throw err;
    }
  });
  afterAll(async () => {
    await browser?.close();
    await fake?.close();
    await gateway?.close();
  });

  it('refuses "Starter" at $1 with no quota, then creates it unlimited only through the switch', async () => {
    const { page } = admin;
    await page.goto('/admin/subscriptions');
    await page.getByText('No plans yet').waitFor();
    await page.getByTestId('create-plan').click();
    const drawer = page.getByRole('dialog', { name: 'New subscription plan' });
    await drawer.getByLabel(/^Title/).fill(starter);
    await drawer.getByTestId('plan-price').fill('1');
    await drawer.getByTestId('plan-save').click();
    await drawer.getByText('Enter the quota per period, or turn on “Unlimited quota”').first().waitFor();
    await shot(page, `refused-${width}`);
    // Nothing was created: the drawer stays open and the list is still empty.
    expect(await drawer.isVisible()).toBe(true);
    expect(await page.getByText('No plans yet').count()).toBe(1);

    const unlimited = drawer.getByRole('switch', { name: 'Unlimited quota' });
    await unlimited.check({ force: true });
    await drawer.getByText('Buyers can spend without limit during each period', { exact: false }).waitFor();
    expect(await drawer.getByTestId('plan-quota').isDisabled()).toBe(true);
    await drawer.getByTestId('plan-save').click();
    await page.getByText('Plan created').waitFor();
    const listed = row(page, starter);
    await listed.getByTestId('plan-unlimited-badge').waitFor();
    expect(await listed.getByTestId('plan-unlimited-badge').innerText()).toMatch(/unlimited/i);
    // The drawer closes on save; measured while it still slides out, it would reach past the screen.
    await drawer.waitFor({ state: 'hidden' });
    await shot(page, `list-${width}`);
    expect(await overflowing(page)).toEqual([]);
    expect(admin.errors).toEqual([]);
  });

  it('creates a plan with its quota per period, listed with that quota and no warning', async () => {
    const { page } = admin;
    // The first plan's "Plan created" is closed (the pointer resting on it after Save keeps it open on a
    // phone), so the one awaited below is this plan's.
    const earlier = page.getByRole('alert').filter({ hasText: 'Plan created' });
    if (await earlier.count()) await earlier.getByRole('button').click();
    await earlier.waitFor({ state: 'hidden' });
    await page.getByTestId('create-plan').click();
    const drawer = page.getByRole('dialog', { name: 'New subscription plan' });
    await drawer.getByLabel(/^Title/).fill(basic);
    await drawer.getByTestId('plan-price').fill('1');
    await drawer.getByTestId('plan-quota').fill('2');
    await shot(page, `form-${width}`);
    await drawer.getByTestId('plan-save').click();
    await page.getByText('Plan created').waitFor();
    const listed = row(page, basic);
    await expect.poll(() => listed.innerText()).toMatch(/\$2\.00/);
    expect(await listed.getByTestId('plan-unlimited-badge').count()).toBe(0);
    expect(admin.errors).toEqual([]);
  });

  it('a call paid from the plan says "Paid from plan Basic" in the usage log; a wallet call does not', async () => {
    const deps = gateway.test.deps;
    await setOptions(deps, { ModelPrice: JSON.stringify({ 'test-fixed': 0.004 }) });
    await insertChannel(deps, { baseUrl: fake.url, models: ['test-fixed'] });
    const plans = await deps.services.subscriptions.plans.list(false);
    const plan = plans.find((p) => p.title === basic)!;
    const buyer = await insertUser(deps, { quota: 1_000_000 });
    const walletOnly = await insertUser(deps, { quota: 1_000_000 });
    await deps.services.subscriptions.users.grant({ id: 1, role: Role.Root }, buyer.id, plan.id);
    for (const who of [buyer, walletOnly]) {
      const token = await insertToken(deps, who.id, { unlimited: true });
      const res = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'test-fixed', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(res.status).toBe(200);
    }
    await relayRuntimeOf(deps)!.drain();

    const { page } = admin;
    await page.goto('/app/logs/api-usage');
    const paid = logRow(page, buyer.username);
    await paid.getByTestId('log-paid-by-plan').waitFor();
    expect(await paid.getByTestId('log-paid-by-plan').innerText()).toBe(`Paid from plan ${basic}`);
    await paid.getByTestId('log-cost').waitFor();
    expect(await logRow(page, walletOnly.username).getByTestId('log-paid-by-plan').count()).toBe(0);
    expect(await overflowing(page)).toEqual([]);

    // The details name the plan and the subscription.
    if (width > 500) await paid.click();
    else await paid.getByRole('button', { name: 'Details' }).click();
    const details = page.getByTestId('log-details').first();
    await expect
      .poll(() => details.innerText())
      .toMatch(new RegExp(`Paid from\\s+Plan ${basic} \\(subscription #\\d+\\)`));
    await shot(page, `log-${width}`);
    expect(admin.errors).toEqual([]);
  });
});
