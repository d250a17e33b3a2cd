import OpenAI from 'openai';
import { startFakeOpenAI } from '../../../scripts/fake-upstream/server.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../../relay-fixtures.ts';
import type { Scene, SceneRoute } from '../layout-checks.ts';

/*
 * Issue 45, "shown right" (test/browser/channel-shown-right.test.ts seeds the same): a channel whose test
 * failed but that serves calls, one whose calls fail after a good test, a tag whose channels differ; the
 * users page with root's own row; the two-factor card; the plan form's renewal choices.
 */
const tagMode = (on: boolean) => async (page: import('playwright-core').Page) => {
  await page.evaluate((v) => (v ? localStorage.setItem('tag-mode', 'true') : localStorage.removeItem('tag-mode')), on);
  await page.reload();
};

export const shownRightRoutes: SceneRoute[] = [
  {
    route: '/admin/channels',
    name: 'shown-right-channels',
    ready: async (page) => {
      await tagMode(false)(page);
      await page.locator('[data-state="calls-failing"]').first().waitFor({ state: 'attached', timeout: 60_000 });
    },
    after: (page) => page.locator('[data-state="calls-ok"]:visible').first().hover(),
  },
  {
    route: '/admin/channels',
    name: 'shown-right-tags',
    ready: async (page) => {
      await tagMode(true)(page);
      // A phone shows priority and weight under a card's "more".
      await page
        .locator('[data-mixed], [data-testid="phone-card"]')
        .first()
        .waitFor({ state: 'attached', timeout: 60_000 });
    },
    after: async (page) => {
      await page
        .getByRole('button', { name: /^(编辑标签|Edit tag)$/ })
        .first()
        .click();
      await page.getByRole('dialog').waitFor();
    },
  },
  {
    route: '/admin/users',
    name: 'shown-right-users',
    ready: (page) => page.locator('.mantine-Badge-root[data-status-dot]').first().waitFor({ timeout: 60_000 }),
    // Root's own row: its menu stays greyed out, and says why on hover.
    after: (page) => page.locator('span:has(> button[disabled]):visible').first().hover(),
  },
  {
    route: '/app/me',
    name: 'shown-right-2fa',
    ready: (page) => page.getByTestId('two-factor-state').waitFor({ timeout: 60_000 }),
    part: (page) => page.getByTestId('two-factor-card'),
  },
  {
    route: '/admin/subscriptions',
    name: 'shown-right-plan',
    ready: (page) => page.getByTestId('create-plan').waitFor({ timeout: 60_000 }),
    after: async (page) => {
      await page.getByTestId('create-plan').click();
      await page.getByTestId('plan-reset').click();
    },
  },
];

export const shownRightScene: Scene = {
  about: 'channel status after calls, a tag with mixed values, users, 2FA, plan renewal',
  async setUp(gateway) {
    const fake = await startFakeOpenAI();
    const deps = gateway.test.deps;
    const base = fake.url.replace(/\/v1$/, '');
    const recovered = await insertChannel(deps, {
      name: 'Recovered',
      baseUrl: base,
      models: ['rec-m', 'rec-m+fail-500'],
    });
    const broke = await insertChannel(deps, {
      name: 'Broke',
      baseUrl: base,
      models: ['brk-m', 'brk-m+fail-502'],
      autoBan: false,
    });
    const pool: number[] = [];
    for (const [i, [priority, weight]] of [
      [10, 5],
      [0, 0],
      [0, 0],
      [0, 0],
    ].entries())
      pool.push(await insertChannel(deps, { name: `Pool ${i}`, baseUrl: base, models: ['pool-m'], priority, weight }));
    await deps.services.channels.batchTag(pool, 'pool');
    await setOptions(deps, {
      ModelRatio: JSON.stringify({ 'rec-m': 1, 'rec-m+fail-500': 1, 'brk-m': 1, 'brk-m+fail-502': 1 }),
    });
    const user = await insertUser(deps);
    const sdk = new OpenAI({
      apiKey: (await insertToken(deps, user.id, { unlimited: true })).key,
      baseURL: `${gateway.baseUrl}/v1`,
      maxRetries: 0,
    });
    await deps.services.channels.testChannel(recovered, 'rec-m+fail-500');
    await deps.services.channels.testChannel(broke, 'brk-m');
    await sdk.chat.completions.create({ model: 'rec-m', messages: [{ role: 'user', content: 'hi' }] });
    await sdk.chat.completions
      .create({ model: 'brk-m+fail-502', messages: [{ role: 'user', content: 'hi' }] })
      .catch(() => undefined);
    return { routes: shownRightRoutes, close: () => fake.close() };
  },
};
