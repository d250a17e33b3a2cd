import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, type Session } from './harness.ts';

/** Makes every console call to `procedure` fail as a dropped connection would. */
const failCallsTo = (s: Session, procedure: string) =>
  s.page.route(
    (url) => url.pathname.startsWith('/trpc/') && url.pathname.includes(procedure),
    (route) => route.abort('connectionreset'),
  );

describe('a page whose data cannot be loaded says so (console spec §8)', () => {
  let gateway: Gateway;
  let browser: Browser;
  let s: Session;

  beforeAll(async () => {
    const { startGateway } = await import('./harness.ts');
    gateway = await startGateway();
    await setupRoot(gateway.test);
    browser = await launchChromium();
    s = await openSession(browser, gateway.baseUrl);
    await logIn(s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('a failed list load shows the error in a toast, once, instead of an empty table alone', async () => {
    await failCallsTo(s, 'redemptions.list');
    await s.page.goto('/admin/coupons');
    const toast = s.page.getByRole('alert').filter({ hasText: 'Failed to fetch' });
    await toast.first().waitFor();
    // A search fails again: still one toast for the one message.
    await s.page.getByPlaceholder('Search by ID or name').fill('spring');
    await s.page.getByRole('button', { name: 'Search' }).click();
    await s.page.waitForTimeout(500);
    await expect(toast.count()).resolves.toBe(1);
    await s.page.unrouteAll();
  });

  it('the inbox uses its own wording for a failed load', async () => {
    await failCallsTo(s, 'inbox.list');
    await s.page.goto('/app/inbox');
    await s.page.getByRole('alert').filter({ hasText: 'Failed to load messages' }).waitFor();
    await expect(s.page.getByRole('alert').filter({ hasText: 'Failed to fetch' }).count()).resolves.toBe(0);
    await s.page.unrouteAll();
    expect(s.errors).toEqual([]);
  });
});
