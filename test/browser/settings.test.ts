import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, openSession, type Session, startGateway } from './harness.ts';

/*
 * Settings in a real browser: a ratio changed in the visual price editor is saved
 * and priced by the gateway; saving a section without a change only warns.
 */

const MODEL = 'gpt-4o-mini';

describe('settings page', () => {
  let gateway: Gateway;
  let browser: Browser;
  let s: Session;

  beforeAll(async () => {
    gateway = await startGateway();
    await setupRoot(gateway.test);
    // One enabled channel serving the model, so the public pricing lists it.
    const { db } = gateway.test.deps;
    const ch = await db
      .insertInto('channels')
      .values({ key: 'sk-test', name: 'test', models: MODEL, group: 'default', status: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('abilities')
      .values({ group: 'default', model: MODEL, channel_id: Number(ch.id), enabled: 1 })
      .execute();
    gateway.test.deps.bus.publish('channels');
    browser = await launchChromium();
    s = await openSession(browser, gateway.baseUrl);
    await s.page.goto('/login');
    await s.page.getByLabel('Username or e-mail').fill(ROOT_USERNAME);
    await s.page.getByLabel('Password', { exact: true }).fill(ROOT_PASSWORD);
    await s.page.getByRole('button', { name: 'Log in', exact: true }).last().click();
    await s.page.waitForURL('**/app/tokens');
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('changes a ratio in the visual editor, saves it, and the gateway prices the model with it', async () => {
    await s.page.goto('/admin/settings');
    const pricing = s.page.getByTestId('section-pricing');
    await pricing.getByPlaceholder('Search models').fill(MODEL);
    await pricing.getByTestId(`edit-${MODEL}`).click();
    const dialog = s.page.getByRole('dialog', { name: 'Edit model price' });
    await dialog.getByTestId('price-ratio').fill('2.5');
    // Price per 1M tokens = ratio × 2, filled in as the admin types.
    await expect(dialog.getByTestId('price-input').inputValue()).resolves.toBe('5');
    await dialog.getByTestId('price-apply').click();
    await pricing.getByTestId('pricing-save').click();
    await s.page.getByText('Saved', { exact: true }).waitFor();

    const options = await s.page.evaluate(async () => {
      const user = JSON.parse(localStorage.getItem('user') ?? '{}') as { id: number };
      const res = await fetch('/api/option/', { headers: { 'New-Api-User': String(user.id) } });
      return (await res.json()) as { data: { key: string; value: string }[] };
    });
    const ratio = JSON.parse(options.data.find((o) => o.key === 'ModelRatio')?.value ?? '{}') as Record<string, number>;
    expect(ratio[MODEL]).toBe(2.5);

    const priced = await s.page.evaluate(async () => (await (await fetch('/api/pricing')).json()) as unknown);
    expect((priced as { data: { model_name: string; model_ratio: number }[] }).data).toContainEqual(
      expect.objectContaining({ model_name: MODEL, model_ratio: 2.5 }),
    );

    // The public pricing page shows the new prompt price: ratio 2.5 x 2 = $5.000 per 1M tokens.
    await s.page.goto('/pricing');
    await s.page.getByPlaceholder('Search models').fill(MODEL);
    const row = s.page.getByRole('row').filter({ hasText: MODEL });
    await expect.poll(async () => row.first().innerText()).toContain('5.000');
  });

  it('saving a section with no change warns and sends nothing', async () => {
    await s.page.goto('/admin/settings?tab=ratelimit');
    const section = s.page.getByTestId('section-ratelimit');
    await section.getByLabel('Period (minutes)').waitFor();
    const sent: string[] = [];
    s.page.on('request', (r) => {
      if (r.url().includes('options.update')) sent.push(r.url());
    });
    await section.getByRole('button', { name: 'Save' }).click();
    await s.page.getByText('You seem to have changed nothing').waitFor();
    expect(sent).toEqual([]);
    expect(s.errors).toEqual([]);
  });

  it('turning password sign-in off asks first; cancelling puts the switch back', async () => {
    await s.page.goto('/admin/settings?tab=system');
    const toggle = s.page.getByTestId('section-login').getByLabel('Allow password sign-in');
    await expect(toggle.isChecked()).resolves.toBe(true);
    await toggle.click({ force: true });
    const dialog = s.page.getByRole('dialog', { name: 'Turn off password sign-in?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect(toggle.isChecked()).resolves.toBe(true);
  });

  it('invalid JSON in an option names its line and column under the field and in a toast, and nothing is saved', async () => {
    const option = async (key: string) =>
      s.page.evaluate(async (k) => {
        const user = JSON.parse(localStorage.getItem('user') ?? '{}') as { id: number };
        const res = await fetch('/api/option/', { headers: { 'New-Api-User': String(user.id) } });
        const body = (await res.json()) as { data: { key: string; value: string }[] };
        return body.data.find((o) => o.key === k)?.value;
      }, key);
    await s.page.goto('/admin/settings?tab=operation');
    const section = s.page.getByTestId('section-groups');
    const field = section.getByLabel('Group ratios');
    await field.waitFor();
    const before = await option('GroupRatio');
    // The comma after "vip": 1 is missing: the parser stops at the quote opening line 4.
    await field.fill('{\n  "default": 1,\n  "vip": 1\n  "svip": 1\n}');
    const message = "Invalid JSON at line 4, column 3: expected ',' or '}'";
    await section.getByText(message, { exact: true }).waitFor();
    const sent: string[] = [];
    s.page.on('request', (r) => {
      if (r.url().includes('options.update')) sent.push(r.url());
    });
    await section.getByRole('button', { name: 'Save' }).click();
    await s.page.getByText(`Not saved: Group ratios (GroupRatio): ${message}`, { exact: true }).waitFor();
    expect(sent).toEqual([]);
    expect(await option('GroupRatio')).toBe(before);

    // Fixed, the message goes and the value saves.
    await field.fill('{"default": 1, "vip": 1, "svip": 0.9}');
    await expect.poll(() => section.getByText(message).count()).toBe(0);
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => option('GroupRatio')).toBe('{"default": 1, "vip": 1, "svip": 0.9}');
    expect(s.errors).toEqual([]);
  });
});
