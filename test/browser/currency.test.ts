import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consolePlanFields } from '../../shared/schemas/subscriptions.ts';
import { insertChannel, insertToken, setOptions } from '../relay-fixtures.ts';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, type RestAuth, restSignIn, signedInSession, startGateway } from './harness.ts';

/*
 * Issue 45, "money only in dollars": the operator shows money in yuan at USDExchangeRate
 * (general_setting.quota_display_type = CNY) and every page that shows money says ¥ at that rate: balances at
 * whole fen rounded down with the exact amount on hover, totals to the nearest fen, plan prices, the pricing
 * page's prices (one precision for the column) and the settings page's choice; in Chinese and English, on a
 * desktop and a phone. One gateway, one sign-in, one session per language × width × theme.
 */

const RATE = 7.3;
/** 4,868,338 quota = $9.736676 = ¥71.0777348: shown ¥71.07 (rounded down), ¥71.07773 on hover. */
const BALANCE = 4_868_338;
const SHOWN = '¥71.07';
const EXACT = '¥71.07773';
/** Used: 1,234,567 quota = ¥18.02468, to the nearest fen ¥18.02. */
const USED = 1_234_567;
/** A $10 plan is ¥73.00. */
const PLAN = '¥73.00';
const wait = { timeout: 20_000 };
const shots = process.env.SHOTS_DIR ?? '/work/notes/shots/currency';

