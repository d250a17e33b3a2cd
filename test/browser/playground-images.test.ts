import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakePng, labelOf } from '../../scripts/fake-upstream/images/shared.ts';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import {
  type Gateway,
  launchChromium,
  type RestAuth,
  restSignIn,
  type Session,
  signedInSession,
  startGateway,
} from './harness.ts';
import { overflowing } from './layout-checks.ts';
import { GPT_IMAGE_PRICE, type ImageSeed, PAINTER, PAUPER, seedPlaygroundImages } from './scenes/playground-images.ts';

/*
 * The playground's image tab (issue 44), through the console's image doors to an OpenAI images fake: two
 * pictures generated and shown (real PNGs, told apart by their labels), an edit of an uploaded picture,
 * a refusal in Chinese that charges nothing, and the usage log's image count, at 1366 and 390 px.
 * SHOTS_DIR=<folder> also saves pictures (light and dark, zh and en) for review.
 */

const SHOTS = process.env.SHOTS_DIR;
const WIDTHS = [1366, 390] as const;
const UNIT = 500_000;

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** The pictures on the page: each one's label (which request drew it), natural width, and download name. */
async function picturesOn(page: Page) {
  const shown = await page.getByTestId('image-picture').evaluateAll((cards) =>
    cards.map((c) => {
      const img = c.querySelector('img')!;
      return {
        src: img.src,
        width: img.naturalWidth,
        complete: img.complete,
        download: c.querySelector('a[download]')?.getAttribute('download') ?? '',
      };
    }),
  );
  return shown.map((p) => ({
    label: p.src.startsWith('data:image/png;base64,')
      ? labelOf(Buffer.from(p.src.slice('data:image/png;base64,'.length), 'base64'))
      : `not a PNG data URL: ${p.src.slice(0, 40)}`,
    width: p.width,
    complete: p.complete,
    download: p.download,
  }));
}

/** Opens the image tab and picks a model, a size and the number of pictures. */
async function openImageTab(s: Session, model: string) {
  await s.page.goto('/playground?tab=image');
  const select = s.page.getByRole('combobox', { name: /^(Image model|图片模型)$/ });
  await expect.poll(() => select.inputValue(), { timeout: 20_000 }).not.toBe('');
  await select.click();
  await s.page.getByRole('option', { name: model, exact: true }).click();
  await expect.poll(() => select.inputValue()).toBe(model);
}

