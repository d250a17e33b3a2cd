import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertChannel } from '../relay-fixtures.ts';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, type Session, startGateway } from './harness.ts';
import { CONSOLE_PAGES, openSettled, textsMatching, VISITOR_PAGES } from './page-walk.ts';

/*
 * Issue 22 acceptance: an English console shows no Chinese on any page after a session of typical
 * use. Root adds the demo channel, creates a token, chats in the playground, redeems a code, checks
 * in, changes a user's quota and gets a message; a channel whose upstream is gone is auto-disabled by
 * the channel tests, which tells root in the inbox. Then every page (and every settings tab, every
 * usage-log row's details, the disabled channel's reason, the notice itself, the user menu) is read
 * for CJK text. User data is written in English here, so anything Chinese is ours.
 * The language switch is the one deliberate exception: it is labelled "中文 / English".
 */

const CJK = /[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]/;

/** Every text on the page with CJK in it, with the test id or tag of its element. */
const chineseOn = (page: Page) => textsMatching(page, CJK);

describe('an English console after typical use', () => {
  let gateway: Gateway;
  let browser: Browser;
  let s: Session;

  beforeAll(async () => {
    gateway = await startGateway({ demoChannel: true });
    const t = gateway.test;
    // An English install: root is "Root User" there, 超级管理员 on a Chinese one (issue 45).
    await setupRoot(t, { language: 'en' });
    const options = t.deps.services.options;
    await options.update('CheckInEnabled', 'true');
    await options.update('DataExportEnabled', 'true');
    await options.update('Chats', JSON.stringify([{ 'Chat app': 'https://chat.example/#/?key={key}' }]));
    browser = await launchChromium();
    s = await openSession(browser, gateway.baseUrl);
    await logIn(s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('uses the console as a new operator would', async () => {
    const page = s.page;
    // The demo channel, from the channels page.
    await page.goto('/admin/channels');
    await page.getByTestId('add-demo-channel').click();
    await page.getByRole('row').filter({ hasText: 'Demo (fake answers' }).waitFor();
    // A token.
    await page.goto('/app/tokens');
    await page.getByRole('button', { name: 'Add token' }).click();
    const drawer = page.getByRole('dialog', { name: 'Create token' });
    await drawer.getByLabel('Name', { exact: true }).fill('walk');
    await drawer.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('created-key').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    // A chat in the playground, answered by the demo channel.
    await page.goto('/playground');
    await page.getByText('gpt-4o-mini', { exact: true }).first().waitFor({ timeout: 20_000 });
    await page.getByLabel('Message', { exact: true }).fill('Hello, gateway');
    await page.getByLabel('Message', { exact: true }).press('Enter');
    const answer = page.getByTestId('message-assistant');
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 15_000 }).toBe('complete');
    // A redemption code, redeemed, and a wrong one refused.
    await page.goto('/admin/coupons');
    await page.getByTestId('create-codes').click();
    const create = page.getByRole('dialog', { name: 'Create redemption codes' });
    await create.getByText('$10', { exact: true }).click();
    await create.getByRole('button', { name: 'Create', exact: true }).click();
    const key = (await page.getByTestId('generated-keys').innerText()).trim().split(/\s+/)[0];
    await page.keyboard.press('Escape');
    await page.goto(`/app/wallet?code=${encodeURIComponent(key)}`);
    await page.getByTestId('redeem-submit').click();
    await page.getByText('Redeemed successfully', { exact: false }).waitFor();
    await page.getByTestId('redeem-code').fill('no-such-code');
    await page.getByTestId('redeem-submit').click();
    await page.getByText('Invalid redemption code').waitFor();
    // Check-in, and a message in the inbox.
    await page.goto('/app/me');
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await page.getByText('Checked in', { exact: false }).first().waitFor();
    const root = await gateway.test.deps.db
      .selectFrom('users')
      .select(['id', 'role'])
      .where('username', '=', ROOT_USERNAME)
      .executeTakeFirstOrThrow();
    await gateway.test.deps.services.messages.create(
      { title: 'Welcome', content: 'Hello from the admin', format: 'markdown', userIds: [Number(root.id)] },
      Number(root.id),
    );
    // A channel with no upstream behind it, auto-disabled by the channel tests: a reason on the
    // channels page and a notice in root's inbox, both worded by the gateway.
    await gateway.test.deps.services.options.update('AutomaticDisableChannelEnabled', 'true');
    await insertChannel(gateway.test.deps, { name: 'Dead end', baseUrl: 'http://127.0.0.1:9', models: ['dead-model'] });
    await gateway.test.deps.services.channels.testAll();
    // An administrator's quota change (a log row of its own kind).
    const walker = await createUser(gateway.test, { username: 'walker' });
    await gateway.test.deps.services.users.updateUser(
      { id: Number(root.id), role: Number(root.role) },
      { id: walker.id, add_quota: 500_000 },
    );
    expect(s.errors).toEqual([]);
  });

  it('then shows no Chinese on any page', async () => {
    const page = s.page;
    const found: string[] = [];
    for (const path of CONSOLE_PAGES) {
      await openSettled(page, path);
      if (path === '/app/logs/api-usage') {
        // Rows of every kind the walk made, each opened: the lines the server wrote are read too.
        const table = page.getByTestId('log-table');
        const rows = table.locator('tbody tr.mantine-datatable-row');
        await expect.poll(() => rows.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
        const count = await rows.count();
        for (let i = 0; i < count; i++) await rows.nth(i).click();
        await expect.poll(() => page.getByTestId('log-details').count()).toBe(count);
        // The type is in the row or, when the table had no room for it, in the row's details.
        for (const kind of ['Consumption', 'Top-up', 'Check-in', 'Admin'])
          await table.locator('tbody').getByText(kind, { exact: true }).first().waitFor({ timeout: 5_000 });
      }
      if (path === '/admin/channels') {
        // The auto-disabled channel's reason, in its tooltip.
        await page.getByTestId('auto-disabled').first().hover();
        await page.getByText('Cannot connect to the upstream', { exact: false }).first().waitFor();
      }
      for (const f of await chineseOn(page)) found.push(`${path} ${f}`);
      if (path === '/app/inbox') {
        // The channel notice, opened.
        await page.getByTestId('inbox-row').filter({ hasText: 'Dead end' }).first().click();
        await page.getByTestId('message-content').waitFor();
        for (const f of await chineseOn(page)) found.push(`${path} (notice) ${f}`);
      }
    }
    // The user menu.
    await page.getByTestId('user-menu').click();
    for (const f of await chineseOn(page)) found.push(`user menu ${f}`);
    expect(found).toEqual([]);
  });

  it('and signed out: login, register, reset, a visitor on /chat', async () => {
    const visitor = await openSession(browser, gateway.baseUrl);
    const found: string[] = [];
    for (const path of VISITOR_PAGES) {
      await openSettled(visitor.page, path);
      for (const f of await chineseOn(visitor.page)) found.push(`${path} ${f}`);
    }
    expect(found).toEqual([]);
    await visitor.context.close();
  });
});
