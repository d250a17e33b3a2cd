import OpenAI from 'openai';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeOpenAI } from '../../scripts/fake-upstream/server.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../relay-fixtures.ts';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, openSession, type Session, startGateway } from './harness.ts';
import { overflowing, screenshotSweep } from './layout-checks.ts';

/*
 * Failed calls in the console (issue 28): a call the relay answers with an error shows in the usage
 * log filtered to "Error" at the next query, within a second, with its status, error code, attempt,
 * "retried" badge and reason, in English and Chinese, on a laptop and on a phone.
 */

const ROOT = { username: ROOT_USERNAME, password: ROOT_PASSWORD };
const WORDS = {
  en: { logType: 'Log type', error: 'Error', query: 'Query', showFilters: 'Show filters', retried: 'Retried' },
  zh: { logType: '日志类型', error: '错误', query: '查询', showFilters: '展开筛选', retried: '已重试' },
};
const REASON = { en: 'Could not connect to the upstream', zh: '上游连接失败' };
const CASES = [
  { lang: 'en', width: 1366 },
  { lang: 'zh', width: 1366 },
  { lang: 'en', width: 390 },
  { lang: 'zh', width: 390 },
] as const;
const deadModel = (lang: string, width: number) => `dead-${lang}-${width}`;

describe('error rows in the usage log', () => {
  let gateway: Gateway;
  let browser: Browser;
  let fake: FakeUpstream;
  let client: OpenAI;

  beforeAll(async () => {
    [gateway, browser, fake] = await Promise.all([startGateway(), launchChromium(), startFakeOpenAI()]);
    await setupRoot(gateway.test);
    const deps = gateway.test.deps;
    const dead = [...CASES.map((c) => deadModel(c.lang, c.width)), 'dead-dash'];
    await setOptions(deps, {
      ModelRatio: JSON.stringify(Object.fromEntries([...dead, 'flaky-model'].map((m) => [m, 1]))),
      RetryTimes: '1',
    });
    // Nothing listens on port 1: every call there is refused (a 502 to the client).
    await insertChannel(deps, { name: 'unreachable', baseUrl: 'http://127.0.0.1:1', models: dead });
    await insertChannel(deps, {
      name: 'flaky',
      baseUrl: fake.url,
      models: ['flaky-model'],
      priority: 10,
      modelMapping: { 'flaky-model': 'fail-503' },
    });
    await insertChannel(deps, { name: 'steady', baseUrl: fake.url, models: ['flaky-model'] });
    const carol = await insertUser(deps, { username: 'carol' });
    const token = await insertToken(deps, carol.id, { name: 'carol-laptop' });
    client = new OpenAI({ apiKey: token.key, baseURL: `${gateway.baseUrl}/v1`, maxRetries: 0 });
    // A call served on the second channel after the first failed: one retried error row.
    await client.chat.completions.create({ model: 'flaky-model', messages: [{ role: 'user', content: 'hi' }] });
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await fake?.close();
  });

  /** Signed in as root over REST, the console in `lang`, at `width`. */
  async function rootSession(lang: 'en' | 'zh', width: number, theme: 'light' | 'dark' = 'light') {
    const res = await fetch(`${gateway.baseUrl}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ROOT),
    });
    const body = (await res.json()) as { data: unknown };
    const s = await openSession(browser, gateway.baseUrl, { lang, width, theme, height: width < 600 ? 844 : 900 });
    await s.context.addCookies(
      res.headers.getSetCookie().map((c) => {
        const [name, ...rest] = c.split(';')[0].split('=');
        return { name, value: rest.join('='), domain: '127.0.0.1', path: '/' };
      }),
    );
    await s.context.addInitScript((u) => localStorage.setItem('user', JSON.stringify(u)), body.data);
    return s;
  }

  /** The usage log, filtered to error rows (the filters unfold first on a phone). */
  async function filterToErrors(page: Page, lang: 'en' | 'zh') {
    const w = WORDS[lang];
    await page.goto('/app/logs/api-usage');
    await page.getByRole('button', { name: w.query, exact: true }).waitFor();
    if (page.viewportSize()!.width < 600) await page.getByRole('button', { name: w.showFilters }).click();
    await page.getByRole('combobox', { name: w.logType, exact: true }).click();
    await page.getByRole('option', { name: w.error, exact: true }).click();
    // Its answer is awaited: on a busy machine it could otherwise arrive after the next query was sent
    // and be taken for that query's answer.
    const listed = page.waitForResponse(
      (r) => r.url().includes('logs.list') && decodeURIComponent(r.url()).includes('"type":6'),
    );
    await page.getByRole('button', { name: w.query, exact: true }).click();
    await listed;
  }

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

  it('screenshots: the usage log filtered to errors and the dashboard, zh/en, 1366 and 390', async () => {
    const errors = await screenshotSweep(browser, gateway.baseUrl, ROOT, [
      {
        route: '/app/logs/api-usage',
        name: 'error_logs',
        ready: async (page) => {
          const lang = (await page.evaluate(() => localStorage.getItem('i18nextLng'))) === 'zh' ? 'zh' : 'en';
          await filterToErrors(page, lang);
          await page.getByTestId('log-error-badges').first().waitFor();
        },
        after: async (page) => {
          const card = page.getByTestId('log-card');
          if (await card.count()) await card.first().getByRole('button').first().click();
          else await page.locator('tbody tr').first().click();
          await page.getByTestId('log-details').first().waitFor();
        },
      },
      {
        route: '/app/dashboard',
        name: 'dashboard_errors',
        ready: (page) => page.getByTestId('error-rates-models').waitFor(),
      },
    ]);
    expect(errors).toEqual([]);
  }, 300_000);
});
