import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { insertChannel } from '../relay-fixtures.ts';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, startGateway } from './harness.ts';
import { overflowing } from './layout-checks.ts';

/*
 * Issue 32, the model marketplace in Switchyard's console: an admin adds a vendor, creates a missing
 * model's metadata in one click and gives it a description, a tag and the vendor; a user then reads
 * them on the pricing page and filters the list by vendor and by tag. At phone width the admin list
 * is cards.
 */

const DESCRIPTION = 'Fast multimodal flagship';

/** A model's table row, or its card on a phone. */
const row = (page: Page, model: string) =>
  page.locator('tr, [data-testid="phone-card"]').filter({ hasText: model }).first();

/** Opens a select and clicks an option of its list. */
async function pick(page: Page, input: Locator, option: string) {
  await input.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('model metadata from the admin page to the pricing page', () => {
  let gateway: Gateway;
  let browser: Browser;
  let user: { username: string; password: string };

  beforeAll(async () => {
    gateway = await startGateway();
    await setupRoot(gateway.test);
    await insertChannel(gateway.test.deps, {
      name: 'Local upstream',
      baseUrl: 'http://127.0.0.1:9',
      models: ['gpt-4o', 'claude-3-haiku'],
    });
    user = await createUser(gateway.test);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('an admin adds a vendor, creates the missing model in one click and describes it', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await logIn(s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    await s.page.getByRole('link', { name: 'Model management' }).click();
    await s.page.waitForURL('**/admin/models');

    await s.page.getByRole('tab', { name: 'Vendors' }).click();
    await s.page.getByTestId('add-vendor').click();
    const vendorForm = s.page.getByTestId('vendor-form');
    await vendorForm.getByLabel('Name').fill('OpenAI');
    await vendorForm.getByLabel('Icon').fill('OpenAI.Color');
    await vendorForm.getByRole('button', { name: 'Save' }).click();
    await row(s.page, 'OpenAI').waitFor();

    await s.page.getByRole('tab', { name: /Missing models/ }).click();
    await s.page.getByTestId('create-missing-gpt-4o').click();
    await expect(row(s.page, 'claude-3-haiku').isVisible()).resolves.toBe(true);
    await s.page.getByTestId('create-missing-gpt-4o').waitFor({ state: 'detached' });

    await s.page.getByRole('tab', { name: 'Model metadata' }).click();
    const gpt = row(s.page, 'gpt-4o');
    await gpt.getByRole('button', { name: 'Edit' }).click();
    const form = s.page.getByTestId('model-form');
    await form.getByLabel('Description').fill(DESCRIPTION);
    await form.getByLabel('Tags').fill('vision');
    await form.getByLabel('Tags').press('Enter');
    await pick(s.page, form.getByLabel('Vendor', { exact: true }), 'OpenAI');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    const saved = await row(s.page, 'gpt-4o').innerText();
    expect(saved).toContain(DESCRIPTION);
    expect(saved).toContain('vision');
    expect(saved).toContain('OpenAI');
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('a user sees the description, tag and vendor on the pricing page and filters by vendor and tag', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await logIn(s, user);
    await s.page.goto('/pricing');
    const gpt = row(s.page, 'gpt-4o');
    await gpt.waitFor();
    await expect(gpt.getByTestId('model-description').innerText()).resolves.toBe(DESCRIPTION);
    await expect(gpt.getByTestId('model-vendor').innerText()).resolves.toContain('OpenAI');
    await expect(gpt.innerText()).resolves.toContain('vision');
    await row(s.page, 'claude-3-haiku').waitFor();

    await pick(s.page, s.page.getByPlaceholder('All vendors'), 'OpenAI');
    await row(s.page, 'claude-3-haiku').waitFor({ state: 'detached' });
    await expect(row(s.page, 'gpt-4o').isVisible()).resolves.toBe(true);
    await pick(s.page, s.page.getByPlaceholder('All vendors'), 'No vendor');
    await row(s.page, 'gpt-4o').waitFor({ state: 'detached' });
    await expect(row(s.page, 'claude-3-haiku').isVisible()).resolves.toBe(true);
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('on a phone the admin list is cards and the pricing filters fit the screen', async () => {
    const s = await openSession(browser, gateway.baseUrl, { width: 390, height: 844 });
    await logIn(s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    await s.page.goto('/admin/models');
    const card = s.page.locator('[data-testid="phone-card"]').filter({ hasText: 'gpt-4o' });
    await card.waitFor();
    await expect(card.innerText()).resolves.toContain('OpenAI');
    expect(await overflowing(s.page)).toEqual([]);
    await s.page.goto('/pricing');
    await pick(s.page, s.page.getByPlaceholder('All tags'), 'vision');
    await row(s.page, 'claude-3-haiku').waitFor({ state: 'detached' });
    await expect(row(s.page, 'gpt-4o').isVisible()).resolves.toBe(true);
    expect(s.errors).toEqual([]);
    await s.context.close();
  });
});