describe('money in yuan on every page (issue 45)', () => {
  let gateway: Gateway;
  let browser: Browser;
  let auth: RestAuth;

  beforeAll(async () => {
    const dist = process.env.BROWSER_CLIENT_DIST;
    gateway = await startGateway(dist ? { clientDist: dist } : {});
    const { deps } = gateway.test;
    await setupRoot(gateway.test);
    await deps.services.options.update('USDExchangeRate', String(RATE));
    await deps.services.options.update('general_setting.quota_display_type', 'CNY');
    const root = await deps.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', ROOT_USERNAME)
      .executeTakeFirstOrThrow();
    await deps.db.updateTable('users').set({ quota: BALANCE, used_quota: USED }).where('id', '=', root.id).execute();
    await insertToken(deps, root.id, { name: 'yuan-token', remainQuota: BALANCE });
    await deps.services.subscriptions.plans.create({
      from: 'console',
      fields: consolePlanFields.parse({ title: 'Yuan plan', price_amount: 10, total_amount: 5_000_000 }),
    });
    // $0.15 and $0.3428 per 1M prompt tokens, $0.04 a call: ¥1.095, ¥2.50244, ¥0.292, in one precision.
    await setOptions(deps, {
      ModelRatio: JSON.stringify({ 'yuan-chat': 0.075, 'yuan-fine': 0.1714 }),
      ModelPrice: JSON.stringify({ 'yuan-call': 0.04 }),
    });
    await insertChannel(deps, {
      name: 'yuan',
      baseUrl: 'http://127.0.0.1:9',
      models: ['yuan-chat', 'yuan-fine', 'yuan-call'],
    });
    // Online top-up on (never reached: the test stops at the quote), ¥7.30 paid per dollar of quota.
    for (const [key, value] of [
      ['ServerAddress', 'http://127.0.0.1'],
      ['PayAddress', 'http://127.0.0.1:9/'],
      ['EpayId', '1001'],
      ['EpayKey', 'epay-test-key'],
      ['Price', '7.3'],
    ])
      await deps.services.options.update(key, value);
    browser = await launchChromium();
    auth = await restSignIn(gateway.baseUrl, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    mkdirSync(shots, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  /** Lets a drawer finish sliding in before a screenshot. */
  const settled = (page: Page) =>
    page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));

  /** The text of the first element whose title (the exact amount, on hover) is `title`. */
  const shownFor = (page: Page, title: string) => page.getByTitle(title, { exact: true }).first().innerText();

  /**
   * The page's visible text has no dollar amount: every amount is in yuan. The online top-up card is the one
   * exception: it buys whole dollars of quota (as new-api's top-up does) and says what they add in yuan.
   */
  async function noDollars(page: Page, path: string) {
    const topUp = page.locator('.mantine-Card-root', { has: page.getByTestId('topup-amount') });
    const skip = (await topUp.count()) > 0 ? await topUp.innerText() : '';
    expect((await page.locator('body').innerText()).replace(skip, ''), path).not.toMatch(/\$\s?\d/);
  }

  for (const [lang, width, height, theme] of [
    ['zh', 1366, 860, 'light'],
    ['zh', 1366, 860, 'dark'],
    ['en', 1366, 860, 'light'],
    ['en', 1366, 860, 'dark'],
    ['zh', 390, 844, 'light'],
    ['en', 390, 844, 'dark'],
  ] as const) {
    it(`shows ¥ at ${RATE} per dollar on every money page, ${lang}, ${width} px, ${theme}`, async () => {
      const s = await signedInSession(browser, gateway.baseUrl, auth, { lang, width, height, theme });
      const { page } = s;
      const shot = (name: string) =>
        page.screenshot({ path: `${shots}/${name}-${lang}-${width}-${theme}.png`, fullPage: width === 390 });
      try {
        await page.goto('/app/wallet');
        await expect.poll(() => shownFor(page, EXACT), wait).toBe(SHOWN);
        // Used is not spendable: the nearest fen.
        await expect.poll(() => shownFor(page, '¥18.02468'), wait).toBe('¥18.02');
        await expect.poll(() => page.getByTestId('plan-card').first().innerText(), wait).toContain(PLAN);
        // $10 of quota (the first preset) adds ¥73.00 to the balance, for ¥73.00 paid.
        await expect
          .poll(() => page.getByTestId('topup-amount-counterpart').innerText(), wait)
          .toContain(lang === 'zh' ? '余额增加 ¥73.00' : 'Adds ¥73.00 to the balance');
        await expect.poll(() => page.getByTestId('topup-price').innerText(), wait).toBe('¥73.00');
        await noDollars(page, 'wallet');
        await shot('wallet');

        await page.goto('/app/dashboard');
        await expect.poll(() => page.getByTestId('figure-balance-value').innerText(), wait).toContain(SHOWN);
        await noDollars(page, 'dashboard');
        await shot('dashboard');

        await page.goto('/app/me');
        await expect.poll(() => page.getByTestId('balance').innerText(), wait).toContain(SHOWN);
        await noDollars(page, 'me');
        await shot('me');

        await page.goto('/app/logs/api-usage');
        await expect.poll(() => page.getByTestId('log-balance').innerText(), wait).toContain(SHOWN);
        await noDollars(page, 'logs');

        await page.goto('/app/tokens');
        await expect.poll(() => shownFor(page, EXACT), wait).toBe(SHOWN);
        await noDollars(page, 'tokens');
        await shot('tokens');
        if (width === 1366) {
          // A new token's quota is typed in yuan: ¥1 by default, 68,493 quota beside it.
          await page
            .getByRole('button', { name: lang === 'zh' ? '添加令牌' : 'Add token' })
            .first()
            .click();
          const drawer = page.getByRole('dialog');
          await expect.poll(() => drawer.innerText(), wait).toContain('68,493');
          await noDollars(page, 'token drawer');
          await settled(page);
          await shot('token-drawer');
          await page.keyboard.press('Escape');
        }

        await page.goto('/admin/users');
        await expect.poll(() => shownFor(page, EXACT), wait).toBe(SHOWN);
        await noDollars(page, 'admin-users');
        await shot('admin-users');

        await page.goto('/admin/subscriptions');
        await expect.poll(() => page.locator('body').innerText(), wait).toContain(PLAN);
        await shot('admin-subscriptions');
        if (width === 1366) {
          // The plan's $10 is typed and shown in yuan.
          await page
            .getByRole('button', { name: lang === 'zh' ? '编辑' : 'Edit' })
            .first()
            .click();
          await expect.poll(() => page.getByTestId('plan-price').inputValue(), wait).toBe('¥73');
          await settled(page);
          await shot('plan-drawer');
          await page.keyboard.press('Escape');
        }

        await page.goto('/pricing');
        await expect.poll(() => page.locator('body').innerText(), wait).toContain('¥2.50244');
        const body = await page.locator('body').innerText();
        // One precision for the whole price column: ¥1.09500 beside ¥2.50244, not ¥1.095.
        const prices = [...body.matchAll(/¥\d[\d,]*\.(\d+)/g)];
        expect(prices.map((m) => m[0])).toEqual(expect.arrayContaining(['¥1.09500', '¥2.50244', '¥0.29200']));
        expect(new Set(prices.map((m) => m[1].length))).toEqual(new Set([5]));
        await noDollars(page, 'pricing');
        await shot('pricing');

        if (width === 1366) {
          await page.goto('/admin/settings');
          await page.getByRole('tab', { name: lang === 'zh' ? '其他设置' : 'Other settings' }).click();
          const choice = page.getByLabel(lang === 'zh' ? '额度展示类型' : 'Show amounts in', { exact: true }).first();
          await expect.poll(() => choice.inputValue(), wait).toBe(lang === 'zh' ? '人民币（¥）' : 'Chinese yuan (¥)');
          await choice.scrollIntoViewIfNeeded();
          await shot('settings');
        }
        expect(s.errors).toEqual([]);
      } finally {
        await s.context.close();
      }
    }, 180_000);
  }
});
