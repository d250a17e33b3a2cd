import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeOpenAI } from '../../scripts/fake-upstream/server.ts';
import { ROOT_PASSWORD, ROOT_USERNAME } from '../users.ts';
import { logIn, openSession, rootConsole } from './harness.ts';
import { layoutSweep, overflowing } from './layout-checks.ts';
import { channelHealthRoutes, seedChannelHealth } from './scenes/channels.ts';

/*
 * Issue 28, "broken channels look healthy": after a failed test the channel's row says so (red
 * "Test failed", the reason, when and how long), in English and Chinese, on a desktop and a phone;
 * a base URL without a scheme is refused in the form; fetched models replace the list by default.
 */

describe('channel health in the channel list', () => {
  let fake: FakeUpstream;
  let deadId = 0;
  let liveId = 0;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  afterAll(() => fake?.close());
  const c = rootConsole();

  it('shows a failed test in the row with its reason, time and latency; a passing one with its latency', async () => {
    const deps = c.gateway.test.deps;
    // Nothing listens on the dead one's loopback port 9: every call is refused.
    ({ deadId, liveId } = await seedChannelHealth(deps, fake.url));
    const { page } = c.s;
    await page.goto('/admin/channels');
    const dead = page.locator('tr, [data-testid="phone-card"]').filter({ hasText: 'Dead upstream' });
    await dead.getByTestId('response-time').getByText('Untested').waitFor();

    await dead.getByTestId('response-time').click();
    await dead.getByTestId('response-time').getByText('Test failed').waitFor();
    await expect.poll(() => dead.getByTestId('tested-when').innerText()).toMatch(/^now · \d+\.\d\d s$/);
    expect(await dead.getByTestId('test-reason').innerText()).toMatch(
      /^Cannot connect to the upstream: connection refused/,
    );
    await expect(dead.getByText('Untested').count()).resolves.toBe(0);
    // The reason on hover too, with the time of the test.
    await dead.getByTestId('response-time').hover();
    const tip = page.getByRole('tooltip');
    await tip.getByText(/^Cannot connect to the upstream: connection refused/).waitFor();
    await tip.getByText(/^Tested \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/).waitFor();
    await tip.getByText(/^Failed after \d+\.\d\d s$/).waitFor();

    // The failure is stored, not only toasted: it is there after a reload.
    await page.reload();
    await dead.getByTestId('response-time').getByText('Test failed').waitFor();

    const live = page.locator('tr, [data-testid="phone-card"]').filter({ hasText: 'Live upstream' });
    await live.getByTestId('response-time').click();
    await expect
      .poll(() => live.getByTestId('response-time').innerText(), { timeout: 15_000 })
      .toMatch(/^\d+\.\d\d s\s+now$/);
    const badge = live.getByTestId('response-time').locator('[data-state="passed"]');
    // Spec §4: up to 1 s is green.
    expect(await badge.getAttribute('style')).toContain('green');
    expect(c.s.errors).toEqual([]);
  });

  it('shows the failure in Chinese on a phone, nothing reaching past the screen', async () => {
    const s = await openSession(c.browser, c.gateway.baseUrl, { width: 390, height: 844 });
    await logIn(s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    await s.page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
    await s.page.goto('/admin/channels');
    const dead = s.page.locator('tr, [data-testid="phone-card"]').filter({ hasText: 'Dead upstream' });
    await dead.getByTestId('response-time').getByText('测试失败').waitFor();
    expect(await dead.getByTestId('test-reason').innerText()).toMatch(/^无法连接到上游：连接被拒绝/);
    expect(await dead.getByTestId('tested-when').innerText()).toMatch(/\d+\.\d\d s$/);
    // The name column is on screen: the failure is said there too.
    await dead.getByTestId('name-test-failed').getByText('测试失败').waitFor();
    // Nothing but the table itself (which scrolls sideways by design) reaches past the screen.
    const past = await overflowing(s.page);
    expect(past.filter((o) => !(o.tag.endsWith('(scrolls sideways)') && o.text.startsWith('ID名称')))).toEqual([]);
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  // The pictures of this page: `node --import tsx scripts/screenshots.ts --scene channel-health`.
  it('zh and en at 1366 and 390 px: the list after a failed test fits the screen, without page errors', async () => {
    const root = { username: ROOT_USERNAME, password: ROOT_PASSWORD };
    expect(await layoutSweep(c.browser, c.gateway.baseUrl, root, channelHealthRoutes)).toEqual({
      errors: [],
      overflow: {},
    });
  }, 180_000);

  it('refuses a base URL without a scheme in the form, and saves one with it', async () => {
    const { page } = c.s;
    await page.goto('/admin/channels');
    await page.getByRole('button', { name: 'Add channel' }).click();
    const drawer = page.getByRole('dialog', { name: 'Add channel' });
    await drawer.getByLabel(/^Name/).fill('No scheme');
    await drawer.getByLabel('Key', { exact: true }).fill('sk-x');
    const baseUrl = drawer.getByLabel('Base URL', { exact: true });
    await baseUrl.fill('localhost:9100');
    await baseUrl.blur();
    await drawer.getByText('The base URL must look like http(s)://host[:port][/path]').waitFor();
    await drawer.getByRole('button', { name: 'Create' }).click();
    await page.waitForTimeout(300);
    const none = await c.gateway.test.deps.db
      .selectFrom('channels')
      .select('id')
      .where('name', '=', 'No scheme')
      .execute();
    expect(none).toEqual([]);

    await baseUrl.fill('http://localhost:9100');
    await drawer.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Channel created').waitFor();
    const saved = await c.gateway.test.deps.db
      .selectFrom('channels')
      .select('base_url')
      .where('name', '=', 'No scheme')
      .executeTakeFirstOrThrow();
    expect(saved.base_url).toBe('http://localhost:9100');
  });

  it('says the prefilled models are a suggestion, and "select all, apply" replaces them with the upstream list', async () => {
    const { page } = c.s;
    await page.goto('/admin/channels');
    await page.getByRole('button', { name: 'Add channel' }).click();
    const drawer = page.getByRole('dialog', { name: 'Add channel' });
    await drawer.getByTestId('suggested-models').waitFor();
    await drawer.getByLabel(/^Name/).fill('Local upstream');
    await drawer.getByLabel('Key', { exact: true }).fill('sk-local');
    await drawer.getByLabel('Base URL', { exact: true }).fill(fake.url.replace(/\/v1$/, ''));
    await drawer.getByRole('button', { name: 'Fetch from upstream' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose models' });
    await picker.getByRole('button', { name: 'Select all' }).click();
    await picker
      .getByTestId('picker-effect')
      .getByText(/will be removed$/)
      .waitFor();
    await picker.getByRole('button', { name: 'Apply' }).click();
    await picker.waitFor({ state: 'hidden' });
    // No longer the type's suggestion: the hint goes.
    await drawer.getByTestId('suggested-models').waitFor({ state: 'detached' });
    await drawer.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Channel created').waitFor();
    const row = await c.gateway.test.deps.db
      .selectFrom('channels')
      .select('models')
      .where('name', '=', 'Local upstream')
      .executeTakeFirstOrThrow();
    const listed = (await (await fetch(`${fake.url}/models`)).json()) as { data: { id: string }[] };
    expect(row.models.split(',').sort()).toEqual(listed.data.map((m) => m.id).sort());
    expect(row.models).not.toContain('gpt-4.1');
    expect(liveId).toBeGreaterThan(0);
    expect(deadId).toBeGreaterThan(0);
    expect(c.s.errors).toEqual([]);
  });
});
