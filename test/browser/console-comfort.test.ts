import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../shared/constants.ts';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, startGateway } from './harness.ts';

/*
 * Issue 22 items 5-8, measured in Chromium: toasts clear of close buttons and header actions, a
 * sign-in prompt on /chat, home with a "no permission" toast on /admin/*, the settings tabs and section jump on
 * a phone, the setup wizard landing signed in, and "Forgot password?" only when mail can be sent.
 */

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const box = async (l: Locator) => {
  const b = await l.boundingBox();
  if (!b) throw new Error('not visible');
  return b;
};
/** The widest right edge of any element: nothing may run off a phone's screen. */
const widestRight = (page: Page) =>
  page.evaluate(() =>
    Math.max(...[...document.querySelectorAll('body *')].map((e) => e.getBoundingClientRect().right)),
  );

const alice = { username: 'alice', password: 'alice-pass-1' };
const adam = { username: 'adam', password: 'adam-pass-12' };

describe('console comfort', () => {
  let gateway: Gateway;
  let browser: Browser;

  beforeAll(async () => {
    gateway = await startGateway();
    await setupRoot(gateway.test);
    await createUser(gateway.test, { ...alice, role: Role.Common });
    await createUser(gateway.test, { ...adam, role: Role.Admin });
    await gateway.test.deps.services.options.update(
      'Chats',
      JSON.stringify([{ NextChat: 'https://chat.example/#/?key={key}' }]),
    );
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it.each([1366, 390])(
    'toasts never cover the close buttons of a drawer or a modal, nor the header actions (%i px)',
    async (width) => {
      const s = await openSession(browser, gateway.baseUrl, { width });
      await logIn(s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
      await s.page.goto('/admin/channels');
      await s.page.getByRole('button', { name: 'Add channel' }).click();
      const drawer = s.page.getByRole('dialog');
      // No key yet: "Fetch from upstream" answers with a toast while the drawer stays open.
      await drawer.getByRole('button', { name: 'Fetch from upstream' }).click();
      const toast = s.page.locator('.mantine-Notification-root').first();
      await toast.waitFor();
      const t1 = await box(toast);
      expect(overlaps(t1, await box(drawer.locator('.mantine-Drawer-close')))).toBe(false);
      const header = s.page.locator('header');
      for (const action of await header.locator('button').all())
        if (await action.isVisible()) expect(overlaps(t1, await box(action))).toBe(false);

      // A modal opened while the toast is still up.
      await s.page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'hidden' });
      await s.page.getByRole('button', { name: 'Column settings' }).click();
      const modalClose = s.page.locator('.mantine-Modal-close');
      await modalClose.waitFor();
      if (await toast.isVisible()) expect(overlaps(await box(toast), await box(modalClose))).toBe(false);
      expect(s.errors).toEqual([]);
      await s.context.close();
    },
  );

  it('a visitor opening /chat is asked to log in, and comes back after logging in', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await s.page.goto('/chat/0');
    const prompt = s.page.getByTestId('chat-sign-in');
    await prompt.getByText('Log in to chat').waitFor();
    await expect(s.page.getByTestId('chat-error').count()).resolves.toBe(0);
    await prompt.getByRole('link', { name: 'Log in' }).click();
    await s.page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('returnTo') === '/chat/0');
    await s.page.getByLabel('Username or e-mail').fill(alice.username);
    await s.page.getByLabel('Password', { exact: true }).fill(alice.password);
    await s.page.getByRole('button', { name: 'Log in', exact: true }).last().click();
    await s.page.waitForURL((u) => u.pathname === '/chat/0');
    await s.context.close();
  });

  it('a user opening an admin page is sent home with a "no permission" toast; an admin opening a root page too', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await logIn(s, alice);
    await s.page.goto('/admin/channels');
    await s.page.waitForURL((u) => u.pathname === '/');
    await s.page.getByText('Only administrators can open that page', { exact: false }).waitFor();
    await s.context.close();

    const a = await openSession(browser, gateway.baseUrl);
    await logIn(a, adam);
    await a.page.goto('/admin/settings');
    await a.page.waitForURL((u) => u.pathname === '/');
    await a.page.getByText('Only the super administrator can open that page.').waitFor();
    await a.context.close();
  });

  it('on a phone every settings tab is on screen and "Jump to section" brings a section to the top', async () => {
    const s = await openSession(browser, gateway.baseUrl, { width: 390, height: 800 });
    await logIn(s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    await s.page.goto('/admin/settings?tab=system');
    const tabs = s.page.getByRole('tab');
    // The settings page is a chunk of its own, loaded on first visit: slow on a busy machine.
    await expect.poll(() => tabs.count(), { timeout: 15_000 }).toBe(5);
    for (const tab of await tabs.all()) {
      expect(await tab.isVisible()).toBe(true);
      const b = await box(tab);
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(390);
    }
    await s.page.getByTestId('section-turnstile').waitFor();
    expect(await widestRight(s.page)).toBeLessThanOrEqual(391);

    const jump = s.page.getByTestId('section-jump');
    await jump.click();
    const smtp = s.page.getByTestId('section-smtp');
    expect((await box(smtp)).y).toBeGreaterThan(800);
    await s.page.getByRole('option', { name: 'SMTP (outgoing e-mail)' }).click();
    // A section far below: scrolled up to just under the header and the jump box.
    await expect.poll(async () => (await box(smtp)).y, { timeout: 5000 }).toBeLessThan(220);
    expect((await box(smtp)).y).toBeGreaterThan(40);
    // The jump box stays in view at the top while the page is scrolled.
    const j = await box(jump);
    expect(j.y).toBeGreaterThanOrEqual(55);
    expect(j.y).toBeLessThan(130);
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('"Forgot password?" shows only when the gateway can send mail', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await s.page.goto('/login');
    await s.page.getByLabel('Username or e-mail').waitFor();
    await expect(s.page.getByText('Forgot password?').count()).resolves.toBe(0);
    await gateway.test.deps.services.options.update('SMTPServer', 'smtp.example.com');
    await s.page.reload();
    await s.page.getByText('Forgot password?').waitFor();
    await gateway.test.deps.services.options.update('SMTPServer', '');
    await s.context.close();
  });
});

describe('setup wizard', () => {
  let gateway: Gateway;
  let browser: Browser;
  beforeAll(async () => {
    gateway = await startGateway();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('lands the new root signed in on the console', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await s.page.goto('/');
    await s.page.waitForURL('**/setup');
    await s.page.getByLabel('Username').fill('owner');
    await s.page.getByLabel('Password', { exact: true }).fill('Owner-pass-1');
    await s.page.getByLabel('Confirm password').fill('Owner-pass-1');
    await s.page.getByRole('button', { name: 'Initialise system' }).click();
    await s.page.getByText('You are signed in as the administrator', { exact: false }).waitFor();
    await s.page.waitForURL('**/admin/channels', { timeout: 10_000 });
    // Signed in for real: an admin-only list loads, and the header shows the account.
    await s.page.getByRole('heading', { name: 'Manage channels' }).waitFor();
    await s.page.locator('header').getByText('owner').waitFor();
    expect(s.errors).toEqual([]);
    await s.context.close();
  });
});
