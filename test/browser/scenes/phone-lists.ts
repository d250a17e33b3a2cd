import type { Page } from 'playwright-core';
import type { AppDeps } from '../../../server/context.ts';
import { nowSeconds } from '../../../server/db/time.ts';
import type { TestApp } from '../../app.ts';
import { insertChannel, insertToken, setOptions } from '../../relay-fixtures.ts';
import { createUser, ROOT_USERNAME } from '../../users.ts';
import type { Scene, SceneRoute } from '../layout-checks.ts';
import { consumeRow, writeUsage } from '../usage-fixtures.ts';

/*
 * Every list page with one seeded row: test/browser/phone-tables.test.ts and the `phone-lists` scene.
 */

type Lang = 'en' | 'zh';
/** A key field: its exact text, a pattern, or a test id. */
export type Needle = string | RegExp | { testId: string };

export interface ListPage {
  route: string;
  /** Waits for the seeded row. */
  ready: Needle;
  keys: (lang: Lang) => Needle[];
}

const TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

export const LIST_PAGES: ListPage[] = [
  {
    route: '/app/tokens',
    ready: 'phone-token',
    keys: () => ['phone-token', /^\$20\.00$/, /^\$2\.4\d+$/, { testId: 'token-key' }],
  },
  { route: '/pricing', ready: 'phone-model', keys: () => ['phone-model', /\$5(\.0+)?\b/] },
  { route: '/admin/users', ready: 'phone-user', keys: () => ['phone-user', /^\$30\.00$/] },
  { route: '/admin/channels', ready: 'phone-channel', keys: () => ['phone-channel', /^OpenAI$/] },
  { route: '/app/logs/api-usage', ready: 'phone-model', keys: () => ['phone-model', /^\$0\.0\d+$/, TIME] },
  { route: '/app/logs/drawing', ready: 'phone-mj-1', keys: () => ['phone-mj-1', TIME] },
  { route: '/app/logs/tasks', ready: 'phone-task-1', keys: () => ['phone-task-1', TIME] },
  { route: '/admin/messages', ready: 'Phone message', keys: () => ['Phone message', TIME] },
  { route: '/app/inbox', ready: 'Phone message', keys: () => ['Phone message'] },
  { route: '/admin/coupons', ready: 'phone-code', keys: () => ['phone-code', /^\$10\.00$/] },
  { route: '/app/wallet', ready: '¥12.00', keys: (lang) => ['¥12.00', lang === 'zh' ? '已支付' : 'Paid'] },
];

export async function findNeedle(page: Page, n: Needle) {
  if (typeof n === 'object' && !(n instanceof RegExp)) return page.getByTestId(n.testId).first();
  return page.getByText(n, { exact: typeof n === 'string' }).first();
}

/** One row on each list of LIST_PAGES, root's where the list is a user's own. */
export async function seedPhoneLists(test: TestApp, rootId: number) {
  const deps: AppDeps = test.deps;
  await setOptions(deps, { ModelRatio: JSON.stringify({ 'phone-model': 2.5 }), CompletionRatio: '{}' });
  const token = await insertToken(deps, rootId, { name: 'phone-token', remainQuota: 10_000_000 });
  await deps.db.updateTable('tokens').set({ used_quota: 1_234_567 }).where('id', '=', token.id).execute();
  await createUser(test, { username: 'phone-user', quota: 15_000_000 });
  await insertChannel(deps, { name: 'phone-channel', type: 1, baseUrl: 'http://127.0.0.1:9', models: ['phone-model'] });
  const now = nowSeconds();
  await writeUsage(deps, [
    consumeRow(
      { userId: rootId, username: ROOT_USERNAME, tokenName: 'phone-token' },
      { at: now - 60, model: 'phone-model', prompt: 1200, completion: 300, ratio: 2.5 },
    ),
  ]);
  await deps.db
    .insertInto('midjourneys')
    .values({
      user_id: rootId,
      action: 'IMAGINE',
      mj_id: 'phone-mj-1',
      prompt: 'a lighthouse',
      status: 'SUCCESS',
      progress: '100%',
      code: 1,
      submit_time: (now - 120) * 1000,
      finish_time: (now - 60) * 1000,
      channel_id: 1,
    })
    .execute();
  await deps.db
    .insertInto('tasks')
    .values({
      task_id: 'phone-task-1',
      platform: 'suno',
      user_id: rootId,
      action: 'MUSIC',
      status: 'SUCCESS',
      progress: '100%',
      submit_time: now - 120,
      finish_time: now - 60,
      channel_id: 1,
    })
    .execute();
  await deps.services.messages.create(
    { title: 'Phone message', content: 'Hello from the phone test', format: 'markdown', userIds: [rootId] },
    rootId,
  );
  await deps.db
    .insertInto('redemptions')
    .values({ key: 'phone-code-key-0001', name: 'phone-code', quota: 5_000_000, created_time: now, status: 1 })
    .execute();
  await deps.db
    .insertInto('top_ups')
    .values({
      user_id: rootId,
      amount: 12,
      money: 12,
      trade_no: 'phone-order-1',
      payment_method: 'alipay',
      status: 'success',
      create_time: now - 300,
      complete_time: now - 290,
    })
    .execute();
}

export const phoneListRoutes: SceneRoute[] = LIST_PAGES.map((p) => ({
  route: p.route,
  name: `list-${p.route.replace(/^\//, '').replace(/\//g, '_')}`,
  ready: async (page) => {
    await (await findNeedle(page, p.ready)).waitFor({ timeout: 15_000 });
    await page.waitForLoadState('networkidle');
  },
}));

export const phoneListsScene: Scene = {
  about: 'every list page with one seeded row',
  async setUp(gateway) {
    const root = await gateway.test.deps.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', ROOT_USERNAME)
      .executeTakeFirstOrThrow();
    await seedPhoneLists(gateway.test, Number(root.id));
    return { routes: phoneListRoutes };
  },
};
