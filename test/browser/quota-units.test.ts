import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertChannel, insertToken } from '../relay-fixtures.ts';
import { createUser, login, restHeaders, ROOT_PASSWORD, ROOT_USERNAME, setOption, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, type Session, startGateway } from './harness.ts';

/*
 * Issue 28, "amounts change unit between forms": every quota input takes the site's display unit
 * (dollars while "display in currency" is on, quota otherwise), shows the other unit beside it,
 * and the server stores the integer quota; one balance reads the same on every page; a channel
 * balance nobody could read says so.
 */

const ROOT = { username: ROOT_USERNAME, password: ROOT_PASSWORD };
/** $199.999968 at 500,000 quota per $: a balance the old pages rounded three different ways. */
const BALANCE = 99_999_984;
/** Pages load lazily and fetch after rendering; on a busy machine that takes more than poll's 1 s default. */
const wait = { timeout: 15_000 };

describe('one unit for money in every form', () => {
  let gateway: Gateway;
  let browser: Browser;
  let en: Session;
  let zh: Session;
  let carolId = 0;
  let headers: Record<string, string> = {};

  /** GET through the new-api REST surface, as an old console or a script reads it. */
  async function rest<T>(url: string): Promise<T> {
    const res = await gateway.test.app.inject({ method: 'GET', url, headers });
    const body = res.json() as { success: boolean; message: string; data: T };
    if (!body.success) throw new Error(`${url}: ${body.message}`);
    return body.data;
  }
  const codeQuota = async (name: string) =>
    (await rest<{ items: { name: string; quota: number }[] }>(`/api/redemption/search?keyword=${name}`)).items.find(
      (r) => r.name === name,
    )?.quota;
  const userQuota = async () => (await rest<{ quota: number }>(`/api/user/${carolId}`)).quota;
  const option = async (key: string) =>
    (await rest<{ key: string; value: string }[]>('/api/option/')).find((o) => o.key === key)?.value;

  /** Creates a redemption code named `name` by typing `typed` in the quota field; returns the counterpart text. */
  async function createCode(page: Page, name: string, typed: string, dialogName: string) {
    await page.goto('/admin/coupons');
    await page.getByTestId('create-codes').click();
    const drawer = page.getByRole('dialog', { name: dialogName });
    await drawer.locator('input').first().fill(name);
    await drawer.getByTestId('redemption-quota').fill(typed);
    const counterpart = await drawer.getByTestId('redemption-quota-counterpart').innerText();
    await drawer.locator('button[type="submit"]').click();
    await page.getByTestId('generated-keys').waitFor();
    await page.keyboard.press('Escape');
    return counterpart;
  }

  /** Opens the admin's edit panel for carol. */
  async function editCarol(page: Page, dialogName: string) {
    await page.goto(`/user/edit/${carolId}`);
    const drawer = page.getByRole('dialog', { name: dialogName });
    await expect.poll(() => drawer.getByTestId('user-quota').inputValue(), wait).not.toBe('');
    return drawer;
  }

  async function setNewUserGift(page: Page, typed: string) {
    await page.goto('/admin/settings');
    const section = page.getByTestId('section-quota');
    const input = section.getByTestId('option-QuotaForNewUser');
    await input.waitFor();
    await input.fill(typed);
    const counterpart = await section.getByTestId('option-QuotaForNewUser-counterpart').innerText();
    await section.getByRole('button').last().click();
    return counterpart;
  }

  beforeAll(async () => {
    // A build of the console elsewhere than dist/client (several people build at once): BROWSER_CLIENT_DIST.
    const dist = process.env.BROWSER_CLIENT_DIST;
    gateway = await startGateway(dist ? { clientDist: dist } : {});
    await setupRoot(gateway.test);
    carolId = (await createUser(gateway.test, { username: 'carol', quota: 0 })).id;
    headers = restHeaders(await login(gateway.test, ROOT.username, ROOT.password));
    browser = await launchChromium();
    en = await openSession(browser, gateway.baseUrl);
    zh = await openSession(browser, gateway.baseUrl, { lang: 'zh', width: 390, height: 844 });
    await logIn(en, ROOT);
    // logIn() reads English labels; the Chinese console signs in through the same form.
    await zh.page.goto('/login');
    await zh.page.locator('input[autocomplete="username"]').fill(ROOT.username);
    await zh.page.locator('input[autocomplete="current-password"]').fill(ROOT.password);
    await zh.page.locator('form button[type="submit"]').click();
    await zh.page.waitForURL('**/app/tokens');
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  describe('currency display on (the default: $1 = 500,000 quota)', () => {
    it('a $5 redemption code is worth 5 x QuotaPerUnit quota, and the field says so', async () => {
      const counterpart = await createCode(en.page, 'five', '5', 'Create redemption codes');
      expect(counterpart).toBe('= 2,500,000 quota');
      expect(await codeQuota('five')).toBe(2_500_000);
      // The list shows it in dollars.
      await en.page.getByRole('row', { name: /five.*\$5\.00/ }).waitFor();

      // In Chinese on a phone: the same field, the same rule.
      expect(await createCode(zh.page, 'cents', '0.35', '创建兑换码')).toBe('= 175,000 额度');
      expect(await codeQuota('cents')).toBe(175_000);
      expect(en.errors).toEqual([]);
      expect(zh.errors).toEqual([]);
    });

    it('follows the operator rate: at 1,000 quota per $, $5 is 5,000 quota', async () => {
      await setOption(gateway.test, 'QuotaPerUnit', '1000');
      try {
        expect(await createCode(en.page, 'rate', '5', 'Create redemption codes')).toBe('= 5,000 quota');
        expect(await codeQuota('rate')).toBe(5_000);
      } finally {
        await setOption(gateway.test, 'QuotaPerUnit', '500000');
      }
    });

    it("the admin's quota edit and add-quota take dollars", async () => {
      let drawer = await editCarol(en.page, 'Edit user');
      expect(await drawer.getByTestId('user-quota').inputValue()).toBe('$0');
      await drawer.getByTestId('user-quota').fill('12.5');
      expect(await drawer.getByTestId('user-quota-counterpart').innerText()).toBe('= 6,250,000 quota');
      await drawer.getByRole('button', { name: 'Save' }).click();
      await expect.poll(userQuota, wait).toBe(6_250_000);

      drawer = await editCarol(zh.page, '编辑用户');
      expect(await drawer.getByTestId('user-quota').inputValue()).toBe('$12.5');
      await drawer.getByTestId('add-quota').fill('-0.5');
      expect(await drawer.getByTestId('add-quota-counterpart').innerText()).toBe('= -250,000 额度');
      await drawer.getByRole('button', { name: '保存' }).click();
      await expect.poll(userQuota, wait).toBe(6_000_000);
    });

    it('a quota setting (initial quota for new users) takes dollars', async () => {
      expect(await setNewUserGift(en.page, '0.2')).toBe('= 100,000 quota');
      await expect.poll(() => option('QuotaForNewUser'), wait).toBe('100000');
      // Read back in dollars after a reload.
      await en.page.reload();
      await expect.poll(() => en.page.getByTestId('option-QuotaForNewUser').inputValue(), wait).toBe('$0.2');
    });

    it('one balance reads the same on the dashboard, wallet, personal settings, users, tokens and logs', async () => {
      const t = gateway.test;
      const root = await t.deps.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', ROOT.username)
        .executeTakeFirstOrThrow();
      await t.deps.db.updateTable('users').set({ quota: BALANCE }).where('id', '=', root.id).execute();
      await insertToken(t.deps, root.id, { name: 'same-balance', remainQuota: BALANCE });
      // At the cents that can be spent (issue 39): $199.999968 reads $199.99, the exact amount in the title.
      const text = '$199.99';
      const { page } = en;
      const shown = (testId: string) => page.getByTestId(testId).first().innerText();
      await page.goto('/app/dashboard');
      await expect.poll(() => shown('figure-balance-value'), wait).toBe(text);
      await page.goto('/app/wallet');
      await expect.poll(() => shown('wallet-balance'), wait).toBe(text);
      await page.goto('/app/me');
      await expect.poll(() => shown('balance'), wait).toMatch(/\$199\.99$/);
      await page.goto('/app/logs/api-usage');
      await expect.poll(() => shown('log-balance'), wait).toMatch(/\$199\.99$/);
      expect(await page.getByTestId('log-balance').locator('[title]').getAttribute('title')).toBe('$199.999968');
      await page.goto('/admin/users');
      await page.getByRole('row', { name: new RegExp(`${ROOT.username}.*\\$199\\.99\\b`) }).waitFor();
      await page.goto('/app/tokens');
      await page.getByRole('row', { name: /same-balance.*\$199\.99\b/ }).waitFor();
      expect(en.errors).toEqual([]);
    });

    it('a channel balance nobody has read says "unknown", not $0.00', async () => {
      const id = await insertChannel(gateway.test.deps, {
        name: 'no-balance',
        baseUrl: 'http://127.0.0.1:9',
        models: ['gpt-4o'],
      });
      const read = await insertChannel(gateway.test.deps, {
        name: 'has-balance',
        baseUrl: 'http://127.0.0.1:9',
        models: ['gpt-4o'],
      });
      await gateway.test.deps.db
        .updateTable('channels')
        .set({ balance: 12.5, balance_updated_time: Math.floor(Date.now() / 1000) })
        .where('id', '=', read)
        .execute();
      await en.page.goto('/admin/channels');
      await expect.poll(() => en.page.getByTestId(`balance-${id}`).innerText(), wait).toBe('Unknown');
      await expect.poll(() => en.page.getByTestId(`balance-${read}`).innerText(), wait).toBe('$12.50');
      await zh.page.goto('/admin/channels');
      await expect.poll(() => zh.page.getByTestId(`balance-${id}`).innerText(), wait).toBe('未知');
    });
  });

  describe('currency display off: the same inputs take quota', () => {
    beforeAll(async () => {
      await setOption(gateway.test, 'DisplayInCurrencyEnabled', 'false');
    });
    afterAll(async () => {
      await setOption(gateway.test, 'DisplayInCurrencyEnabled', 'true');
    });

    it('a redemption code of "5" is 5 quota, shown as $0.00001 beside the field', async () => {
      await en.page.goto('/');
      expect(await createCode(en.page, 'points', '5', 'Create redemption codes')).toBe('= $0.00001');
      expect(await codeQuota('points')).toBe(5);
    });

    it("the admin's quota edit and a setting take quota", async () => {
      const drawer = await editCarol(en.page, 'Edit user');
      expect(await drawer.getByTestId('user-quota').inputValue()).toBe('6,000,000');
      await drawer.getByTestId('user-quota').fill('5000');
      expect(await drawer.getByTestId('user-quota-counterpart').innerText()).toBe('= $0.01');
      await drawer.getByRole('button', { name: 'Save' }).click();
      await expect.poll(userQuota, wait).toBe(5_000);

      expect(await setNewUserGift(en.page, '300')).toBe('= $0.0006');
      await expect.poll(() => option('QuotaForNewUser'), wait).toBe('300');
      expect(en.errors).toEqual([]);
    });
  });
});
