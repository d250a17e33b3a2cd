import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEWAPI_FACTS, type NewApiDatabase, newApiDatabase } from '../newapi-db/index.ts';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, type RestAuth, restSignIn, signedInSession, startGateway } from './harness.ts';
import { overflowing } from './layout-checks.ts';

/*
 * The console's import from new-api (issue 42), as root does it: upload new-api's SQLite file, dry run (the report,
 * nothing written), import (progress, then the report with the balance check), and the imported user is in the
 * users page. The report is measured at 1366 and 390 px in both languages. IMPORT_SHOTS=<dir> also saves pictures
 * (light and dark) for review.
 */
describe('import from new-api in the console', () => {
  let gateway: Gateway;
  let browser: Browser;
  let auth: RestAuth;
  let source: NewApiDatabase;
  const shots = process.env.IMPORT_SHOTS;

  beforeAll(async () => {
    gateway = await startGateway();
    await setupRoot(gateway.test);
    // new-api as of today (2026), written the way new-api writes it: plans, subscriptions, two-factor, passkeys...
    source = await newApiDatabase({ kind: 'new-api-2026', dialect: 'sqlite' });
    browser = await launchChromium();
    auth = await restSignIn(gateway.baseUrl, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    if (shots) mkdirSync(shots, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await source?.close();
  });

  const picture = async (page: Page, name: string) => {
    if (shots) await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
  };

  it('uploads a new-api database, dry-runs it, imports it, and the user shows in the users page', async () => {
    const s = await signedInSession(browser, gateway.baseUrl, auth, { width: 1366 });
    const { page } = s;
    await page.goto('/app/tokens');
    await page.getByRole('link', { name: 'Import from new-api' }).click();
    await page.waitForURL('**/admin/import');
    await page.getByRole('heading', { name: 'Import from new-api' }).waitFor();

    // Nothing to import yet: both buttons wait for a source; Import also waits for a dry run.
    await expect(page.getByTestId('import-dry-run').isDisabled()).resolves.toBe(true);
    await page.locator('input[type=file]').setInputFiles(source.spec);
    await page.getByTestId('import-uploaded').getByText('new-api-2026.db').waitFor();
    await expect(page.getByTestId('import-run').isDisabled()).resolves.toBe(true);

    await page.getByTestId('import-dry-run').click();
    const report = page.getByTestId('import-report');
    await report.getByText('Dry run report: nothing was written').waitFor();
    await report.getByText('Balance check passed').waitFor();
    const usersRow = report.getByRole('row', { name: /^users\b/ });
    const subscriptionsRow = report.getByRole('row', { name: /^user_subscriptions\b/ });
    // Two-factor secrets are sealed with the gateway's own secret; the one never turned on stays behind.
    const twoFaRow = report.getByRole('row', { name: /^two_fa\s/ });
    const cells = async () => [
      await usersRow.getByRole('cell').allInnerTexts(),
      await subscriptionsRow.getByRole('cell').allInnerTexts(),
      await twoFaRow.getByRole('cell').allInnerTexts(),
    ];
    await expect(cells()).resolves.toEqual([
      ['users', '4', '4', '0'],
      ['user_subscriptions', '2', '2', '0'],
      ['two_fa', '2', '1', '1'],
    ]);
    await picture(page, 'dry-run-en-1366-light');
    const dryRunWrote = await gateway.test.deps.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'alice')
      .executeTakeFirst();
    expect(dryRunWrote).toBeUndefined();

    await page.getByTestId('import-run').click();
    await page
      .getByRole('dialog', { name: 'Import into this gateway?' })
      .getByRole('button', { name: 'Import' })
      .click();
    await page.getByText('Import finished').waitFor();
    await report.getByText('Import report').waitFor();
    await expect(cells()).resolves.toEqual([
      ['users', '4', '4', '0'],
      ['user_subscriptions', '2', '2', '0'],
      ['two_fa', '2', '1', '1'],
    ]);
    await report.getByText('Balance check passed').waitFor();
    // The uploaded file is gone once imported.
    await expect(page.getByTestId('import-uploaded').count()).resolves.toBe(0);
    await picture(page, 'imported-en-1366-light');

    await page.getByRole('link', { name: 'User management' }).click();
    await page.waitForURL('**/admin/users');
    await page.getByRole('row', { name: /alice/ }).waitFor();
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('shows the report without sideways scrolling at 1366 and 390 px, in both languages', async () => {
    // new-api's root (id 1) took the place of this gateway's: root now signs in with new-api's password.
    await expect(restSignIn(gateway.baseUrl, { username: ROOT_USERNAME, password: ROOT_PASSWORD })).rejects.toThrow();
    auth = await restSignIn(gateway.baseUrl, { username: 'root', password: NEWAPI_FACTS.password });
    for (const lang of ['zh', 'en'] as const)
      for (const width of [1366, 390])
        for (const theme of shots ? (['light', 'dark'] as const) : (['light'] as const)) {
          const s = await signedInSession(browser, gateway.baseUrl, auth, { width, lang, theme });
          await s.page.goto('/admin/import');
          await s.page.getByTestId('import-report').waitFor();
          await s.page.getByTestId('import-balance').waitFor();
          expect(await overflowing(s.page), `${lang} ${width}`).toEqual([]);
          // The per-table counts stay inside the report card's padding (long table names break after an underscore).
          const card = await s.page.getByTestId('import-report').boundingBox();
          const table = await s.page.getByTestId('import-report').getByRole('table').boundingBox();
          expect(table!.x + table!.width, `${lang} ${width}`).toBeLessThanOrEqual(card!.x + card!.width - 15);
          await picture(s.page, `report-${lang}-${width}-${theme}`);
          expect(s.errors).toEqual([]);
          await s.context.close();
        }
  });
});
