import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedemptionStatus, Role } from '../../shared/constants.ts';
import { setOptions } from '../relay-fixtures.ts';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, type Session, startGateway } from './harness.ts';

/*
 * Issue 31, items 5 and 6 as a newcomer meets them: the redemption-code page (one bulk menu whose
 * actions ask first, who redeemed a code, tiny amounts readable on a phone), the wallet's "Buy a
 * code" only with a link, the names in the top bar, the setup page's top bar, dark-mode switches
 * and dot badges, and a non-admin sent home from admin pages with a reason.
 */

/** WCAG contrast ratio of two computed `rgb(...)` colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const s = Number(v) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (bl ?? 0);
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The element's background and the first opaque background behind it. */
const backgrounds = (el: Locator, pseudo?: string) =>
  el.evaluate((node, pseudoEl) => {
    const own = getComputedStyle(node, pseudoEl ?? null).backgroundColor;
    const opaque = (c: string) => c !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(c);
    let behind = 'rgb(255, 255, 255)';
    for (let a = pseudoEl ? node : node.parentElement; a; a = a.parentElement) {
      const bg = getComputedStyle(a).backgroundColor;
      if (opaque(bg)) {
        behind = bg;
        break;
      }
    }
    return { own, behind };
  }, pseudo);

/** Reddish backgrounds among the visible buttons above the table (the page header's actions). */
const redHeaderButtons = (page: Page) =>
  page.evaluate(() => {
    const table = document.querySelector('table');
    const top = table ? table.getBoundingClientRect().top : Infinity;
    return [...document.querySelectorAll('main button')]
      .filter((b) => {
        const r = b.getBoundingClientRect();
        return r.width > 0 && r.bottom <= top;
      })
      .filter((b) => {
        const [r = 0, g = 0, bl = 0] = (getComputedStyle(b).backgroundColor.match(/[\d.]+/g) ?? []).map(Number);
        return r > g + 40 && r > bl + 40;
      })
      .map((b) => b.textContent);
  });

