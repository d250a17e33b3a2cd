import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../shared/constants.ts';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, openSession, type Session, logIn } from './harness.ts';

const TITLE = 'Maintenance tonight';

describe('messages: an admin sends, a user reads, the admin sees the receipt', () => {
  let gateway: Gateway;
  let browser: Browser;
  let admin: Session;
  let alice: Session;
  const users = {
    alice: { username: 'alice', password: 'alice-pass-1' },
    bob: { username: 'bob', password: 'bob-pass-1' },
  };

  beforeAll(async () => {
    const { startGateway } = await import('./harness.ts');
    gateway = await startGateway();
    await setupRoot(gateway.test);
    await createUser(gateway.test, { ...users.alice, role: Role.Common });
    await createUser(gateway.test, { ...users.bob, role: Role.Common });
    browser = await launchChromium();
    admin = await openSession(browser, gateway.baseUrl);
    alice = await openSession(browser, gateway.baseUrl);
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('sends a markdown message to two users from /admin/messages', async () => {
    await logIn(admin, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    await admin.page.getByRole('link', { name: 'Message management' }).click();
    await admin.page.waitForURL('**/admin/messages');
    await admin.page.getByTestId('create-message').click();
    const drawer = admin.page.getByRole('dialog', { name: 'Create message' });

    // Sending with nothing filled in shows the three required-field messages.
    await drawer.getByRole('button', { name: 'Send' }).click();
    await drawer.getByText('Please enter the message title').waitFor();
    await drawer.getByText('Please enter the message content').waitFor();
    await drawer.getByText('Please select at least one recipient').waitFor();

    await drawer.getByLabel('Title').fill(TITLE);
    await drawer.getByRole('textbox', { name: /^Content/ }).fill('Upgrade at **22:00**, about *30 minutes*.');
    for (const name of ['alice', 'bob']) {
      await drawer.getByLabel('Recipients').fill(name);
      await drawer.getByRole('checkbox', { name: `Select ${name}` }).check();
    }
    await expect(drawer.getByTestId('recipient-count').innerText()).resolves.toBe('2 selected');
    await drawer.getByRole('button', { name: 'Send' }).click();
    await admin.page.getByText('Message created successfully').waitFor();
    const row = admin.page.getByRole('row', { name: new RegExp(TITLE) });
    await row.waitFor();
    await row.getByText('Markdown').waitFor();
    await expect(row.getByRole('cell', { name: '2', exact: true }).isVisible()).resolves.toBe(true);
  });

  it('shows the recipient an unread badge that clears once the message is opened', async () => {
    await logIn(alice, { username: users.alice.username, password: users.alice.password });
    const bell = alice.page.getByTestId('inbox-bell');
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Inbox, 1 unread');
    await bell.click();
    await alice.page.waitForURL('**/app/inbox');
    const row = alice.page.getByTestId('inbox-row').filter({ hasText: TITLE });
    await row.getByText('Unread', { exact: true }).waitFor();
    await expect(row.innerText()).resolves.toContain('Upgrade at 22:00, about 30 minutes.');
    await row.click();
    await alice.page.waitForURL(/\/app\/inbox\/\d+$/);
    await expect(alice.page.getByTestId('message-title').innerText()).resolves.toBe(TITLE);
    // Markdown rendered, not shown as source.
    await expect(alice.page.getByTestId('message-content').locator('strong').innerText()).resolves.toBe('22:00');
    await alice.page.getByTestId('message-read-at').waitFor();
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Inbox');
  });

  it("shows one read in the admin's edit drawer", async () => {
    await admin.page.reload();
    const row = admin.page.getByRole('row', { name: new RegExp(TITLE) });
    await row.getByRole('button', { name: 'Edit' }).click();
    const drawer = admin.page.getByRole('dialog', { name: 'Edit message' });
    await expect.poll(() => drawer.getByTestId('edit-read-count').innerText()).toBe('1');
    await expect(drawer.getByTestId('edit-recipient-count').innerText()).resolves.toBe('2');
    const aliceRow = drawer.getByRole('row', { name: /alice/ });
    await aliceRow.getByText('Read', { exact: true }).waitFor();
    const bobRow = drawer.getByRole('row', { name: /bob/ });
    await bobRow.getByText('Unread', { exact: true }).waitFor();
  });

  it('raised no uncaught errors in either page', () => {
    expect(admin.errors).toEqual([]);
    expect(alice.errors).toEqual([]);
  });
});
