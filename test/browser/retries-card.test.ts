import { describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, ROOT_USERNAME } from '../users.ts';
import { restSignIn, rootConsole, signedInSession } from './harness.ts';
import { overflowing } from './layout-checks.ts';

/*
 * The one "Retries" card of the model settings (issue 28): on a fresh install it says failover is on
 * (3 other channels, the built-in statuses); an admin's change is saved under both of the count's
 * option names and the card states the new rule; it reads in English and Chinese at desktop and phone
 * widths without overflowing. Its pictures: `node --import tsx scripts/screenshots.ts --scene retries`.
 */

const f = rootConsole();

async function storedOptions() {
  const user = JSON.parse((await f.s.page.evaluate(() => localStorage.getItem('user'))) ?? '{}') as { id: number };
  return f.s.page.evaluate(async (id) => {
    const res = await fetch('/api/option/', { headers: { 'New-Api-User': String(id) } });
    const rows = ((await res.json()) as { data: { key: string; value: string }[] }).data;
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }, user.id);
}

describe('retries card', () => {
  it('states the default rule, saves a change under both names and states the new rule', async () => {
    const { page } = f.s;
    await page.goto('/admin/settings?tab=models');
    const card = page.getByTestId('section-retries');
    const summary = card.getByTestId('retries-summary');
    await expect.poll(() => summary.innerText()).toContain('retried on up to 3 other channels');
    expect(await summary.innerText()).toContain('429,500-503,505-523,525-599');
    const statuses = card.getByLabel('Retried upstream statuses');
    expect(await statuses.isDisabled()).toBe(true);
    // The old separate fields are gone from the page: one place for retries.
    expect(await page.getByText('Automatic retry', { exact: true }).count()).toBe(0);

    await card.getByLabel('Other channels to try').fill('5');
    await card.getByLabel('Custom list of retried statuses').check({ force: true });
    expect(await statuses.isDisabled()).toBe(false);
    await statuses.fill('429,5xx');
    await card.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved', { exact: true }).first().waitFor();
    await expect.poll(() => summary.innerText()).toContain('retried on up to 5 other channels');
    expect(await summary.innerText()).toContain('429,5xx');
    const o = await storedOptions();
    expect(o).toMatchObject({
      RetryTimes: '5',
      'global.auto_retry_count': '5',
      'global.auto_retry_enabled': 'true',
      'global.auto_retry_status_codes': '429,5xx',
    });

    // Back to the defaults for the languages and widths below.
    await card.getByLabel('Other channels to try').fill('3');
    await card.getByLabel('Custom list of retried statuses').uncheck({ force: true });
    await card.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => summary.innerText()).toContain('retried on up to 3 other channels');
    expect(f.s.errors).toEqual([]);
  });

  it('reads in English and Chinese at 1366 and 390 px without overflow', async () => {
    // Signed in over REST (the login form's labels are Chinese in the zh session).
    const auth = await restSignIn(f.gateway.baseUrl, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    for (const lang of ['en', 'zh'] as const)
      for (const width of [1366, 390]) {
        const opts = { lang, width, height: width < 600 ? 844 : 900 };
        const s = await signedInSession(f.browser, f.gateway.baseUrl, auth, opts);
        await s.page.goto('/admin/settings?tab=models');
        const card = s.page.getByTestId('section-retries');
        const summary = card.getByTestId('retries-summary');
        await summary.waitFor();
        const text = await card.innerText();
        if (lang === 'zh') {
          expect(text).toContain('重试');
          expect(await summary.innerText()).toContain('会在最多 3 个其他渠道上重试');
        } else expect(text).toContain('When a channel cannot be reached');
        await card.scrollIntoViewIfNeeded();
        expect(await overflowing(s.page), `${lang} ${width}`).toEqual([]);
        expect(s.errors).toEqual([]);
        await s.context.close();
      }
  });
});
