import { mkdirSync } from 'node:fs';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertToken } from '../relay-fixtures.ts';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, type Session, startGateway } from './harness.ts';

/*
 * Issue 39, "balances show six decimals ($9.736676)": a balance reads at the cents that can be spent,
 * rounded down ($9.73, never $9.74), with the exact amount on hover (the title); a total used reads at the
 * nearest cent. The same on every page that shows one, on a desktop and on a phone, light and dark.
 */

/** 4,868,338 quota at 500,000 per $ is exactly $9.736676. */
const BALANCE = 4_868_338;
const SHOWN = '$9.73';
const EXACT = '$9.736676';
/** Used: 1,234,567 quota is $2.469134, to the nearest cent $2.47. */
const USED = 1_234_567;
const wait = { timeout: 15_000 };
const shots = process.env.SHOTS_DIR ?? '/work/notes/shots/money-cents';

describe('money at the cents a user can spend', () => {
  let gateway: Gateway;
  let browser: Browser;

  beforeAll(async () => {
    const dist = process.env.BROWSER_CLIENT_DIST;
    gateway = await startGateway(dist ? { clientDist: dist } : {});
    await setupRoot(gateway.test);
    const { db } = gateway.test.deps;
    const root = await db
      .selectFrom('users')
      .select('id')
      .where('username', '=', ROOT_USERNAME)
      .executeTakeFirstOrThrow();
    await db.updateTable('users').set({ quota: BALANCE, used_quota: USED }).where('id', '=', root.id).execute();
    await insertToken(gateway.test.deps, root.id, { name: 'cents-token', remainQuota: BALANCE });
    browser = await launchChromium();
    mkdirSync(shots, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  /** The text shown and the exact amount its title gives on hover. */
  async function money(where: Locator) {
    const el = where.locator('[title]').first();
    await el.waitFor(wait);
    return { text: (await el.innerText()).trim(), title: await el.getAttribute('title') };
  }

  for (const [width, height, theme] of [
    [1366, 860, 'light'],
    [1366, 860, 'dark'],
    [390, 844, 'light'],
    [390, 844, 'dark'],
  ] as const) {
    it(`every balance reads ${SHOWN} with ${EXACT} on hover at ${width} px, ${theme}`, async () => {
      const s: Session = await openSession(browser, gateway.baseUrl, { width, height, theme });
      await logIn(s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
      const { page } = s;
      const shot = (name: string) => page.screenshot({ path: `${shots}/${name}-${width}-${theme}.png` });
      try {
        await page.goto('/app/wallet');
        expect(await money(page.getByTestId('wallet-balance'))).toEqual({ text: SHOWN, title: EXACT });
        // Used is not spendable: the nearest cent.
        await expect.poll(() => page.getByTitle('$2.469134').first().innerText(), wait).toBe('$2.47');
        await shot('wallet');

        await page.goto('/app/dashboard');
        expect(await money(page.getByTestId('figure-balance-value'))).toEqual({ text: SHOWN, title: EXACT });
        await shot('dashboard');

        await page.goto('/app/me');
        expect(await money(page.getByTestId('balance'))).toEqual({ text: SHOWN, title: EXACT });
        await shot('me');

        await page.goto('/app/logs/api-usage');
        expect(await money(page.getByTestId('log-balance'))).toEqual({ text: SHOWN, title: EXACT });

        await page.goto('/app/tokens');
        // A token's remaining quota is a balance too.
        await expect.poll(() => page.getByTitle(EXACT).first().innerText(), wait).toBe(SHOWN);
        await shot('tokens');

        await page.goto('/admin/users');
        await expect.poll(() => page.getByTitle(EXACT).first().innerText(), wait).toBe(SHOWN);
        await shot('admin-users');

        // Nowhere does the six-decimal amount show as text.
        for (const path of ['/app/wallet', '/app/dashboard', '/app/me']) {
          await page.goto(path);
          await page.getByTitle(EXACT).first().waitFor(wait);
          expect(await page.locator('body').innerText(), path).not.toContain(EXACT);
        }
        expect(s.errors).toEqual([]);
      } finally {
        await s.context.close();
      }
    }, 120_000);
  }
});