describe('the playground image tab', () => {
  let gateway: Gateway;
  let browser: Browser;
  let seed: ImageSeed;
  let painter: RestAuth;
  let pauper: RestAuth;

  const balance = async (userId: number) =>
    Number(
      (
        await gateway.test.deps.db
          .selectFrom('users')
          .select('quota')
          .where('id', '=', userId)
          .executeTakeFirstOrThrow()
      ).quota,
    );

  beforeAll(async () => {
    [gateway, browser] = await Promise.all([startGateway(), launchChromium()]);
    await setupRoot(gateway.test);
    seed = await seedPlaygroundImages(gateway);
    [painter, pauper] = await Promise.all([restSignIn(gateway.baseUrl, PAINTER), restSignIn(gateway.baseUrl, PAUPER)]);
  });

  afterAll(async () => {
    await browser?.close();
    await seed?.fake.close();
    await gateway?.close();
  });

  for (const width of WIDTHS) {
    it(`draws two pictures, shows them with download links and what they cost (${width} px)`, async () => {
      const before = await balance(seed.painterId);
      const s = await signedInSession(browser, gateway.baseUrl, painter, { width });
      await openImageTab(s, 'gpt-image-1');
      // Image models are not offered to the chat tab; the chat model is not offered here.
      const select = s.page.getByRole('combobox', { name: 'Image model' });
      await select.click();
      expect(await s.page.getByRole('option').allInnerTexts()).toEqual(['dall-e-3', 'gpt-image-1']);
      await s.page.keyboard.press('Escape');
      const prompt = `a lighthouse at dusk ${width}`;
      await s.page.getByLabel('Prompt').fill(prompt);
      await s.page.getByLabel('Number of images').fill('2');
      await s.page.getByRole('combobox', { name: 'Size' }).click();
      await s.page.getByRole('option', { name: '1024x1024', exact: true }).click();
      await s.page.getByRole('button', { name: 'Generate images' }).click();

      const run = s.page.getByTestId('image-run');
      await run.waitFor({ timeout: 20_000 });
      await expect.poll(async () => (await picturesOn(s.page)).every((p) => p.complete && p.width > 0)).toBe(true);
      const pictures = await picturesOn(s.page);
      // The two pictures the upstream drew for this prompt, in order, at the size asked.
      expect(pictures).toEqual([
        { label: `gen-0:${prompt}`, width: 1024, complete: true, download: 'gpt-image-1-1.png' },
        { label: `gen-1:${prompt}`, width: 1024, complete: true, download: 'gpt-image-1-2.png' },
      ]);
      expect(await run.innerText()).toContain('2 images · 1024x1024');
      // 2 pictures x $0.042, read back from the call's own log row.
      const charged = Math.round(GPT_IMAGE_PRICE * UNIT * 2);
      await expect.poll(() => s.page.getByTestId('image-cost').innerText(), { timeout: 10_000 }).toContain('$0.08');
      expect(before - (await balance(seed.painterId))).toBe(charged);
      // The upstream got OpenAI's fields only: no `group`, no response_format for a gpt-image model.
      const sent = seed.fake.calls.at(-1)!;
      expect(sent).toEqual({ path: 'generations', model: 'gpt-image-1', fields: ['model', 'n', 'prompt', 'size'] });
      expect(await overflowing(s.page)).toEqual([]);
      await shot(s.page, `playground-generate-light-en-${width}`);
      expect(s.errors).toEqual([]);
      await s.context.close();
    });
  }

  it('edits an uploaded picture: the upstream gets the file and the edit shows', async () => {
    const before = await balance(seed.painterId);
    const s = await signedInSession(browser, gateway.baseUrl, painter, { width: 1366 });
    await openImageTab(s, 'gpt-image-1');
    await s.page
      .locator('input[type="file"]')
      .first()
      .setInputFiles({
        name: 'cat.png',
        mimeType: 'image/png',
        buffer: fakePng(96, 64, 'uploaded-cat'),
      });
    await s.page.getByLabel('Prompt').fill('give the cat a hat');
    const button = s.page.getByRole('button', { name: 'Edit image' });
    await button.click();
    await s.page.getByTestId('image-run').waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await picturesOn(s.page))[0]?.complete).toBe(true);
    const [picture, ...more] = await picturesOn(s.page);
    expect(more).toEqual([]);
    expect(picture.label).toBe('edit-0:uploaded-cat');
    expect(await s.page.getByTestId('image-run').innerText()).toContain('Image edit');
    const sent = seed.fake.calls.at(-1)!;
    expect(sent).toMatchObject({ path: 'edits', model: 'gpt-image-1', inputLabel: 'uploaded-cat' });
    expect(sent.fields).not.toContain('group');
    await expect.poll(() => s.page.getByTestId('image-cost').innerText(), { timeout: 10_000 }).toContain('$0.04');
    expect(before - (await balance(seed.painterId))).toBe(Math.round(GPT_IMAGE_PRICE * UNIT));
    await shot(s.page, 'playground-edit-light-en-1366');
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  for (const width of WIDTHS) {
    it(`says in Chinese why a call was refused and charges nothing (${width} px)`, async () => {
      const before = await balance(seed.pauperId);
      const calls = seed.fake.calls.length;
      const s = await signedInSession(browser, gateway.baseUrl, pauper, { width, lang: 'zh' });
      await openImageTab(s, 'dall-e-3');
      await s.page.getByLabel('提示词').fill('一只猫');
      await s.page.getByRole('button', { name: '图片生成' }).click();
      const alert = s.page.getByRole('alert');
      await alert.waitFor({ timeout: 15_000 });
      const text = await alert.innerText();
      expect(text).toContain('绘图请求失败');
      // The relay's own refusal, in the console's language: what the call needed and what is left.
      expect(text).toMatch(/\$0\.04.*\$0\.01/);
      expect(await s.page.getByTestId('image-picture').count()).toBe(0);
      expect(await balance(seed.pauperId)).toBe(before);
      // Refused before any upstream was asked.
      expect(seed.fake.calls.length).toBe(calls);
      expect(await overflowing(s.page)).toEqual([]);
      await shot(s.page, `playground-error-light-zh-${width}`);
      expect(s.errors).toEqual([]);
      await s.context.close();
    });
  }

  for (const width of WIDTHS) {
    it(`the usage log shows how many pictures a call made and at which size (${width} px)`, async () => {
      await gateway.test.deps.services.logWriter.flush();
      const s = await signedInSession(browser, gateway.baseUrl, painter, { width });
      await s.page.goto('/app/logs/api-usage');
      const images = s.page.getByTestId('log-images');
      // Two generations of 2 pictures and one edit of 1.
      await expect.poll(() => images.allInnerTexts(), { timeout: 20_000 }).toEqual(['1 image', '2 images', '2 images']);
      const row = s.page.locator('tbody tr, [data-testid="log-card"]').filter({ hasText: '2 images' }).first();
      expect(await row.innerText()).toContain('1024x1024');
      expect(await row.innerText()).toContain('$0.08');
      if (width === 1366) {
        await row.click();
        const details = s.page.getByTestId('log-details');
        await details.waitFor();
        const text = await details.innerText();
        expect(text).toContain('Model price (USD per image)');
        expect(text).toMatch(/Images\s+2/);
        expect(text).toMatch(/Image size\s+1024x1024/);
        expect(await s.page.getByTestId('cost-formula').innerText()).toContain('$0.042 per image × 2 images');
        expect(await s.page.getByTestId('cost-formula').innerText()).not.toContain('charged otherwise');
      }
      expect(await overflowing(s.page)).toEqual([]);
      await shot(s.page, `usage-log-light-en-${width}`);
      expect(s.errors).toEqual([]);
      await s.context.close();
    });
  }

  it.runIf(SHOTS)(
    'pictures the tab, the usage log and the price editor in light and dark, zh and en',
    { timeout: 600_000 },
    async () => {
      const root = await restSignIn(gateway.baseUrl, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
      for (const theme of ['light', 'dark'] as const)
        for (const lang of ['zh', 'en'] as const)
          for (const width of WIDTHS) {
            const tag = `${theme}-${lang}-${width}`;
            const s = await signedInSession(browser, gateway.baseUrl, painter, { width, lang, theme });
            await openImageTab(s, 'gpt-image-1');
            await s.page.locator('textarea').first().fill('a red kite over green hills');
            await s.page
              .locator('input[type="file"]')
              .first()
              .setInputFiles({
                name: 'kite.png',
                mimeType: 'image/png',
                buffer: fakePng(64, 64, `kite-${tag}`),
              });
            await shot(s.page, `grid-playground-form-${tag}`);
            await s.page.locator('input[type="file"]').first().setInputFiles([]);
            await s.page.getByRole('button', { name: /Generate images|图片生成/ }).click();
            await s.page.getByTestId('image-picture').first().waitFor({ timeout: 20_000 });
            await expect.poll(() => s.page.getByTestId('image-cost').innerText(), { timeout: 10_000 }).toMatch(/\$/);
            await s.page.locator('button[data-loading]').waitFor({ state: 'detached' });
            await s.page.waitForTimeout(300); // the button's loader fades out
            await shot(s.page, `grid-playground-generate-${tag}`);
            await s.page.goto('/app/logs/api-usage');
            await s.page.getByTestId('log-images').first().waitFor({ timeout: 20_000 });
            await shot(s.page, `grid-usage-log-${tag}`);
            await s.context.close();
            const a = await signedInSession(browser, gateway.baseUrl, root, { width, lang, theme });
            await a.page.goto('/admin/settings?tab=operation');
            const section = a.page.getByTestId('section-pricing');
            await section.getByPlaceholder(/Search models|搜索模型/).fill('gpt-image-1');
            await section.getByTestId('edit-gpt-image-1').click();
            await a.page.getByTestId('image-billing').waitFor();
            await a.page.waitForTimeout(300); // the modal's opening transition
            await a.page.getByRole('dialog').screenshot({ path: path.join(SHOTS!, `grid-price-editor-${tag}.png`) });
            await a.context.close();
          }
    },
  );
});
