import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, startGateway } from './harness.ts';
import { layoutSweep, overflowing } from './layout-checks.ts';
import { seedUsageLogs, usageLogRoutes } from './scenes/usage-logs.ts';

/*
 * The usage-log page at the widths operators use (issue #22): at 1366 px the key columns and
 * the cost fit without sideways scrolling (the rest move into the expanded row), on a phone the
 * rows are cards no wider than the screen, and the cost is shown exactly (12 quota units at
 * 500000/$ read $0.000024) with a formula that adds up to it.
 */

const ROOT = { username: ROOT_USERNAME, password: ROOT_PASSWORD };
const KEY_HEADERS = ['Time', 'User', 'Token', 'Model', 'Tokens in / out', 'Cost', 'Details'];

describe('usage logs fit the screen and show the cost exactly', () => {
  let gateway: Gateway;
  let browser: Browser;
  let bob: { id: number; username: string; password: string };

  beforeAll(async () => {
    [gateway, browser] = await Promise.all([startGateway(), launchChromium()]);
    await setupRoot(gateway.test);
    bob = await seedUsageLogs(gateway.test);
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  async function openLogs(page: Page) {
    await page.goto('/app/logs/api-usage');
    await page.getByText('$0.000024', { exact: true }).first().waitFor();
  }

  it('at 1366×900 an admin sees time, user, token, model, tokens, cost and details without scrolling sideways', async () => {
    const s = await openSession(browser, gateway.baseUrl, { width: 1366, height: 900 });
    await logIn(s, ROOT);
    await openLogs(s.page);
    const layout = await s.page.evaluate((names) => {
      const table = document.querySelector('[data-testid=log-table]')!;
      const box = table.getBoundingClientRect();
      const heads = [...table.querySelectorAll('thead th')];
      const scrollers = [...table.querySelectorAll('*')].filter((el) => {
        const ox = getComputedStyle(el).overflowX;
        return (ox === 'auto' || ox === 'scroll') && el.scrollWidth > el.clientWidth + 1;
      });
      const cost = table.querySelector('tbody tr [data-testid=log-cost]')!;
      return {
        box: { left: box.left, right: box.right },
        viewport: document.documentElement.clientWidth,
        heads: names.map((n) => {
          const th = heads.find((h) => h.textContent?.trim() === n);
          const r = th?.getBoundingClientRect();
          return { name: n, left: r?.left ?? -1, right: r?.right ?? -1, width: r?.width ?? 0 };
        }),
        sideways: scrollers.length,
        costCut: cost.scrollWidth > cost.clientWidth + 1,
      };
    }, KEY_HEADERS);
    for (const h of layout.heads) {
      expect(h.width, `${h.name} is shown`).toBeGreaterThan(40);
      expect(h.left, h.name).toBeGreaterThanOrEqual(layout.box.left - 1);
      expect(h.right, h.name).toBeLessThanOrEqual(Math.min(layout.box.right, layout.viewport) + 1);
    }
    expect(layout.sideways).toBe(0);
    expect(layout.costCut).toBe(false);
    expect(await overflowing(s.page)).toEqual([]);
    const first = s.page.locator('tbody tr').first();
    expect(await first.getByTestId('log-cost').innerText()).toBe('$0.000024');
    expect(await first.innerText()).toContain('100 / 15');
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('a row opens to the columns that had no room and a formula that adds up to the charge', async () => {
    const s = await openSession(browser, gateway.baseUrl, { width: 1366, height: 900 });
    await logIn(s, ROOT);
    await openLogs(s.page);
    // Channel, retry, group and timing left the table for the expanded row.
    expect(await s.page.getByRole('columnheader', { name: 'Channel', exact: true }).count()).toBe(0);
    await s.page.locator('tbody tr').first().click();
    const details = s.page.getByTestId('log-details').first();
    await details.waitFor();
    await details.getByText('Channel', { exact: true }).waitFor();
    await details.getByText('Time taken / first token', { exact: true }).waitFor();
    const formula = (await details.getByTestId('cost-formula').innerText()).split('\n');
    expect(formula).toContain('100 prompt + 15 completion × 4 = 160');
    expect(formula).toContain('160 × model ratio 0.075 × group ratio 1 = 12 → 12');
    expect(formula).toContain('Charged: 12 quota = $0.000024');
    // Rows with cached tokens: the recomputed integer is the charged one, whatever the rounding.
    const rows = s.page.locator('tbody tr:has([data-testid=log-cost])');
    for (let i = 1; i < 6; i++) await rows.nth(i).click();
    const formulas = await s.page.getByTestId('cost-formula').allInnerTexts();
    expect(formulas.length).toBeGreaterThan(3);
    for (const f of formulas) {
      const lines = f
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      const before = lines[lines.findIndex((l) => l.startsWith('Charged')) - 1];
      const computed = /→ ([\d,]+)$|= ([\d,]+)$/.exec(before.trim());
      const charged = /Charged: ([\d,]+) quota/.exec(f);
      expect(charged, f).not.toBeNull();
      expect(computed?.[1] ?? computed?.[2], f).toBe(charged![1]);
    }
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('the column settings dialog still chooses the columns', async () => {
    const s = await openSession(browser, gateway.baseUrl, { width: 1366, height: 900 });
    await logIn(s, ROOT);
    await openLogs(s.page);
    const tokenHeader = s.page.getByRole('columnheader', { name: 'Token', exact: true });
    await tokenHeader.waitFor();
    await s.page.getByRole('button', { name: 'Column settings' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Column settings' });
    await dialog.getByLabel('Token', { exact: true }).uncheck();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await tokenHeader.waitFor({ state: 'detached' });
    const stored = await s.page.evaluate(() => JSON.parse(localStorage.getItem('logs-table-columns') ?? '{}'));
    expect(stored).toMatchObject({ token: false, quota: true });
    // With the room the token column left, the timing column comes back into the table.
    await s.page.getByRole('columnheader', { name: 'Time / first token', exact: true }).waitFor();
    await s.page.getByRole('button', { name: 'Column settings' }).click();
    await dialog.getByRole('button', { name: 'Reset' }).click();
    // As a person would: Confirm once the dialog shows the reset choices (a busy machine renders late).
    await expect.poll(() => dialog.getByLabel('Token', { exact: true }).isChecked(), { timeout: 15_000 }).toBe(true);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await tokenHeader.waitFor();
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('at 390 px the rows are cards and nothing is wider than the screen, opened or not', async () => {
    for (const who of [ROOT, bob]) {
      const s = await openSession(browser, gateway.baseUrl, { width: 390, height: 844 });
      await logIn(s, who);
      await openLogs(s.page);
      const card = s.page.getByTestId('log-card').first();
      expect(await card.innerText()).toContain('$0.000024');
      expect(await s.page.locator('table').count()).toBe(0);
      expect(await overflowing(s.page)).toEqual([]);
      await card.getByRole('button', { name: 'Details' }).click();
      await card.getByTestId('cost-formula').waitFor();
      expect(await overflowing(s.page)).toEqual([]);
      expect(s.errors).toEqual([]);
      await s.context.close();
    }
  });

  it('a tiny amount used is not shown as nothing on the account page, and is exact on hover', async () => {
    const s = await openSession(browser, gateway.baseUrl, { width: 1366, height: 900 });
    await logIn(s, bob);
    await s.page.goto('/app/me');
    // Whole cents on the page (issue 39), the exact amount in the title.
    await expect.poll(() => s.page.getByTestId('used').innerText()).toContain('<$0.01');
    expect(await s.page.getByTestId('used').locator('[title]').first().getAttribute('title')).toBe('$0.000012');
    await s.context.close();
  });

  // The pictures of these pages: `node --import tsx scripts/screenshots.ts --scene usage-logs`.
  it('zh and en at 1366 and 390 px: the log and an opened row fit the screen, without page errors', async () => {
    expect(await layoutSweep(browser, gateway.baseUrl, ROOT, usageLogRoutes)).toEqual({ errors: [], overflow: {} });
  }, 180_000);
});
