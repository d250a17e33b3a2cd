import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, type Session, startGateway } from './harness.ts';
import { layoutSweep, overflowing } from './layout-checks.ts';
import { slotStart, slotsBetween } from '../../client/pages/dashboard/series.ts';
import type { NewLog } from '../../server/db/types.ts';
import { dashboardRoutes, seedDashboard } from './scenes/dashboard.ts';
import { consumeRow, writeUsage } from './usage-fixtures.ts';

/*
 * The dashboard with sparse and dense data (issue #22): 1 row, 1 hour, 7 days and 30 days of
 * usage, one user each, viewed by root through the username filter. The time axis has every
 * slot of the range (zeros where idle), ticks on round times, whole-number request ticks,
 * money ticks that are exact and distinct, and the figures new-api shows.
 */

const ROOT = { username: ROOT_USERNAME, password: ROOT_PASSWORD };
const HOUR = 3600;
const DAY = 86_400;

/** The slots the page should draw for a range ending now: from the first whole hour in it (DashboardPage). */
function expectedSlots(range: number, g: 'hour' | 'day' | 'week'): number {
  const now = Math.floor(Date.now() / 1000);
  return slotsBetween(Math.ceil((now - range) / HOUR) * HOUR, now, g).length;
}

/** The slots seeded rows fall in: each should show a bar (just after midnight today has none yet). */
const busySlots = (rows: NewLog[], g: 'day' | 'week') =>
  new Set(rows.map((r) => slotStart(Number(r.created_at), g))).size;

interface ChartState {
  slots: number;
  granularity: string;
  /** The narrowest drawn bar, in pixels. */
  barWidth: number;
  xTicks: string[];
  yTicks: string[];
  /** Distinct x positions of bars taller than nothing. */
  barSlots: number;
}

async function chart(page: Page, testId: string): Promise<ChartState> {
  return page.getByTestId(testId).evaluate((el) => {
    const texts = (axis: string) =>
      [...el.querySelectorAll(`.recharts-${axis}-tick-labels .recharts-cartesian-axis-tick-value`)]
        .map((t) => t.textContent ?? '')
        .filter(Boolean);
    const bars = [...el.querySelectorAll('.recharts-bar-rectangle path')]
      .map((p) => p.getBoundingClientRect())
      .filter((r) => r.height > 0.5);
    const xs = new Set(bars.map((r) => Math.round(r.left)));
    return {
      slots: Number(el.getAttribute('data-slots')),
      granularity: el.getAttribute('data-granularity') ?? '',
      barWidth: Math.min(...bars.map((r) => r.width)),
      xTicks: texts('xAxis'),
      yTicks: texts('yAxis'),
      barSlots: xs.size,
    };
  });
}

