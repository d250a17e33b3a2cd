import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optionRegistry } from '../../shared/options.ts';
import { SHIPPED_PRICE_COUNT } from '../../shared/preset-prices.ts';
import { setOptions } from '../relay-fixtures.ts';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import {
  type Gateway,
  launchChromium,
  openSession,
  type RestAuth,
  restSignIn,
  signedInSession,
  startGateway,
} from './harness.ts';

/*
 * Issue 39 items 3 and 4 in Chromium, at 1366 and 390 px. A price staged with Model pricing ›
 * Add model › Apply is unsaved: the page names it in a bar, a sidebar link asks before leaving
 * (Stay keeps the edit, Leave drops it) and a reload raises the browser's beforeunload question.
 * The shipped preset prices are marked, can be kept after review or cleared in one step (those
 * models then have no price), and the setup wizard can start without them.
 * SHOTS_DIR=<folder> also saves screenshots (light and dark) to look at.
 */

const SHOTS = process.env.SHOTS_DIR;
const STAGED = 'house-model';
const pricingKeys = [
  'ModelPrice',
  'ModelRatio',
  'CompletionRatio',
  'CacheRatio',
  'CacheCreationRatio',
  'PresetPricesReviewed',
] as const;

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** A sidebar link; on a phone the sidebar sits behind the header's menu button. */
async function clickSidebar(page: Page, width: number, name: string) {
  if (width >= 600) return page.getByRole('link', { name, exact: true }).first().click();
  await page.getByRole('button', { name: 'menu' }).click();
  await page.getByRole('dialog').getByRole('link', { name, exact: true }).click();
}

