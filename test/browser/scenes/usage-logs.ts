import type { TestApp } from '../../app.ts';
import { createUser } from '../../users.ts';
import type { Scene, SceneRoute } from '../layout-checks.ts';
import { consumeRow, spread, writeUsage } from '../usage-fixtures.ts';

/*
 * The usage log with a day of one user's calls and one newest row of exactly 12 quota units
 * ($0.000024): test/browser/usage-logs.test.ts and scripts/screenshots.ts's `usage-logs` scene.
 */

/** Alice's 40 calls over 20 hours, Bob's one call of 12 units, Bob's 6 units used; returns Bob. */
export async function seedUsageLogs(test: TestApp) {
  const deps = test.deps;
  const alice = await createUser(test, { username: 'alice.nakamura-acct' });
  const bob = await createUser(test, { username: 'bob' });
  const now = Math.floor(Date.now() / 1000);
  await writeUsage(
    deps,
    spread(
      { userId: alice.id, username: alice.username, tokenName: 'production-backend-eu-west' },
      now - 20 * 3600,
      now - 600,
      40,
    ),
  );
  // The newest row: 100 prompt + 15 completion tokens × 4 at ratio 0.075 = 12 quota units.
  await writeUsage(deps, [
    consumeRow(
      { userId: bob.id, username: 'bob', tokenName: 'laptop' },
      { at: now - 30, model: 'gpt-4o-mini', prompt: 100, completion: 15, ratio: 0.075, completionRatio: 4 },
    ),
  ]);
  // Six units used: "$0.000012", which used to read "$0.01".
  await deps.db.updateTable('users').set({ used_quota: 6 }).where('id', '=', bob.id).execute();
  return bob;
}

/** The log, then its first row opened (a card's Details button on a phone). */
export const usageLogRoutes: SceneRoute[] = [
  {
    route: '/app/logs/api-usage',
    name: 'usage_logs',
    ready: (page) => page.getByText('$0.000024', { exact: true }).first().waitFor(),
    after: async (page) => {
      const card = page.getByTestId('log-card');
      if (await card.count()) await card.first().getByRole('button').first().click();
      else await page.locator('tbody tr').first().click();
      await page.getByTestId('cost-formula').first().waitFor();
    },
  },
];

export const usageLogsScene: Scene = {
  about: 'the usage log, a row closed and opened',
  async setUp(gateway) {
    await seedUsageLogs(gateway.test);
    return { routes: usageLogRoutes };
  },
};
