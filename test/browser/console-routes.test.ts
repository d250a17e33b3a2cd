import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../shared/constants.ts';
import { insertChannel, insertToken } from '../relay-fixtures.ts';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setOption, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, type Session, startGateway } from './harness.ts';

/*
 * Console spec §2.15 and §2.1: the sidebar's Chat submenu is built from the saved chat links
 * (one entry each, opening /app/chat/{index} beside a 240 px sidebar), and the spec's
 * /channel/*, /user/edit* paths open the channel and user panels on their admin pages.
 */

const ROOT = { username: ROOT_USERNAME, password: ROOT_PASSWORD };
const ALICE = { username: 'alice', password: 'alice-pass-1' };

const navbarWidth = (page: Page) =>
  page.locator('.mantine-AppShell-navbar').evaluate((el) => Math.round(el.getBoundingClientRect().width));

describe('sidebar chat submenu and panel routes in a browser', () => {
  let gateway: Gateway;
  let browser: Browser;
  let root: Session;
  let channelId = 0;
  let aliceId = 0;

  beforeAll(async () => {
    [gateway, browser] = await Promise.all([startGateway(), launchChromium()]);
    const t = gateway.test;
    const rootRow = await setupRoot(t);
    // Two clients; the iframe's target is a page of the gateway itself, so the frame loads offline.
    await setOption(
      t,
      'Chats',
      JSON.stringify([
        { 'Next Chat': `${gateway.baseUrl}/healthz?client=next&key={key}&url={address}` },
        { 'Lobe Chat': `${gateway.baseUrl}/healthz?client=lobe&key={key}` },
      ]),
    );
    await insertToken(t.deps, Number(rootRow.id), { name: 'chat-token' });
    channelId = await insertChannel(t.deps, { name: 'Edit me', baseUrl: 'http://127.0.0.1:9', models: ['gpt-4o'] });
    aliceId = (await createUser(t, { ...ALICE, role: Role.Common })).id;
    root = await openSession(browser, gateway.baseUrl);
    await logIn(root, ROOT);
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('lists one Chat entry per saved chat link; opening the submenu widens the sidebar to 240', async () => {
    const { page } = root;
    const nav = page.locator('.mantine-AppShell-navbar');
    const chat = nav.getByRole('button', { name: 'Chat', exact: true });
    await expect(chat.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(navbarWidth(page)).resolves.toBe(200);
    await chat.click();
    const entries = nav.getByTestId('submenu-chat').getByRole('link');
    await expect.poll(() => entries.allInnerTexts()).toEqual(['Next Chat', 'Lobe Chat']);
    await expect(entries.nth(1).getAttribute('href')).resolves.toBe('/app/chat/1');
    await expect.poll(() => navbarWidth(page)).toBe(240);
  });

  it('opens the chosen client beside the sidebar, with the entry marked', async () => {
    const { page } = root;
    const nav = page.locator('.mantine-AppShell-navbar');
    await nav.getByRole('link', { name: 'Lobe Chat' }).click();
    await page.waitForURL('**/app/chat/1');
    const frame = page.locator('iframe[title="Lobe Chat"]');
    await expect.poll(() => frame.getAttribute('src')).toMatch(/\/healthz\?client=lobe&key=sk-[0-9a-f]{48}$/);
    await expect(nav.getByRole('link', { name: 'Lobe Chat' }).getAttribute('data-active')).resolves.toBe('true');
    await expect(nav.getByRole('link', { name: 'Next Chat' }).getAttribute('data-active')).resolves.toBeNull();
    await expect(navbarWidth(page)).resolves.toBe(240);
  });

  it('opens the submenu by itself when a chat page is loaded directly, and closes it on a click', async () => {
    const { page } = root;
    await page.goto('/app/chat/0');
    await page.locator('iframe[title="Next Chat"]').waitFor();
    const nav = page.locator('.mantine-AppShell-navbar');
    const chat = nav.getByRole('button', { name: 'Chat', exact: true });
    await expect(chat.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(navbarWidth(page)).resolves.toBe(240);
    await chat.click();
    await expect.poll(() => navbarWidth(page)).toBe(200);
  });

  it('keeps the entries in a menu beside the icon when the sidebar is collapsed to 60', async () => {
    const { page } = root;
    await page.locator('.mantine-AppShell-navbar').getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect.poll(() => navbarWidth(page)).toBe(60);
    await page.locator('.mantine-AppShell-navbar').getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Next Chat' }).waitFor();
    await page.getByRole('menuitem', { name: 'Lobe Chat' }).click();
    await page.waitForURL('**/app/chat/1');
    await expect(navbarWidth(page)).resolves.toBe(60);
    await page.locator('.mantine-AppShell-navbar').getByRole('button', { name: 'Expand sidebar' }).click();
    await expect.poll(() => navbarWidth(page)).toBe(240);
  });

  it('shows the entries in the drawer on a phone', async () => {
    const phone = await openSession(browser, gateway.baseUrl, { width: 390, height: 844 });
    await logIn(phone, ROOT);
    await phone.page.goto('/app/chat/1');
    await phone.page.locator('iframe[title="Lobe Chat"]').waitFor();
    const frameWidth = await phone.page.locator('iframe').evaluate((el) => el.getBoundingClientRect().width);
    expect(frameWidth).toBe(390);
    await phone.page.getByRole('button', { name: 'menu' }).click();
    const drawer = phone.page.getByRole('dialog');
    await expect(drawer.getByRole('button', { name: 'Chat', exact: true }).getAttribute('aria-expanded')).resolves.toBe(
      'true',
    );
    await drawer.getByRole('link', { name: 'Next Chat' }).click();
    await phone.page.waitForURL('**/app/chat/0');
    await drawer.waitFor({ state: 'hidden' });
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });

  it('drops the submenu when no chat link is saved', async () => {
    await setOption(gateway.test, 'Chats', '[]');
    const { page } = root;
    await page.goto('/app/tokens');
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    const nav = page.locator('.mantine-AppShell-navbar');
    await nav.getByRole('link', { name: 'Playground' }).waitFor();
    await expect(nav.getByRole('button', { name: 'Chat', exact: true }).count()).resolves.toBe(0);
    await expect(navbarWidth(page)).resolves.toBe(200);
  });

  it('opens the channel edit panel from /channel/edit/:id and the add panel from /channel/add', async () => {
    const { page } = root;
    await page.goto(`/channel/edit/${channelId}`);
    await page.waitForURL((url) => url.pathname === '/admin/channels' && url.search === '');
    const drawer = page.getByRole('dialog', { name: `Edit channel #${channelId}` });
    await expect.poll(() => drawer.getByLabel(/^Name/).inputValue()).toBe('Edit me');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    await page.goto('/channel/add');
    await page.waitForURL((url) => url.pathname === '/admin/channels');
    await expect(page.getByRole('dialog', { name: 'Add channel' }).getByLabel(/^Name/).inputValue()).resolves.toBe('');
  });

  it('says so when /channel/edit/:id names no channel', async () => {
    const { page } = root;
    await page.goto('/channel/edit/9999');
    await page.waitForURL((url) => url.pathname === '/admin/channels');
    await page.locator('.mantine-Notification-root').first().waitFor();
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
  });

  it('opens the user edit panel from /user/edit/:id, and personal settings from /user/edit', async () => {
    const { page } = root;
    await page.goto(`/user/edit/${aliceId}`);
    await page.waitForURL((url) => url.pathname === '/admin/users' && url.search === '');
    const drawer = page.getByRole('dialog', { name: 'Edit user' });
    await expect.poll(() => drawer.getByLabel('Username').inputValue()).toBe(ALICE.username);

    await page.goto('/user/edit');
    await page.waitForURL((url) => url.pathname === '/app/me');
    expect(root.errors).toEqual([]);
  });

  it('gives a common user what guarded admin pages give: home, with a "no permission" toast', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await logIn(s, ALICE);
    // Issues 22 and 31: sent home as the spec says, and told why.
    await s.page.goto(`/user/edit/${aliceId}`);
    await s.page.waitForURL((url) => url.pathname === '/');
    await s.page.getByText('Only administrators can open that page', { exact: false }).waitFor();
    await s.page.goto(`/channel/edit/${channelId}`);
    await s.page.waitForURL((url) => url.pathname === '/');
    await s.page.getByText('No permission').first().waitFor();
    await s.context.close();

    const visitor = await openSession(browser, gateway.baseUrl);
    await visitor.page.goto(`/channel/edit/${channelId}`);
    await visitor.page.waitForURL(
      (url) => url.pathname === '/login' && url.searchParams.get('returnTo') === `/admin/channels?edit=${channelId}`,
    );
    await visitor.context.close();
  });
});
