import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, launchChromium, openSession, startGateway } from './harness.ts';

/*
 * The console spec's New-Year-day easter egg (§2.14): only on 1 January the top bar
 * has a greeting item; choosing it wishes a happy new year and reloads the page.
 * The browser's clock is set, the server's is not involved.
 */

describe('New Year easter egg', () => {
  let gateway: Gateway;
  let browser: Browser;
  beforeAll(async () => {
    [gateway, browser] = await Promise.all([startGateway(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('appears on 1 January only, greets, and reloads the page a moment later', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await s.page.clock.setFixedTime(new Date(2027, 0, 1, 10, 0, 0));
    await s.page.goto('/about');
    const egg = s.page.getByRole('button', { name: 'Happy New Year', exact: true });
    await egg.waitFor();
    let loads = 0;
    s.page.on('load', () => loads++);
    await egg.click();
    await s.page.getByText('Happy New Year!').waitFor();
    await s.page.waitForEvent('load', { timeout: 10_000 });
    expect(loads).toBe(1);
    expect(s.errors).toEqual([]);

    await s.page.clock.setFixedTime(new Date(2027, 0, 2, 10, 0, 0));
    await s.page.reload();
    await s.page.getByRole('link', { name: 'About' }).first().waitFor();
    expect(await s.page.getByRole('button', { name: 'Happy New Year', exact: true }).count()).toBe(0);
    await s.context.close();
  });
});
