import OpenAI from 'openai';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../../scripts/fake-upstream/server.ts';
import { readChannelTestResult } from '../../shared/channel-test-result.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../relay-fixtures.ts';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, type RestAuth, restSignIn, signedInSession, startGateway } from './harness.ts';

/*
 * Issue 45, "Layout", in Chromium on one gateway: a long failed-test message keeps the channel table
 * inside the page at 1366 px (cut, whole on hover); at 390 px the price editor says it scrolls sideways
 * and shades the edge with more columns; at 1366x900 the token drawer's Create button is on screen
 * however long the form; the console is dark when the system is and nothing was picked, and a pick wins.
 * Pictures: /work/notes/shots/layout/ (scripts/screenshots.ts).
 */

describe('layout at desk and phone sizes (issue 45)', () => {
  let gateway: Gateway;
  let browser: Browser;
  let auth: RestAuth;
  let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
  let reason: string;

  beforeAll(async () => {
    gateway = await startGateway();
    await setupRoot(gateway.test);
    fake = await startFakeOpenAI();
    const deps = gateway.test.deps;
    const base = fake.url.replace(/\/v1$/, '');
    // A real failed test: the fake upstream refuses the key with OpenAI's long 401 text.
    const dead = await insertChannel(deps, {
      name: 'Refused key',
      baseUrl: base,
      models: ['gpt-4o+fail-401-invalid-key'],
    });
    for (const name of ['Alpha', 'Beta', 'Gamma'])
      await insertChannel(deps, { name, baseUrl: base, models: ['gpt-4o'], priority: 10, weight: 5 });
    await deps.services.channels.testChannel(dead);
    const row = await deps.db
      .selectFrom('channels')
      .select('test_result')
      .where('id', '=', dead)
      .executeTakeFirstOrThrow();
    reason = readChannelTestResult(row.test_result)?.reason?.params?.detail as string;
    expect(reason.length).toBeGreaterThan(80);
    browser = await launchChromium();
    auth = await restSignIn(gateway.baseUrl, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
  });
  afterAll(async () => {
    await browser?.close();
    await fake?.close();
    await gateway?.close();
  });

  /** How the channel table's scrolling part and the page measure, and the cut reason's size. */
  const channelTable = (page: Page) =>
    page.evaluate(() => {
      const viewport = document.querySelector('main table')!.closest<HTMLElement>('.mantine-ScrollArea-viewport')!;
      const cell = document.querySelector<HTMLElement>('[data-testid="test-reason"]')!;
      return {
        tableWidth: viewport.scrollWidth,
        frameWidth: viewport.clientWidth,
        pageWidth: document.documentElement.scrollWidth,
        reasonCut: cell.scrollWidth > cell.clientWidth,
        reasonRight: cell.getBoundingClientRect().right,
        reasonText: cell.textContent,
      };
    });

  for (const lang of ['zh', 'en'] as const)
    it(`${lang}: at 1366x768 a long failed test is cut in its cell, the table stays inside the page, the whole text on hover`, async () => {
      const s = await signedInSession(browser, gateway.baseUrl, auth, { width: 1366, height: 768, lang });
      await s.page.goto('/admin/channels');
      await s.page.locator('[data-state="failed"]').waitFor({ timeout: 30_000 });
      await s.page.getByTestId('test-reason').waitFor();
      const m = await channelTable(s.page);
      expect(m.reasonText).toContain(reason);
      expect(m.reasonCut).toBe(true);
      expect(m.tableWidth).toBeLessThanOrEqual(m.frameWidth + 1);
      expect(m.pageWidth).toBeLessThanOrEqual(1366);
      expect(m.reasonRight).toBeLessThanOrEqual(1366);
      // No sideways scrolling, so no scroll cue either.
      expect(await s.page.getByTestId('scroll-cue').count()).toBe(0);
      await s.page.getByTestId('test-reason').hover();
      await expect.poll(() => s.page.getByRole('tooltip').textContent(), { timeout: 5_000 }).toContain(reason);
      expect(s.errors).toEqual([]);
      await s.context.close();
    }, 90_000);

  const SCROLL_HINT = { zh: '左右滑动查看更多列', en: 'Scroll sideways for more columns' } as const;
  for (const lang of ['zh', 'en'] as const)
    it(`${lang}: at 390 px the price editor says it scrolls sideways and shades the edge with more columns, its badges uncut`, async () => {
      const s = await signedInSession(browser, gateway.baseUrl, auth, { width: 390, height: 844, lang });
      const { page } = s;
      await page.goto('/admin/settings?tab=operation');
      const section = page.getByTestId('section-pricing');
      await section.locator('[data-testid^="price-row-"]').first().waitFor({ timeout: 30_000 });
      const cue = section.getByTestId('scroll-cue');
      await cue.scrollIntoViewIfNeeded();
      await expect.poll(() => cue.isVisible()).toBe(true);
      expect(await cue.textContent()).toContain(SCROLL_HINT[lang]);
      // The billing badges ("Per token") keep their text: the table scrolls instead of squeezing them.
      const cutBadges = await section
        .locator('tbody .mantine-Badge-label')
        .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
      expect(cutBadges).toEqual([]);
      const right = section.getByTestId('scroll-cue-right');
      expect(await right.isVisible()).toBe(true);
      expect(await section.getByTestId('scroll-cue-left').count()).toBe(0);
      // The shade lies over the table's right edge, inside the screen.
      const box = (await right.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(box.width).toBeGreaterThan(10);
      // Scrolled to the end: the left edge now has the shade, the right one none.
      await section
        .locator('.mantine-ScrollArea-viewport')
        .first()
        .evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await section.getByTestId('scroll-cue-left').waitFor();
      await right.waitFor({ state: 'detached' });
      expect(s.errors).toEqual([]);
      await s.context.close();
    }, 90_000);

  /** Whether the open drawer is longer than the window, and where its Cancel and Create buttons are. */
  const drawerButtons = (page: Page) =>
    page.evaluate(() => {
      const scroller = document.querySelector<HTMLElement>('.mantine-Drawer-content')!;
      const buttons = [...scroller.querySelectorAll<HTMLButtonElement>('form button')].filter((b) =>
        ['取消', '创建'].includes((b.textContent ?? '').trim()),
      );
      return {
        longer: scroller.scrollHeight > scroller.clientHeight,
        buttons: buttons.map((b) => {
          const r = b.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return {
            text: b.textContent,
            inside: r.top >= 0 && r.bottom <= innerHeight,
            onTop: !!hit && b.contains(hit),
          };
        }),
      };
    });
  const SHOWN = [
    { text: '取消', inside: true, onTop: true },
    { text: '创建', inside: true, onTop: true },
  ];

  it('at 1366x900 the token and channel drawers keep Cancel and Create on screen, even with every field open', async () => {
    const s = await signedInSession(browser, gateway.baseUrl, auth, { width: 1366, height: 900, lang: 'zh' });
    const { page } = s;
    await page.goto('/app/tokens');
    await page.getByRole('button', { name: '添加令牌' }).first().click();
    const form = page.getByTestId('token-form');
    await form.waitFor();
    // Opens the optional parts so the form is longer than the window.
    for (const label of ['限制模型', '速率限制'])
      await form.getByRole('switch', { name: label }).evaluate((el) => (el as HTMLInputElement).click());
    expect(await form.getByRole('switch', { checked: true }).count()).toBe(2);
    await page.waitForTimeout(300);
    const top = await drawerButtons(page);
    expect(top.longer).toBe(true);
    expect(top.buttons).toEqual(SHOWN);
    // Halfway down the form they are still there.
    await page.locator('.mantine-Drawer-content').evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }));
    expect((await drawerButtons(page)).buttons).toEqual(SHOWN);

    // The longest form: a new channel with its advanced settings open.
    await page.goto('/admin/channels');
    await page.getByRole('button', { name: '添加渠道' }).first().click();
    await page.locator('.mantine-Drawer-content form').waitFor();
    await page.locator('.mantine-Drawer-content').getByRole('button', { name: '高级设置' }).click();
    await page.waitForTimeout(500);
    const channel = await drawerButtons(page);
    expect(channel.longer).toBe(true);
    expect(channel.buttons).toEqual(SHOWN);
    expect(s.errors).toEqual([]);
    await s.context.close();
  }, 90_000);

  it('cuts a long error in the usage log to two lines in its column, the whole text on hover', async () => {
    const deps = gateway.test.deps;
    // A real failed call: the upstream refuses the key with its long 401 text (auto-disable off, so
    // the channel list above is not changed).
    await setOptions(deps, { ModelRatio: JSON.stringify({ 'long-error': 1 }) });
    await insertChannel(deps, {
      name: 'Refusing upstream',
      baseUrl: fake.url.replace(/\/v1$/, ''),
      models: ['long-error'],
      modelMapping: { 'long-error': 'gpt-4o+fail-401-invalid-key' },
      autoBan: false,
    });
    const user = await insertUser(deps, { username: 'dana' });
    const token = await insertToken(deps, user.id);
    const sdk = new OpenAI({ apiKey: token.key, baseURL: `${gateway.baseUrl}/v1`, maxRetries: 0 });
    await expect(
      sdk.chat.completions.create({ model: 'long-error', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toThrow();

    const s = await signedInSession(browser, gateway.baseUrl, auth, { width: 1366, height: 768, lang: 'zh' });
    await s.page.goto('/app/logs/api-usage');
    const cell = s.page.locator('main tbody [data-cut]').filter({ hasText: 'Incorrect API key' }).first();
    await cell.waitFor({ timeout: 30_000 });
    const full = (await cell.textContent())!;
    expect(full).toContain('platform.openai.com');
    const m = await cell.evaluate((el) => {
      const viewport = el.closest<HTMLElement>('.mantine-ScrollArea-viewport')!;
      const lineHeight = parseFloat(getComputedStyle(el).lineHeight);
      return {
        width: el.getBoundingClientRect().width,
        lines: Math.round(el.clientHeight / lineHeight),
        tableWidth: viewport.scrollWidth,
        frameWidth: viewport.clientWidth,
      };
    });
    expect(m.width).toBeLessThanOrEqual(360);
    expect(m.lines).toBeLessThanOrEqual(2);
    expect(m.tableWidth).toBeLessThanOrEqual(m.frameWidth + 1);
    await cell.hover();
    await expect.poll(() => s.page.getByRole('tooltip').textContent(), { timeout: 5_000 }).toBe(full);
    expect(s.errors).toEqual([]);
    await s.context.close();
  }, 90_000);

  it('follows a dark system until the reader picks light, and goes back with "Follow system"', async () => {
    // No stored choice (the harness's sessions store one): a bare context on a dark system.
    const context = await browser.newContext({
      baseURL: gateway.baseUrl,
      viewport: { width: 1366, height: 768 },
      colorScheme: 'dark',
    });
    await context.addCookies(auth.cookies);
    await context.addInitScript((u) => localStorage.setItem('user', JSON.stringify(u)), auth.user);
    const page = await context.newPage();
    const scheme = () => page.evaluate(() => document.documentElement.dataset.mantineColorScheme);
    const stored = () => page.evaluate(() => localStorage.getItem('theme-mode'));
    await page.goto('/app/tokens');
    await page.getByTestId('theme-toggle').waitFor();
    expect(await scheme()).toBe('dark');
    const body = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const darkBody = await body();

    await page.getByTestId('theme-toggle').click();
    await page.getByTestId('theme-light').click();
    expect(await scheme()).toBe('light');
    expect(await stored()).toBe('light');
    await page.reload();
    await page.getByTestId('theme-toggle').waitFor();
    expect(await scheme()).toBe('light');
    expect(await body()).not.toBe(darkBody);

    await page.getByTestId('theme-toggle').click();
    await page.getByTestId('theme-auto').click();
    expect(await scheme()).toBe('dark');
    expect(await stored()).toBe('auto');
    // A light system, still nothing picked: light.
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(scheme).toBe('light');
    await context.close();
  }, 90_000);
});