describe('unsaved prices and preset prices', () => {
  let gateway: Gateway;
  let browser: Browser;
  let auth: RestAuth;

  beforeAll(async () => {
    gateway = await startGateway();
    await setupRoot(gateway.test);
    browser = await launchChromium();
    auth = await restSignIn(gateway.baseUrl, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  const ratios = () => gateway.test.deps.services.options.get('ModelRatio');

  for (const width of [1366, 390])
    it(`a staged price is named, asked about before leaving and on reload (${width} px)`, async () => {
      const s = await signedInSession(browser, gateway.baseUrl, auth, { width, height: width < 600 ? 844 : 860 });
      const { page } = s;
      await page.goto('/admin/settings?tab=operation');
      const section = page.getByTestId('section-pricing');
      await section.getByRole('button', { name: 'Add model' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add model' });
      await dialog.getByLabel('Model name').fill(STAGED);
      await dialog.getByTestId('price-ratio').fill('0.5');
      await dialog.getByTestId('price-apply').click();
      await dialog.waitFor({ state: 'detached' });

      const bar = page.getByTestId('unsaved-bar');
      await bar.waitFor();
      const said = await bar.innerText();
      expect(said).toContain('1 unsaved change');
      expect(said).toContain(`Model pricing: ${STAGED}`);
      await bar.scrollIntoViewIfNeeded();
      await shot(page, `unsaved-bar-light-${width}`);

      // A sidebar link asks; Stay keeps the page and the staged price.
      await clickSidebar(page, width, 'Channels');
      const confirm = page.getByRole('dialog', { name: 'Leave without saving?' });
      await confirm.waitFor();
      expect(await confirm.innerText()).toContain(STAGED);
      await shot(page, `unsaved-confirm-light-${width}`);
      await confirm.getByTestId('unsaved-stay').click();
      await confirm.waitFor({ state: 'detached' });
      expect(new URL(page.url()).pathname).toBe('/admin/settings');
      expect(await bar.innerText()).toContain(STAGED);
      await section.getByPlaceholder('Search models').fill('house');
      await section.getByTestId(`price-row-${STAGED}`).waitFor();

      // A reload raises the browser's own question; dismissing it stays, edit intact.
      // The dismissed reload never finishes loading: its promise is left to fail on its own
      // (caught) rather than awaited to a timeout.
      const asked = page.waitForEvent('dialog');
      void page.reload({ timeout: 5_000 }).catch(() => undefined);
      const question = await asked;
      expect(question.type()).toBe('beforeunload');
      await question.dismiss();
      await section.getByTestId(`price-row-${STAGED}`).waitFor();
      expect(new URL(page.url()).pathname).toBe('/admin/settings');

      // Leave without saving: the console moves on and the price was never charged.
      await clickSidebar(page, width, 'Channels');
      await confirm.waitFor();
      await confirm.getByTestId('unsaved-leave').click();
      await page.waitForURL('**/admin/channels');
      expect(ratios()[STAGED]).toBeUndefined();
      expect(s.errors).toEqual([]);
      await s.context.close();
    });

  it('the bar saves and discards', async () => {
    const s = await signedInSession(browser, gateway.baseUrl, auth);
    const { page } = s;
    await page.goto('/admin/settings?tab=operation');
    const section = page.getByTestId('section-pricing');
    const bar = page.getByTestId('unsaved-bar');
    const stage = async (name: string) => {
      await section.getByRole('button', { name: 'Add model' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add model' });
      await dialog.getByLabel('Model name').fill(name);
      await dialog.getByTestId('price-ratio').fill('0.25');
      await dialog.getByTestId('price-apply').click();
      await bar.waitFor();
    };
    await stage('dropped-model');
    await bar.getByTestId('unsaved-discard').click();
    await bar.waitFor({ state: 'detached' });
    await section.getByTestId('price-row-dropped-model').waitFor({ state: 'detached' });

    await stage(STAGED);
    await bar.getByTestId('unsaved-save').click();
    await bar.waitFor({ state: 'detached' });
    await expect.poll(() => ratios()[STAGED]).toBe(0.25);
    expect(ratios()['dropped-model']).toBeUndefined();
    // Nothing unsaved: a sidebar link leaves at once.
    await clickSidebar(page, 1366, 'Channels');
    await page.waitForURL('**/admin/channels');
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('no settings tab shows unsaved changes before anything is edited, and switching tabs with an edit asks', async () => {
    const s = await signedInSession(browser, gateway.baseUrl, auth);
    const { page } = s;
    for (const tab of ['operation', 'ratelimit', 'models', 'system', 'other']) {
      await page.goto(`/admin/settings?tab=${tab}`);
      // Every query answered (nothing in flight for 500 ms), then two frames: a form that marks
      // itself edited when its values arrive has rendered its bar by now.
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      expect(await page.getByTestId('unsaved-bar').count(), tab).toBe(0);
    }
    // A plain settings field: the bar names it by its label, and another tab is a move that asks.
    await page.goto('/admin/settings?tab=operation');
    const quota = page.getByTestId('section-quota');
    const field = quota.getByRole('textbox').first();
    await field.fill('12345');
    const bar = page.getByTestId('unsaved-bar');
    await bar.waitFor();
    expect(await bar.innerText()).toContain('Quota settings');
    await page.getByRole('tab', { name: 'Other settings' }).click();
    const confirm = page.getByRole('dialog', { name: 'Leave without saving?' });
    await confirm.waitFor();
    await confirm.getByTestId('unsaved-stay').click();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('operation');
    // The quota input shows the amount in the site's unit ($12,345).
    expect(await field.inputValue()).toContain('12,345');
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  for (const width of [1366, 390])
    it(`preset prices are marked, kept after review, then cleared in one step (${width} px)`, async () => {
      // Back to the shipped prices, with gpt-4o's ratio changed by the operator.
      await setOptions(gateway.test.deps, Object.fromEntries(pricingKeys.map((k) => [k, optionRegistry[k].default])));
      await setOptions(gateway.test.deps, { ModelRatio: JSON.stringify({ ...ratios(), 'gpt-4o': 1.5 }) });
      const s = await signedInSession(browser, gateway.baseUrl, auth, { width, height: width < 600 ? 844 : 860 });
      const { page } = s;
      await page.goto('/admin/settings?tab=operation');
      const section = page.getByTestId('section-pricing');
      const alert = section.getByTestId('preset-alert');
      await alert.waitFor();
      expect(await alert.innerText()).toContain(`${SHIPPED_PRICE_COUNT - 1} models have preset prices`);
      await alert.scrollIntoViewIfNeeded();
      await shot(page, `preset-alert-light-${width}`);

      // Review: only the presets, each marked; the edited gpt-4o is not among them.
      await alert.getByTestId('preset-review').click();
      const search = section.getByPlaceholder('Search models');
      await search.fill('gpt-4o');
      await section.getByTestId('preset-gpt-4o-mini').waitFor();
      expect(await section.getByTestId('price-row-gpt-4o').count()).toBe(0);
      await section.getByTestId('only-presets').click({ force: true });
      await section.getByTestId('price-row-gpt-4o').waitFor();
      expect(await section.getByTestId('preset-gpt-4o').count()).toBe(0);

      // Keep: the warning gives way to one line; the prices stay.
      await alert.getByTestId('preset-keep').click();
      const kept = section.getByTestId('preset-kept');
      await kept.waitFor();
      expect(await kept.innerText()).toContain(`${SHIPPED_PRICE_COUNT - 1} models keep the preset list prices`);
      expect(ratios()['gpt-4o-mini']).toBe(0.075);

      // Clear: one confirmation, then gpt-4o-mini has no price and the operator's gpt-4o keeps its own.
      await kept.getByTestId('preset-clear').click();
      await page.getByTestId('preset-clear-confirm').click();
      await kept.waitFor({ state: 'detached' });
      expect(ratios()['gpt-4o-mini']).toBeUndefined();
      expect(ratios()['gpt-4o']).toBe(1.5);
      await section.getByTestId('preset-gpt-4o-mini').waitFor({ state: 'detached' });
      await search.fill('gpt-4o-mini');
      await section.getByTestId('price-row-gpt-4o-mini').waitFor({ state: 'detached' });
      expect(s.errors).toEqual([]);
      await s.context.close();
    });

  it.skipIf(!SHOTS)('screenshots to look at: dark and Chinese, 1366 and 390 px', async () => {
    await setOptions(gateway.test.deps, Object.fromEntries(pricingKeys.map((k) => [k, optionRegistry[k].default])));
    for (const theme of ['dark', 'light'] as const)
      for (const lang of ['zh', 'en'] as const)
        for (const width of [1366, 390]) {
          if (theme === 'light' && lang === 'en') continue;
          const opts = { theme, lang, width, height: width < 600 ? 844 : 860 };
          const s = await signedInSession(browser, gateway.baseUrl, auth, opts);
          const { page } = s;
          await page.goto('/admin/settings?tab=operation');
          const section = page.getByTestId('section-pricing');
          await section.getByTestId('preset-alert').waitFor();
          await section.getByTestId('preset-review').click();
          await section.locator('[data-testid^="edit-"]').first().click();
          const dialog = page.getByRole('dialog');
          await dialog.getByTestId('price-ratio').fill('0.1');
          await dialog.getByTestId('price-apply').click();
          await page.getByTestId('unsaved-bar').waitFor();
          await section.getByTestId('preset-alert').scrollIntoViewIfNeeded();
          await shot(page, `pricing-${theme}-${lang}-${width}`);
          expect(s.errors).toEqual([]);
          await s.context.close();
        }
  });

  for (const width of [1366, 390])
    it(`the setup wizard says which prices are presets and can start without them (${width} px)`, async () => {
      const fresh = await startGateway();
      try {
        const s = await openSession(browser, fresh.baseUrl, { width, height: width < 600 ? 844 : 860 });
        const { page } = s;
        // Another suite rebuilding dist/client at this moment answers "Not found" for a while: try again.
        for (let i = 0; i < 5; i++) {
          await page.goto('/setup');
          if (!(await page.content()).includes('"Not found"')) break;
          await page.waitForTimeout(3_000);
        }
        const keep = page.getByTestId('setup-keep-presets');
        await keep.waitFor();
        const text = await page.locator('form').innerText();
        expect(text).toContain(`Keep the preset prices of ${SHIPPED_PRICE_COUNT} models`);
        expect(text).toContain('public list prices');
        await keep.scrollIntoViewIfNeeded();
        await shot(page, `setup-presets-light-${width}`);
        await page.getByLabel('Username').fill(ROOT_USERNAME);
        await page.getByLabel('Password', { exact: true }).fill(ROOT_PASSWORD);
        await page.getByLabel('Confirm password').fill(ROOT_PASSWORD);
        await keep.uncheck();
        await page.getByRole('button', { name: 'Initialise system' }).click();
        await page.waitForURL('**/admin/channels', { timeout: 20_000 });
        const opt = fresh.test.deps.services.options;
        expect(opt.get('ModelRatio')).toEqual({});
        expect(opt.get('ModelPrice')).toEqual({});
        expect(s.errors).toEqual([]);
        await s.context.close();
      } finally {
        await fresh.close();
      }
    });
});