describe('a newcomer first day, polished: coupons, wallet, top bar, guards, dark mode', () => {
  let gateway: Gateway;
  let browser: Browser;
  let root: Session;
  let aliceId: number;
  const alice = { username: 'alice', password: 'alice-pass-1' };
  let tinyKey = '';

  beforeAll(async () => {
    gateway = await startGateway();
    await setupRoot(gateway.test);
    aliceId = (await createUser(gateway.test, { ...alice, role: Role.Common, quota: 500_000 })).id;
    const codes = gateway.test.deps.services.redemptions;
    const base = { key: undefined, is_gift: false, max_uses: -1, valid_from: 0, valid_until: 0 };
    [tinyKey] = (await codes.create({ ...base, name: 'tiny', quota: 5, count: 1 })) as [string];
    await codes.create({ ...base, name: 'ten', quota: 5_000_000, count: 3 });
    browser = await launchChromium();
    root = await openSession(browser, gateway.baseUrl, { theme: 'dark' });
    await logIn(root, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('puts the bulk actions behind one menu, each asking first; no red wall in the header', async () => {
    const { page } = root;
    await page.goto('/admin/coupons');
    const rows = page.getByRole('row', { name: /ten/ });
    await rows.first().waitFor();
    await expect.poll(() => rows.count()).toBe(3);
    expect(await redHeaderButtons(page)).toEqual([]);

    // Disable selected: asks, and only then disables.
    await rows.first().getByRole('checkbox').check();
    await page.getByTestId('bulk-actions').click();
    await page.getByRole('menuitem', { name: 'Disable 1 selected' }).click();
    const ask = page.getByRole('dialog', { name: 'Disable the selected redemption codes?' });
    await ask.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('Disabled 1 redemption code').waitFor();
    await expect.poll(() => page.getByRole('row', { name: /ten.*Disabled/ }).count()).toBe(1);

    // Delete disabled: cancelling keeps the code, confirming deletes it.
    await page.getByTestId('bulk-actions').click();
    await page.getByRole('menuitem', { name: 'Delete disabled codes' }).click();
    const del = page.getByRole('dialog', { name: 'Delete all disabled redemption codes?' });
    await del.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => del.count()).toBe(0);
    expect(await page.getByRole('row', { name: /ten.*Disabled/ }).count()).toBe(1);
    await page.getByTestId('bulk-actions').click();
    await page.getByRole('menuitem', { name: 'Delete disabled codes' }).click();
    await del.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Deleted 1 disabled redemption code').waitFor();
    await expect.poll(() => rows.count()).toBe(2);

    // Delete by name: its dialog counts first and says how many will go.
    await page.getByTestId('bulk-actions').click();
    await page.getByRole('menuitem', { name: 'Delete by name…' }).click();
    const byName = page.getByRole('dialog', { name: 'Delete by name' });
    await byName.getByLabel('Name').fill('ten');
    await byName.getByRole('button', { name: 'Look up' }).click();
    await expect(byName.getByTestId('delete-by-name-count').innerText()).resolves.toBe(
      '2 codes named "ten" will be deleted. This cannot be undone.',
    );
    await byName.getByRole('button', { name: 'Cancel' }).click();
    expect(await rows.count()).toBe(2);

    // Row actions as the other tables have them: icons and a "more" menu.
    const row = rows.first();
    await row.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).waitFor();
    await page.keyboard.press('Escape');
    expect(root.errors).toEqual([]);
  });

  it('names who redeemed a code, and when, once a user redeems it', async () => {
    const s = await openSession(browser, gateway.baseUrl, { width: 390, height: 844 });
    await logIn(s, alice);
    await s.page.goto(`/app/wallet?code=${tinyKey}`);
    await s.page.getByTestId('redeem-submit').click();
    await s.page.getByText('Redeemed successfully, $0.00001 added').waitFor();
    await s.context.close();

    const row = await gateway.test.deps.db
      .selectFrom('redemptions')
      .select(['status', 'used_user_id'])
      .where('key', '=', tinyKey)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: RedemptionStatus.Used, used_user_id: aliceId });
    await root.page.reload();
    const tiny = root.page.getByRole('row', { name: /tiny/ });
    const by = tiny.getByTestId('redeemed-by');
    await expect.poll(() => by.innerText()).toMatch(/^alice\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('shows a tiny amount in full on a phone, with the name, status and redeemer on screen', async () => {
    const s = await openSession(browser, gateway.baseUrl, { width: 390, height: 844, theme: 'dark' });
    await logIn(s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    await s.page.goto('/admin/coupons');
    // A card per code on a phone (the shared table's phone mode).
    const tiny = s.page.getByTestId('phone-card').filter({ hasText: 'tiny' });
    await tiny.waitFor();
    for (const text of ['tiny', 'Used', '$0.00001', 'alice']) {
      const cell = tiny.getByText(text, { exact: true });
      const seen = await cell.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, cut: el.scrollWidth > el.clientWidth + 1 };
      });
      expect(seen.left, text).toBeGreaterThanOrEqual(0);
      expect(seen.right, text).toBeLessThanOrEqual(390);
      expect(seen.cut, text).toBe(false);
      // Not hidden under anything either.
      const under = await cell.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.right - 2, r.top + r.height / 2);
        return hit === el || el.contains(hit);
      });
      expect(under, text).toBe(true);
    }
    await s.context.close();
  });

  it('offers "Buy a code" only when a top-up link is set, and keeps the amount header whole', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await logIn(s, alice);
    await s.page.goto('/app/wallet');
    await s.page.getByTestId('redeem-submit').waitFor();
    expect(await s.page.getByText('Buy a code').count()).toBe(0);
    const header = s.page.getByRole('columnheader', { name: 'Amount paid' });
    const cut = await header.evaluate((th) =>
      [th, ...th.querySelectorAll('*')].some((el) => el.scrollWidth > el.clientWidth + 1),
    );
    expect(cut).toBe(false);

    await setOptions(gateway.test.deps, { TopUpLink: 'https://shop.example/codes' });
    await s.page.reload();
    const buy = s.page.getByRole('link', { name: 'Buy a code' });
    await expect(buy.getAttribute('href')).resolves.toBe('https://shop.example/codes');
    await setOptions(gateway.test.deps, { TopUpLink: '' });
    await s.context.close();
  });

  it("shows root's username and its initials in the top bar, not the setup's display name", async () => {
    await root.page.goto('/app/me');
    const menu = root.page.getByTestId('user-menu');
    const text = await menu.innerText();
    expect(text).toContain('root');
    expect(text).toContain('RO');
    expect(text).not.toContain('RU');
  });

  it('gives switched-off toggles a visible track and the gray dot badge a visible dot in dark mode', async () => {
    const { page } = root;
    await page.goto('/admin/settings');
    const off = page.locator('.mantine-Switch-input:not(:checked):not(:disabled) + .mantine-Switch-track').first();
    await off.waitFor();
    const track = await backgrounds(off);
    expect(contrast(track.own, track.behind)).toBeGreaterThan(1.8);
    expect(await off.locator('.mantine-Switch-thumb[data-with-thumb-indicator]').count()).toBe(0);

    await page.goto('/app/me');
    const dot = page.locator('.mantine-Badge-root[data-variant="dot"]').first();
    await dot.waitFor();
    const d = await backgrounds(dot, '::before');
    expect(contrast(d.own, d.behind)).toBeGreaterThan(1.8);
  });

  it('sends a non-admin from /admin/messages home, saying why', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await logIn(s, alice);
    await s.page.goto('/admin/messages');
    await s.page.waitForURL((u) => u.pathname === '/');
    await s.page.getByText('Only administrators can open that page', { exact: false }).waitFor();
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('offers neither Log in nor Register on the setup page before the system exists', async () => {
    const fresh = await startGateway();
    try {
      const s = await openSession(browser, fresh.baseUrl);
      await s.page.goto('/setup');
      await s.page.getByRole('button', { name: 'Initialise system' }).waitFor();
      await s.page.getByRole('button', { name: 'menu' }).or(s.page.getByText('中文 / English')).first().waitFor();
      expect(await s.page.getByRole('link', { name: 'Log in', exact: true }).count()).toBe(0);
      expect(await s.page.getByRole('link', { name: 'Register', exact: true }).count()).toBe(0);
      await s.context.close();
    } finally {
      await fresh.close();
    }
  });
});
