import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, launchChromium, openSession, startGateway, logIn } from './harness.ts';
import { layoutSweep } from './layout-checks.ts';
import { PAINTER, seedTaskLogs, taskLogRoutes } from './scenes/task-logs.ts';

/*
 * Drawing and task logs in a browser: tasks are submitted through the real
 * /mj and /suno front doors to the fake upstreams and polled to their final
 * states; the pages then show them to root (all users, channel column, callback
 * notice) and to a normal user (own tasks only), in both languages at both widths.
 */

const ROOT = { username: 'root', password: 'root-password-1' };
const USER = PAINTER;

describe('drawing and task logs in a browser', () => {
  let gateway: Gateway;
  let browser: Browser;
  let closeFakes: (() => Promise<unknown>) | undefined;

  beforeAll(async () => {
    [gateway, browser] = await Promise.all([startGateway(), launchChromium()]);
    const res = await fetch(`${gateway.baseUrl}/api/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ROOT.username, password: ROOT.password, confirmPassword: ROOT.password }),
    });
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
    closeFakes = await seedTaskLogs(gateway);
  });

  afterAll(async () => {
    await browser?.close();
    await closeFakes?.();
    await gateway?.close();
  });

  it('root sees every drawing, the channel column and the callback notice; the image opens in a preview', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await logIn(s, ROOT);
    await s.page.getByRole('link', { name: 'Drawing logs' }).click();
    await s.page.waitForURL('**/app/logs/drawing');
    await s.page.getByTestId('mj-callback-notice').waitFor();
    await s.page.getByText('someone else drawing', { exact: true }).waitFor();
    await s.page.getByRole('columnheader', { name: 'Channel', exact: true }).waitFor();
    expect(await s.page.getByText('Failed', { exact: true }).count()).toBe(1);
    await s.page.getByRole('button', { name: 'View image' }).first().click();
    await s.page.getByRole('dialog', { name: 'Image preview' }).getByRole('img', { name: 'Image preview' }).waitFor();
    await s.page.keyboard.press('Escape');
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('a user sees only their own drawings and no admin notice or channel column', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await logIn(s, USER);
    await s.page.goto('/app/logs/drawing');
    await s.page.getByText('a lighthouse at dusk, oil painting', { exact: true }).waitFor();
    expect(await s.page.getByText('someone else drawing', { exact: true }).count()).toBe(0);
    expect(await s.page.getByTestId('mj-callback-notice').count()).toBe(0);
    expect(await s.page.getByRole('columnheader', { name: 'Channel', exact: true }).count()).toBe(0);
    await s.page.goto('/app/logs/tasks');
    await s.page.getByText('Generate lyrics').waitFor();
    await s.page.getByRole('button', { name: 'View lyrics' }).click();
    await s.page.getByRole('dialog', { name: 'Task result' }).getByText('lyrics about the sea').waitFor();
    await s.page.keyboard.press('Escape');
    await s.page.getByRole('button', { name: 'Listen' }).first().click();
    expect(await s.page.getByRole('dialog', { name: 'Task result' }).locator('audio').count()).toBe(2);
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  // The pictures of these pages: `node --import tsx scripts/screenshots.ts --scene task-logs`.
  it('zh and en at 1366 and 390 px: both logs fit the screen, without page errors', async () => {
    expect(await layoutSweep(browser, gateway.baseUrl, ROOT, taskLogRoutes)).toEqual({ errors: [], overflow: {} });
  }, 180_000);
});
