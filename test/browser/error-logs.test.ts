import OpenAI from 'openai';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeOpenAI } from '../../scripts/fake-upstream/server.ts';
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
import { layoutSweep, overflowing } from './layout-checks.ts';
import { CASES, deadModel, errorLogRoutes, filterToErrors, seedErrorLogs, WORDS } from './scenes/error-logs.ts';

/*
 * Failed calls in the console (issue 28): a call the relay answers with an error shows in the usage
 * log filtered to "Error" at the next query, within a second, with its status, error code, attempt,
 * "retried" badge and reason, in English and Chinese, on a laptop and on a phone.
 */

const ROOT = { username: ROOT_USERNAME, password: ROOT_PASSWORD };
const REASON = { en: 'Could not connect to the upstream', zh: '上游连接失败' };

describe('error rows in the usage log', () => {
  let gateway: Gateway;
  let browser: Browser;
  let fake: FakeUpstream;
  let client: OpenAI;
  let auth: RestAuth;

  beforeAll(async () => {
    [gateway, browser, fake] = await Promise.all([startGateway(), launchChromium(), startFakeOpenAI()]);
    await setupRoot(gateway.test);
    // A call served on the second channel after the first failed: one retried error row.
    client = await seedErrorLogs(gateway.test.deps, gateway.baseUrl, fake.url);
    auth = await restSignIn(gateway.baseUrl, ROOT);
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await fake?.close();
  });

  /** Signed in as root over REST, the console in `lang`, at `width`. */
  const rootSession = (lang: 'en' | 'zh', width: number) =>
    signedInSession(browser, gateway.baseUrl, auth, { lang, width, height: width < 600 ? 844 : 900 });

  const rowsOf = (s: Session, width: number) =>
    width < 600 ? s.page.getByTestId('log-card') : s.page.locator('[data-testid=log-table] tbody tr');

  for (const { lang, width } of CASES)
    it(`${lang} at ${width} px: a failed call shows within a second, with its status, code and reason`, async () => {
      const s = await rootSession(lang, width);
      await filterToErrors(s.page, lang);
      const model = deadModel(lang, width);
      const row = rowsOf(s, width).filter({ hasText: model });
      expect(await row.count()).toBe(0);

      const err = await client.chat.completions
        .create({ model, messages: [{ role: 'user', content: 'hi' }] })
        .catch((e: unknown) => e);
      const failedAt = Date.now();
      expect(err).toMatchObject({ status: 502 });
      // One query, sent at once: its answer already lists the row (the writer flushes every 50 ms;
      // relay-error-logs.test.ts times it through the REST list: under a second).
      // (A query still in flight from before the failure is not its answer: the request must start after it.)
      const answer = s.page.waitForResponse(
        (r) => r.url().includes('logs.list') && r.request().timing().startTime >= failedAt,
      );
      await s.page.getByRole('button', { name: WORDS[lang].query, exact: true }).click();
      const listed = await answer;
      const askedMs = listed.request().timing().startTime - failedAt;
      expect(await listed.text()).toContain(model);
      console.log(
        `${lang} ${width}: the first query after the failure, sent ${Math.round(askedMs)} ms later, lists it`,
      );
      await row.first().waitFor({ timeout: 5000 });

      const text = await row.first().innerText();
      expect(text).toContain('502');
      expect(text).toContain('upstream_connection_error');
      expect(text).toContain(REASON[lang]);
      expect(text).toContain('ECONNREFUSED');
      // Only error rows are listed; the retried attempt of the earlier call is among them, marked.
      const all = rowsOf(s, width);
      const retried = all.filter({ hasText: 'flaky-model' });
      expect(await retried.first().innerText()).toContain(WORDS[lang].retried);
      expect(await all.filter({ hasText: 'carol' }).count()).toBe(await all.count());

      // Opened: the details list the status, attempt, channel and the request's id.
      if (width < 600) await row.first().getByRole('button').first().click();
      else await row.first().click();
      const details = s.page.getByTestId('log-details').first();
      await details.waitFor();
      const opened = await details.innerText();
      expect(opened).toContain('unreachable');
      expect(opened).toMatch(lang === 'en' ? /Attempt\s+1/ : /尝试次序\s+1/);
      expect(await overflowing(s.page)).toEqual([]);
      expect(s.errors).toEqual([]);
      await s.context.close();
    });

  it('the dashboard shows the error rate per model and per channel', async () => {
    await expect(
      client.chat.completions.create({ model: 'dead-dash', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 502 });
    const s = await rootSession('en', 1366);
    await s.page.goto('/app/dashboard');
    const models = s.page.getByTestId('error-rates-models');
    await models.waitFor();
    // The dead model: one failed call, nothing answered; the retried one: one failure, one answer.
    expect(await models.locator('tr', { hasText: 'dead-dash' }).innerText()).toMatch(/1\s+1\s+100%/);
    expect(await models.locator('tr', { hasText: 'flaky-model' }).innerText()).toMatch(/2\s+1\s+50%/);
    const channels = s.page.getByTestId('error-rates-channels');
    expect(await channels.locator('tr', { hasText: 'unreachable' }).innerText()).toMatch(/(\d+)\s+\1\s+100%/);
    expect(await channels.locator('tr', { hasText: 'flaky' }).innerText()).toMatch(/1\s+1\s+100%/);
    expect(await channels.locator('tr', { hasText: 'steady' }).innerText()).toMatch(/1\s+0\s+0%/);
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  // The pictures of these pages: `node --import tsx scripts/screenshots.ts --scene error-logs`.
  it('zh and en at 1366 and 390 px: the errors, a row opened and the error rates fit the screen, without page errors', async () => {
    expect(await layoutSweep(browser, gateway.baseUrl, ROOT, errorLogRoutes)).toEqual({ errors: [], overflow: {} });
  }, 180_000);
});
