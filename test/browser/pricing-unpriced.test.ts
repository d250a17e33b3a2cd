import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertChannel, setOptions } from '../relay-fixtures.ts';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, startGateway } from './harness.ts';
import { layoutSweep, overflowing } from './layout-checks.ts';
import { unpricedSettingsRoutes } from './scenes/settings.ts';
import type { Browser, Page } from 'playwright-core';

/*
 * Issue 28 item 5 in the console: the public pricing page gives no amount for a model the relay
 * refuses (no price, selling mode) and shows per-call and per-image prices as such, in English and
 * Chinese at 1366 and 390 px; the channel form and the pricing settings warn about models without a
 * price, and setting one from the settings makes the page show it.
 */

const UNPRICED = 'house-model';
const IMAGE = 'flux-pro';
const PER_CALL = 'mj_imagine';
const PRICED = 'gpt-4o-mini';

const text = {
  en: { unavailable: 'No price set — not available', image: '$0.050 / image', call: '$0.100 / call' },
  zh: { unavailable: '未设置价格 — 不可用', image: '$0.050 / 张图', call: '$0.100 / 次' },
} as const;

/** A model's table row, or its card on a phone. */
const row = (page: Page, model: string) =>
  page.locator('tr, [data-testid="phone-card"]').filter({ hasText: model }).first();

describe('models without a price in the console', () => {
  let gateway: Gateway;
  let browser: Browser;
  let channelId: number;

  beforeAll(async () => {
    gateway = await startGateway();
    await setupRoot(gateway.test);
    const { deps } = gateway.test;
    await setOptions(deps, { ModelPrice: JSON.stringify({ [IMAGE]: 0.05, [PER_CALL]: 0.1 }) });
    channelId = await insertChannel(deps, {
      name: 'Local upstream',
      baseUrl: 'http://127.0.0.1:9',
      models: [PRICED, UNPRICED, IMAGE, PER_CALL],
    });
    deps.services.pricing.invalidate();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  for (const lang of ['en', 'zh'] as const)
    for (const width of [1366, 390])
      it(`the public pricing page (${lang}, ${width} px): no amount for the unpriced model, per image and per call units`, async () => {
        const s = await openSession(browser, gateway.baseUrl, { lang, width, height: width < 600 ? 844 : 860 });
        await s.page.goto('/pricing');
        const unpriced = row(s.page, UNPRICED);
        await unpriced.waitFor();
        const unpricedText = await unpriced.innerText();
        expect(unpricedText).toContain(text[lang].unavailable);
        // No amount at all for a model the relay refuses: no "$" and no "/ 1M tokens".
        expect(unpricedText).not.toMatch(/\$|1M/);
        await expect(row(s.page, IMAGE).innerText()).resolves.toContain(text[lang].image);
        await expect(row(s.page, PER_CALL).innerText()).resolves.toContain(text[lang].call);
        // A priced model is not marked unavailable: gpt-4o-mini's default ratio 0.075 = $0.150 / 1M tokens.
        const priced = await row(s.page, PRICED).innerText();
        expect(priced).toContain('$0.150');
        expect(priced).not.toContain(text[lang].unavailable);
        // Nothing but the table itself (which scrolls sideways by design on phones) reaches past the screen.
        const past = await overflowing(s.page);
        expect(past.filter((o) => !(o.tag.endsWith('(scrolls sideways)') && /^(Model|模型)/.test(o.text)))).toEqual([]);
        expect(s.errors).toEqual([]);
        await s.context.close();
      });

  it('the channel form warns about the models it lists without a price', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await logIn(s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    await s.page.goto(`/channel/edit/${channelId}`);
    const drawer = s.page.getByRole('dialog', { name: `Edit channel #${channelId}` });
    const warning = drawer.getByTestId('unpriced-models-warning');
    await warning.waitFor();
    const said = await warning.innerText();
    expect(said).toContain('Models without a price: 1');
    expect(said).toContain(UNPRICED);
    expect(said).not.toContain(PRICED);
    expect(said).not.toContain(IMAGE);
    const link = warning.getByRole('link', { name: /Set their prices/ });
    expect(await link.getAttribute('href')).toBe('/admin/settings?tab=operation&pricing=unset');
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('the playground does not offer the model the relay would refuse', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await logIn(s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    await s.page.goto('/playground');
    const model = s.page.getByLabel('Model', { exact: true }).and(s.page.locator('input'));
    // The default is a priced model, never the refused one.
    await expect.poll(() => model.inputValue(), { timeout: 20_000 }).toBe(PRICED);
    await model.click();
    const options = s.page.getByRole('option');
    await options.first().waitFor();
    const offered = await options.allInnerTexts();
    expect(offered).toEqual(expect.arrayContaining([PRICED, PER_CALL]));
    expect(offered).not.toContain(UNPRICED);
    // The image model is drawn in the image tab (issue 44), which does not offer the unpriced model either.
    expect(offered).not.toContain(IMAGE);
    await s.page.keyboard.press('Escape');
    await s.page.goto('/playground?tab=image');
    const imageModel = s.page.getByRole('combobox', { name: 'Image model' });
    await expect.poll(() => imageModel.inputValue(), { timeout: 20_000 }).toBe(IMAGE);
    await imageModel.click();
    const images = await s.page.getByRole('option').allInnerTexts();
    expect(images).toContain(IMAGE);
    expect(images).not.toContain(UNPRICED);
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('the pricing settings warn, list the model with its channel, and a price set there reaches the public page', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await logIn(s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    await s.page.goto('/admin/settings?tab=operation&pricing=unset');
    const section = s.page.getByTestId('section-pricing');
    const alert = section.getByTestId('unpriced-alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('Enabled models without a price: 1');
    // ?pricing=unset opened the list of models without a price.
    const listed = section.getByRole('row').filter({ hasText: UNPRICED }).first();
    await listed.waitFor();
    expect(await listed.innerText()).toContain(`Local upstream #${channelId}`);

    await listed.getByRole('button', { name: 'Set price' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Edit model price' });
    await dialog.getByTestId('price-ratio').fill('0.5');
    await dialog.getByTestId('price-apply').click();
    await section.getByTestId('pricing-save').click();
    await s.page.getByText('Saved', { exact: true }).waitFor();
    await alert.waitFor({ state: 'detached' });
    expect(gateway.test.deps.services.options.get('ModelRatio')[UNPRICED]).toBe(0.5);

    await s.page.goto('/pricing');
    const now = await row(s.page, UNPRICED).innerText();
    // Ratio 0.5 = $1.000 per 1M prompt tokens.
    expect(now).toContain('$1.000');
    expect(now).not.toContain(text.en.unavailable);
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  // The pictures (the pricing page too): `node --import tsx scripts/screenshots.ts --scene pricing-unpriced`.
  // The public page's languages and widths are measured above.
  it('zh and en at 1366 and 390 px: the pricing settings and the channel form warn, fit the screen, no page errors', async () => {
    // The model without a price again, so both warnings show.
    const ratios = { ...gateway.test.deps.services.options.get('ModelRatio') };
    delete ratios[UNPRICED];
    await setOptions(gateway.test.deps, { ModelRatio: JSON.stringify(ratios) });
    const root = { username: ROOT_USERNAME, password: ROOT_PASSWORD };
    expect(await layoutSweep(browser, gateway.baseUrl, root, unpricedSettingsRoutes(channelId))).toEqual({
      errors: [],
      overflow: {},
    });
  }, 180_000);
});
