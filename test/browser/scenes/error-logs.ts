import OpenAI from 'openai';
import type { Page } from 'playwright-core';
import type { AppDeps } from '../../../server/context.ts';
import { startFakeOpenAI } from '../../../scripts/fake-upstream/server.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../../relay-fixtures.ts';
import type { Scene, SceneRoute } from '../layout-checks.ts';

/*
 * Failed calls in the usage log and on the dashboard: a channel nobody answers on, a flaky one that
 * fails over to a steady one, and Carol's key: test/browser/error-logs.test.ts and the `error-logs` scene.
 */

export const WORDS = {
  en: { logType: 'Log type', error: 'Error', query: 'Query', showFilters: 'Show filters', retried: 'Retried' },
  zh: { logType: '日志类型', error: '错误', query: '查询', showFilters: '展开筛选', retried: '已重试' },
};
export const CASES = [
  { lang: 'en', width: 1366 },
  { lang: 'zh', width: 1366 },
  { lang: 'en', width: 390 },
  { lang: 'zh', width: 390 },
] as const;
export const deadModel = (lang: string, width: number) => `dead-${lang}-${width}`;

/**
 * The channels (the dead models served only by port 1, where nothing listens) and Carol's client, after
 * one call served on the second channel once the first failed: one retried error row.
 */
export async function seedErrorLogs(deps: AppDeps, baseUrl: string, fakeUrl: string): Promise<OpenAI> {
  const dead = [...CASES.map((c) => deadModel(c.lang, c.width)), 'dead-dash'];
  await setOptions(deps, {
    ModelRatio: JSON.stringify(Object.fromEntries([...dead, 'flaky-model'].map((m) => [m, 1]))),
    RetryTimes: '1',
  });
  await insertChannel(deps, { name: 'unreachable', baseUrl: 'http://127.0.0.1:1', models: dead });
  await insertChannel(deps, {
    name: 'flaky',
    baseUrl: fakeUrl,
    models: ['flaky-model'],
    priority: 10,
    modelMapping: { 'flaky-model': 'fail-503' },
  });
  await insertChannel(deps, { name: 'steady', baseUrl: fakeUrl, models: ['flaky-model'] });
  const carol = await insertUser(deps, { username: 'carol' });
  const token = await insertToken(deps, carol.id, { name: 'carol-laptop' });
  const client = new OpenAI({ apiKey: token.key, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
  await client.chat.completions.create({ model: 'flaky-model', messages: [{ role: 'user', content: 'hi' }] });
  return client;
}

/** The usage log, filtered to error rows (the filters unfold first on a phone). */
export async function filterToErrors(page: Page, lang: 'en' | 'zh') {
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

/** The log filtered to errors, a row closed and opened, and the dashboard's error rates. */
export const errorLogRoutes: SceneRoute[] = [
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
];

export const errorLogsScene: Scene = {
  about: 'the usage log filtered to errors (a row opened) and the error rates on the dashboard',
  async setUp(gateway) {
    const fake = await startFakeOpenAI();
    const client = await seedErrorLogs(gateway.test.deps, gateway.baseUrl, fake.url);
    // A failed call for the dead channel's row too.
    await client.chat.completions
      .create({ model: 'dead-dash', messages: [{ role: 'user', content: 'hi' }] })
      .catch(() => undefined);
    return { routes: errorLogRoutes, close: () => fake.close() };
  },
};
