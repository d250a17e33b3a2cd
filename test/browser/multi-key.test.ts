import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeOpenAI } from '../../scripts/fake-upstream/server.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../relay-fixtures.ts';
import { ROOT_PASSWORD, ROOT_USERNAME } from '../users.ts';
import { logIn, openSession, rootConsole } from './harness.ts';
import { layoutSweep, overflowing } from './layout-checks.ts';
import { channelKeysRoutes, keysOfEachState } from './scenes/channels.ts';

/*
 * Issue 28, "a flaky key is deleted": the console lists a multi-key channel's keys, masked, with
 * their status, why and when one was disabled, and lets the admin enable or disable each key and
 * re-enable all; the row says "2/4 keys"; the form chooses random or in-turn selection. English
 * and Chinese, 1366 and 390 px.
 */

const KEYS = [
  'sk-pool-dead-fail-401-invalid-key-0001',
  'sk-pool-good-key-aaaaaaaaaaaa-0002',
  'sk-pool-good-key-bbbbbbbbbbbb-0003',
  'sk-pool-good-key-cccccccccccc-0004',
].join('\n');

describe('the key list of a multi-key channel', () => {
  let fake: FakeUpstream;
  let id = 0;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  afterAll(() => fake?.close());
  const c = rootConsole();

  const stored = () =>
    c.gateway.test.deps.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('shows an auto-disabled key with its reason and time, and enables and disables keys (English, 1366)', async () => {
    const deps = c.gateway.test.deps;
    await setOptions(deps, {
      ModelRatio: JSON.stringify({ 'pool-model': 1 }),
      AutomaticDisableChannelEnabled: 'true',
    });
    id = await insertChannel(deps, {
      name: 'Key pool',
      key: KEYS,
      baseUrl: fake.url,
      models: ['pool-model'],
      setting: { multi_key_mode: 'polling' },
    });
    // A real request through the relay meets the dead first key: it is marked, and another key answers.
    const user = await insertUser(deps);
    const token = await insertToken(deps, user.id);
    const sdk = new OpenAI({ apiKey: token.key, baseURL: `${c.gateway.baseUrl}/v1`, maxRetries: 0 });
    await sdk.chat.completions.create({ model: 'pool-model', messages: [{ role: 'user', content: 'hi' }] });
    await deps.services.channels.manageKeys(id, 'disable_key', 3);

    const { page } = c.s;
    await page.goto('/admin/channels');
    const row = page.locator('tr, [data-testid="phone-card"]').filter({ hasText: 'Key pool' });
    expect(await row.getByTestId('key-count').innerText()).toBe('2/4 keys');
    await row.getByTestId('key-count').click();
    const modal = page.getByRole('dialog', { name: `Keys of channel #${id} Key pool` });
    await modal.getByTestId('keys-summary').getByText('2 of 4 keys enabled').waitFor();
    const keys = modal.getByTestId('key-row');
    await expect(keys.count()).resolves.toBe(4);
    // Masked, never whole.
    expect(await keys.nth(0).innerText()).toContain('sk-po…0001');
    expect(await modal.innerText()).not.toContain('invalid-key-0001');
    await keys.nth(0).getByText('Auto-disabled').waitFor();
    expect(await keys.nth(0).getByTestId('key-reason').innerText()).toMatch(/^401 Incorrect API key provided/);
    expect(await keys.nth(0).innerText()).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    await keys.nth(0).getByTestId('key-reason').hover();
    await page
      .getByRole('tooltip')
      .getByText(/^401 Incorrect API key provided/)
      .waitFor();
    await keys.nth(3).getByText('Disabled', { exact: true }).waitFor();
    await keys.nth(3).getByText('Disabled by an admin').waitFor();

    await keys.nth(3).getByRole('button', { name: 'Enable' }).click();
    await modal.getByText('3 of 4 keys enabled').waitFor();
    await keys.nth(1).getByRole('button', { name: 'Disable' }).click();
    await modal.getByText('2 of 4 keys enabled').waitFor();
    await modal.getByRole('button', { name: 'Enable all' }).click();
    await modal.getByText('4 of 4 keys enabled').waitFor();
    await expect(modal.getByRole('button', { name: 'Enable all' }).isDisabled()).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => row.getByTestId('key-count').innerText()).toBe('4/4 keys');

    // Nothing the gateway or the admin did here removed or changed a key.
    expect((await stored()).key).toBe(KEYS);
    expect(c.s.errors).toEqual([]);
  });

  it('sets the key selection in the channel form (in turn -> at random)', async () => {
    const { page } = c.s;
    await page.goto(`/channel/edit/${id}`);
    const drawer = page.getByRole('dialog', { name: `Edit channel #${id}` });
    const select = drawer.getByLabel('Key selection');
    await drawer.waitFor();
    // The form is filled again when the channel's full record arrives: choose only after that.
    await drawer.locator('.mantine-LoadingOverlay-root').waitFor({ state: 'detached' });
    await expect.poll(() => select.inputValue()).toBe('In turn');
    await select.click();
    await page.getByRole('option', { name: 'At random' }).click();
    await drawer.getByRole('button', { name: 'Save' }).click();
    await drawer.waitFor({ state: 'hidden' });
    const r = await stored();
    expect(JSON.parse(r.channel_info).multi_key_mode).toBe('random');
    expect(r.key).toBe(KEYS);
  });

  it('lists the keys in Chinese on a phone, nothing reaching past the screen', async () => {
    // The dead key again, so the list shows a reason.
    await c.gateway.test.deps.services.channels.manageKeys(id, 'disable_key', 2);
    const s = await openSession(c.browser, c.gateway.baseUrl, { width: 390, height: 844 });
    await logIn(s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    await s.page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
    await s.page.goto('/admin/channels');
    const row = s.page.locator('tr, [data-testid="phone-card"]').filter({ hasText: 'Key pool' });
    expect(await row.getByTestId('key-count').innerText()).toBe('3/4 个密钥');
    await row.getByTestId('key-count').click();
    const modal = s.page.getByRole('dialog', { name: `渠道 #${id} Key pool 的密钥` });
    await modal.getByText('4 个密钥中 3 个已启用').waitFor();
    await modal.getByTestId('key-row').nth(2).getByText('已禁用').waitFor();
    await modal.getByTestId('key-row').nth(2).getByText('管理员手动禁用').waitFor();
    await modal.getByRole('button', { name: '全部启用' }).waitFor();
    // Nothing but the channel table under the modal (it scrolls sideways by design) reaches past the screen.
    const past = await overflowing(s.page);
    expect(past.filter((o) => !(o.tag.endsWith('(scrolls sideways)') && o.text.startsWith('ID名称')))).toEqual([]);
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  // The pictures of this page: `node --import tsx scripts/screenshots.ts --scene channel-keys`.
  it('zh and en at 1366 and 390 px: the key list of each state fits the screen, without page errors', async () => {
    await keysOfEachState(c.gateway.test.deps, c.gateway.baseUrl, id);
    const root = { username: ROOT_USERNAME, password: ROOT_PASSWORD };
    expect(await layoutSweep(c.browser, c.gateway.baseUrl, root, channelKeysRoutes)).toEqual({
      errors: [],
      overflow: {},
    });
  }, 180_000);
});
