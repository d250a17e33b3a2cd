import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, launchChromium, openSession, type Session, logIn } from './harness.ts';

const ROOT = { username: 'root', password: 'root-password-1' };
const ALICE = { username: 'alice', password: 'alice-password-1' };

const logInAndWait = async (s: Session, who: { username: string; password: string }) => {
  await logIn(s, who);
  await s.page.getByRole('heading', { name: 'API tokens' }).waitFor();
};

describe('fresh install in a browser', () => {
  let gateway: Gateway;
  let browser: Browser;
  let s: Session;

  beforeAll(async () => {
    const { startGateway } = await import('./harness.ts');
    gateway = await startGateway();
    browser = await launchChromium();
    s = await openSession(browser, gateway.baseUrl);
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('sends every page to the setup wizard before setup', async () => {
    await s.page.goto('/app/tokens');
    await s.page.waitForURL('**/setup');
    await s.page.getByRole('heading', { name: 'Set up Switchyard' }).waitFor();
  });

  it('refuses a short password and mismatched confirmation in the wizard', async () => {
    await s.page.getByLabel('Username').fill(ROOT.username);
    await s.page.getByLabel('Password', { exact: true }).fill('short');
    await s.page.getByLabel('Confirm password').fill('different');
    await s.page.getByRole('button', { name: 'Initialise system' }).click();
    await s.page.getByText('Password must be at least 8 characters').waitFor();
    await s.page.getByText('The two passwords do not match').waitFor();
  });

  it('initialises the system and lands root signed in on the channels page', async () => {
    await s.page.getByLabel('Password', { exact: true }).fill(ROOT.password);
    await s.page.getByLabel('Confirm password').fill(ROOT.password);
    await s.page.getByRole('button', { name: 'Initialise system' }).click();
    await s.page.getByText('System initialised').waitFor();
    // Issue 22: the wizard signs the new root in; after 1.5 s the console opens where a gateway starts.
    await s.page.waitForURL((url) => url.pathname === '/admin/channels', { timeout: 10_000 });
    await s.page.getByTestId('user-menu').waitFor();
    // Issue 31: the groups users may choose are described in the language the wizard ran in.
    const groups = await s.page.evaluate(async () => (await (await fetch('/api/user/groups')).json()).data);
    expect(groups.default.desc).toBe('Default group');
    // An initialised system sends /setup to the home page.
    await s.page.goto('/setup');
    await s.page.waitForURL((url) => url.pathname === '/');
    await s.page.getByTestId('base-url').waitFor();
  });

  it('asks for both fields on the login page', async () => {
    await s.page.goto('/login');
    await s.page.getByRole('button', { name: 'Log in', exact: true }).last().click();
    await s.page.getByText('Please enter username and password!').waitFor();
  });

  it('logs root in and lands on /app/tokens inside the console shell', async () => {
    await logInAndWait(s, ROOT);
    await s.page.getByTestId('user-menu').waitFor();
    await expect(s.page.getByRole('link', { name: 'User management' }).isVisible()).resolves.toBe(true);
    const stored = await s.page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
    expect(stored).toMatchObject({ username: 'root', role: 100 });
  });

  it('creates a user in /admin/users', async () => {
    await s.page.getByRole('link', { name: 'User management' }).click();
    await s.page.waitForURL('**/admin/users');
    await s.page.getByRole('button', { name: 'Add user' }).click();
    const drawer = s.page.getByRole('dialog', { name: 'Add user' });
    await drawer.getByLabel('Username').fill(ALICE.username);
    await drawer.getByLabel('Display name').fill('Alice Liddell');
    await drawer.locator('input[type=password]').fill(ALICE.password);
    await drawer.getByRole('button', { name: 'Create' }).click();
    await s.page.getByRole('cell', { name: /alice/ }).first().waitFor();
    await expect(s.page.getByText('Alice Liddell').isVisible()).resolves.toBe(true);
  });

  it('logs out from the avatar menu', async () => {
    await s.page.getByTestId('user-menu').click();
    await s.page.getByRole('menuitem', { name: 'Log out' }).click();
    await s.page.waitForURL('**/login');
    expect(await s.page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  });

  it('lets the new user log in, landing on /app/tokens without the admin section', async () => {
    await logInAndWait(s, ALICE);
    await s.page.getByTestId('user-menu').waitFor();
    await expect(s.page.getByTestId('user-menu').innerText()).resolves.toContain('alice');
    await expect(s.page.getByRole('link', { name: 'Personal settings' }).isVisible()).resolves.toBe(true);
    await expect(s.page.getByRole('link', { name: 'User management' }).count()).resolves.toBe(0);
  });

  it('tells a normal user that admin pages are not for them', async () => {
    // Issues 22 and 31: home, as the spec says, with a toast saying why (not a silent redirect).
    await s.page.goto('/admin/users');
    await s.page.waitForURL((url) => url.pathname === '/');
    await s.page.getByText('Only administrators can open that page', { exact: false }).waitFor();
  });

  it('sends an expired session to the login page and back to where the user was', async () => {
    await s.context.clearCookies();
    await s.page.goto('/app/me');
    await s.page.waitForURL((url) => url.pathname === '/login' && url.search === '?expired=true&returnTo=%2Fapp%2Fme');
    await s.page.getByTestId('expired').waitFor();
    expect(await s.page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await s.page.getByLabel('Username or e-mail').fill(ALICE.username);
    await s.page.getByLabel('Password', { exact: true }).fill(ALICE.password);
    await s.page.getByRole('button', { name: 'Log in', exact: true }).last().click();
    await s.page.waitForURL('**/app/me');
    await s.page.getByTestId('balance').waitFor();
  });

  it('shows a user deleted by the admin as deactivated, without row actions', async () => {
    await s.page.getByTestId('user-menu').click();
    await s.page.getByRole('menuitem', { name: 'Log out' }).click();
    await logInAndWait(s, ROOT);
    await s.page.goto('/admin/users');
    const row = s.page.getByRole('row', { name: /alice/ });
    await row.getByRole('button', { name: 'More actions' }).click();
    await s.page.getByRole('menuitem', { name: 'Delete' }).click();
    await s.page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await row.getByText('Deactivated').waitFor();
    await expect(row.getByRole('button', { name: 'Edit' }).count()).resolves.toBe(0);
  });

  it('raised no uncaught errors in the page', () => {
    expect(s.errors).toEqual([]);
  });
});
