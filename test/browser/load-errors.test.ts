import { describe, expect, it } from 'vitest';
import { rootConsole, type Session } from './harness.ts';

/** Makes every console call to `procedure` fail as a dropped connection would. */
const failCallsTo = (s: Session, procedure: string) =>
  s.page.route(
    (url) => url.pathname.startsWith('/trpc/') && url.pathname.includes(procedure),
    (route) => route.abort('connectionreset'),
  );

describe('a page whose data cannot be loaded says so (console spec §8)', () => {
  const c = rootConsole();

  it('a failed list load shows the error in a toast, once, instead of an empty table alone', async () => {
    await failCallsTo(c.s, 'redemptions.list');
    await c.s.page.goto('/admin/coupons');
    const toast = c.s.page.getByRole('alert').filter({ hasText: 'Failed to fetch' });
    await toast.first().waitFor();
    // A search fails again: still one toast for the one message.
    await c.s.page.getByPlaceholder('Search by ID or name').fill('spring');
    await c.s.page.getByRole('button', { name: 'Search' }).click();
    await c.s.page.waitForTimeout(500);
    await expect(toast.count()).resolves.toBe(1);
    await c.s.page.unrouteAll();
  });

  it('the inbox uses its own wording for a failed load', async () => {
    await failCallsTo(c.s, 'inbox.list');
    await c.s.page.goto('/app/inbox');
    await c.s.page.getByRole('alert').filter({ hasText: 'Failed to load messages' }).waitFor();
    await expect(c.s.page.getByRole('alert').filter({ hasText: 'Failed to fetch' }).count()).resolves.toBe(0);
    await c.s.page.unrouteAll();
    expect(c.s.errors).toEqual([]);
  });
});