describe('the dashboard with 1 row, 1 hour, 7 days and 30 days of data', () => {
  let gateway: Gateway;
  let browser: Browser;
  let s: Session;
  let idle: { username: string; password: string };
  let dayRows: NewLog[];
  let weekRows: NewLog[];
  let monthRows: NewLog[];

  beforeAll(async () => {
    [gateway, browser] = await Promise.all([startGateway(), launchChromium()]);
    await setupRoot(gateway.test);
    ({ idle, dayRows, weekRows, monthRows } = await seedDashboard(gateway.test));
    s = await openSession(browser, gateway.baseUrl, { width: 1366, height: 900 });
    await logIn(s, ROOT);
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  async function show(username: string, range: string, granularity: 'Hour' | 'Day' | 'Week') {
    const { page } = s;
    if (!page.url().endsWith('/app/dashboard')) await page.goto('/app/dashboard');
    await page.getByRole('combobox', { name: 'Range' }).click();
    await page.getByRole('option', { name: range, exact: true }).click();
    await page.getByLabel('Username', { exact: true }).fill(username);
    await page.getByRole('button', { name: 'Query' }).click();
    await page.getByText(granularity, { exact: true }).click();
    const figure = (id: string) => page.getByTestId(`${id}-value`).innerText();
    // The figures show a placeholder until the new range has arrived.
    await expect.poll(() => figure('figure-requests')).not.toBe('');
    await page.getByTestId('chart-count').locator('.recharts-yAxis').waitFor();
    await page.waitForTimeout(300);
    // The amount is shown in cents, the exact one in its title (issue 39).
    const exact = await page.getByTestId('figure-quota-value').locator('[title]').first().getAttribute('title');
    return { requests: await figure('figure-requests'), quota: await figure('figure-quota'), exact };
  }

  const integers = (ticks: string[]) => ticks.length > 1 && ticks.every((t) => /^\d{1,3}(,\d{3})*$/.test(t));
  const roundTimes = (ticks: string[]) => ticks.length > 0 && ticks.every((t) => /^(\d\d-\d\d|\d\d:00)$/.test(t));

  it('1 row: one bar in a week of zeros, whole-number ticks, under a cent shown as such and to the last unit on hover', async () => {
    const f = await show('one', 'Last 7 days', 'Day');
    expect(f).toEqual({ requests: '1', quota: '<$0.01', exact: '$0.000024' });
    const count = await chart(s.page, 'chart-count');
    expect(count.slots).toBe(expectedSlots(7 * DAY, 'day'));
    expect(count.barSlots).toBe(1);
    expect(count.xTicks).toHaveLength(count.slots);
    expect(roundTimes(count.xTicks)).toBe(true);
    expect(integers(count.yTicks)).toBe(true);
    expect(count.yTicks).toContain('1');
    const money = await chart(s.page, 'chart-quota');
    expect(new Set(money.yTicks).size).toBe(money.yTicks.length);
    expect(money.yTicks.length).toBeGreaterThan(1);
    expect(money.yTicks.every((t) => /^\$\d+\.\d+$/.test(t))).toBe(true);
    await s.page.getByTestId('model-breakdown').getByText('gpt-4o-mini').waitFor();

    // Hourly, the same row is one hour out of 169, and the axis still has a handful of round ticks.
    await s.page.getByText('Hour', { exact: true }).click();
    const hourly = await chart(s.page, 'chart-count');
    expect(hourly.slots).toBe(7 * 24);
    expect(hourly.xTicks.length).toBeGreaterThanOrEqual(4);
    expect(hourly.xTicks.length).toBeLessThanOrEqual(16);
    expect(roundTimes(hourly.xTicks)).toBe(true);
    expect(integers(hourly.yTicks)).toBe(true);
    expect(s.errors).toEqual([]);
  });

  it('1 hour: bars in at most two hours of a 24-hour axis, integer counts', async () => {
    const f = await show('hour', 'Last 24 hours', 'Hour');
    expect(f.requests).toBe('40');
    const count = await chart(s.page, 'chart-count');
    expect(count.slots).toBe(24);
    expect(count.barSlots).toBeGreaterThanOrEqual(1);
    expect(count.barSlots).toBeLessThanOrEqual(2);
    expect(roundTimes(count.xTicks)).toBe(true);
    expect(count.xTicks.length).toBeGreaterThanOrEqual(4);
    expect(integers(count.yTicks)).toBe(true);
    const tokens = await chart(s.page, 'chart-tokens');
    expect(tokens.yTicks.every((t) => /^\d+(\.\d)?k?$|^\d{1,3}(,\d{3})*$/.test(t))).toBe(true);
  });

  it('7 days: one bar per day, eight days with today', async () => {
    const f = await show('week', 'Last 7 days', 'Day');
    expect(f.requests).toBe('300');
    const count = await chart(s.page, 'chart-count');
    expect(count.slots).toBe(expectedSlots(7 * DAY, 'day'));
    expect(count.barSlots).toBe(busySlots(weekRows, 'day'));
    expect(count.barSlots).toBeGreaterThanOrEqual(count.slots - 1);
    expect(count.xTicks).toHaveLength(count.slots);
    expect(integers(count.yTicks)).toBe(true);
    const money = await chart(s.page, 'chart-quota');
    expect(new Set(money.yTicks).size).toBe(money.yTicks.length);
  });

  it('30 days: daily and weekly slots, ticks thinned to what fits', async () => {
    const f = await show('month', 'Last 30 days', 'Day');
    expect(f.requests).toBe('600');
    const daily = await chart(s.page, 'chart-count');
    expect(daily.slots).toBe(expectedSlots(30 * DAY, 'day'));
    expect(daily.barSlots).toBe(busySlots(monthRows, 'day'));
    expect(daily.barSlots).toBeGreaterThanOrEqual(daily.slots - 1);
    expect(daily.xTicks.length).toBeGreaterThanOrEqual(4);
    expect(daily.xTicks.length).toBeLessThan(31);
    expect(integers(daily.yTicks)).toBe(true);
    await s.page.getByText('Week', { exact: true }).click();
    const weekly = await chart(s.page, 'chart-count');
    expect(weekly.slots).toBe(expectedSlots(30 * DAY, 'week'));
    expect(weekly.barSlots).toBe(busySlots(monthRows, 'week'));
    expect(s.errors).toEqual([]);
  });

  it("one day of use: opens on that day by the hour, rates as the usage log's, shares that say what of, ranges ending now", async () => {
    const u = await openSession(browser, gateway.baseUrl, { width: 1366, height: 900 });
    await logIn(u, { username: 'day', password: 'Passw0rd!' });
    // Three calls in the last minute: the usage log's RPM window (api-contract §5).
    const now = Math.floor(Date.now() / 1000);
    const who = { userId: Number(dayRows[0].user_id), username: 'day', tokenName: 'main' };
    const recent = [
      consumeRow(who, { at: now - 3, model: 'gpt-4o-mini', prompt: 12, completion: 9 }),
      consumeRow(who, { at: now - 2, model: 'gpt-4o-mini', prompt: 14, completion: 8 }),
      consumeRow(who, { at: now - 1, model: 'deepseek-chat', prompt: 11, completion: 9 }),
    ];
    await writeUsage(gateway.test.deps, recent);
    const { page } = u;
    await page.goto('/app/dashboard');
    // Bars of idle series are drawn with no height: wait for one that has some.
    await expect.poll(async () => (await chart(page, 'chart-count')).barSlots, { timeout: 30_000 }).toBeGreaterThan(0);
    await page.waitForTimeout(300);

    // The shortest range holding the data, by the hour: a bar for each busy hour, not a sliver of a week.
    expect(await page.getByRole('combobox', { name: 'Range' }).inputValue()).toBe('Last 24 hours');
    const count = await chart(page, 'chart-count');
    expect(count.granularity).toBe('hour');
    expect(count.slots).toBe(expectedSlots(DAY, 'hour'));
    expect(count.barSlots).toBeGreaterThanOrEqual(20);
    expect(count.barWidth).toBeGreaterThan(10);
    expect(await page.getByTestId('figure-requests-value').innerText()).toBe('153');

    // RPM and TPM: the usage log's figures for the same calls, both saying over what window.
    const dashRpm = await page.getByTestId('figure-rpm').innerText();
    const dashTpm = await page.getByTestId('figure-tpm').innerText();
    expect(dashRpm).toBe('RPM (last 60 s): 3');
    expect(dashTpm).toBe('TPM (last 60 s): 63');

    // Each model's share says what it is a share of; of requests, it is the model's calls over all calls.
    const breakdown = page.getByTestId('model-breakdown');
    expect(await breakdown.getByTestId('share-header').innerText()).toBe('Share of cost');
    await page.getByTestId('share-basis').getByText('Request share').click();
    expect(await breakdown.getByTestId('share-header').innerText()).toBe('Share of requests');
    const all = [...dayRows, ...recent];
    const mini = all.filter((r) => r.model_name === 'gpt-4o-mini').length;
    const row = breakdown.locator('tr', { hasText: 'gpt-4o-mini' });
    expect(await row.getByTestId('model-share').innerText()).toBe(`${Math.round((mini / all.length) * 100)}%`);

    // A granularity the user picks stays theirs.
    await page.getByTestId('granularity').getByText('Day', { exact: true }).click();
    expect((await chart(page, 'chart-count')).granularity).toBe('day');

    await page.goto('/app/logs/api-usage');
    await expect.poll(() => page.getByTestId('log-rpm').innerText()).toBe(dashRpm);
    expect(await page.getByTestId('log-tpm').innerText()).toBe(dashTpm);
    // "Last 24 hours" (the default) ends now, not an hour ahead.
    expect(await page.getByRole('combobox', { name: 'Quick range' }).inputValue()).toBe('Last 24 hours');
    const end = await page.getByLabel('End time', { exact: true }).innerText();
    const endsAt = new Date(end.trim().replace(' ', 'T')).getTime();
    expect(Math.abs(endsAt - Date.now())).toBeLessThan(60_000);
    expect(u.errors).toEqual([]);
    await u.context.close();
  });

  it('a user sees their own 30 days (the longest span they may ask for)', async () => {
    const u = await openSession(browser, gateway.baseUrl, { width: 1366, height: 900 });
    await logIn(u, { username: 'month', password: 'Passw0rd!' });
    await u.page.goto('/app/dashboard');
    await u.page.getByRole('combobox', { name: 'Range' }).click();
    await u.page.getByRole('option', { name: 'Last 30 days', exact: true }).click();
    await u.page.getByRole('button', { name: 'Query' }).click();
    await expect.poll(() => u.page.getByTestId('figure-requests-value').innerText()).toBe('600');
    expect(await u.page.getByRole('alert').count()).toBe(0);
    expect(u.errors).toEqual([]);
    await u.context.close();
  });

  it("the admin's prompt-cache table: the share of each model's prompt tokens read from the upstream's cache", async () => {
    const now = Math.floor(Date.now() / 1000);
    const u = await createUser(gateway.test, { username: 'agent' });
    const who = { userId: u.id, username: 'agent', tokenName: 'main' };
    // Two turns of one session: the second read 750 of its 1,000 prompt tokens from the cache.
    await writeUsage(gateway.test.deps, [
      consumeRow(who, { at: now - 120, model: 'claude-agent', prompt: 600, completion: 10, ratio: 1 }),
      consumeRow(who, { at: now - 60, model: 'claude-agent', prompt: 1000, completion: 10, ratio: 1, cached: 750 }),
    ]);
    await s.page.goto('/app/dashboard');
    const row = s.page.getByTestId('cache-shares-models').locator('tr', { hasText: 'claude-agent' });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/1600\s+750\s+47%/);
    expect(s.errors).toEqual([]);
  });

  it('no data reads as no data, and the phone layout stays on the screen', async () => {
    const p = await openSession(browser, gateway.baseUrl, { width: 390, height: 844 });
    await logIn(p, idle);
    await p.page.goto('/app/dashboard');
    await p.page.getByTestId('dashboard-empty').waitFor();
    expect(await p.page.getByTestId('figure-requests').innerText()).toContain('0');
    expect(await overflowing(p.page)).toEqual([]);
    await p.context.close();

    const r = await openSession(browser, gateway.baseUrl, { width: 390, height: 844 });
    await logIn(r, ROOT);
    await r.page.goto('/app/dashboard');
    await r.page.getByTestId('model-breakdown').waitFor();
    await r.page.waitForTimeout(300);
    expect(await overflowing(r.page)).toEqual([]);
    expect(r.errors).toEqual([]);
    await r.context.close();
  });

  // The pictures of this page: `node --import tsx scripts/screenshots.ts --scene dashboard`.
  it('zh and en at 1366 and 390 px: the dashboard with data fits the screen, without page errors', async () => {
    expect(await layoutSweep(browser, gateway.baseUrl, ROOT, dashboardRoutes)).toEqual({ errors: [], overflow: {} });
  }, 180_000);
});
