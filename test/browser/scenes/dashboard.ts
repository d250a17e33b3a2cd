import type { NewLog } from '../../../server/db/types.ts';
import type { TestApp } from '../../app.ts';
import { createUser } from '../../users.ts';
import type { Scene, SceneRoute } from '../layout-checks.ts';
import { consumeRow, spread, writeUsage } from '../usage-fixtures.ts';

/*
 * The dashboard's data: one user each with 1 row, 1 hour, 7 days, 30 days and a newcomer's first
 * day of calls, and one idle user: test/browser/dashboard.test.ts and the `dashboard` scene.
 */

const HOUR = 3600;
const DAY = 86_400;

export async function seedDashboard(test: TestApp) {
  const deps = test.deps;
  const now = Math.floor(Date.now() / 1000);
  const who = async (name: string) => {
    const u = await createUser(test, { username: name });
    return { userId: u.id, username: name, tokenName: 'main' };
  };
  // 100 + 15 × 4 tokens at ratio 0.075: 12 quota units, $0.000024.
  await writeUsage(deps, [
    consumeRow(await who('one'), { at: now - 60, model: 'gpt-4o-mini', prompt: 100, completion: 15, ratio: 0.075 }),
  ]);
  await writeUsage(deps, spread(await who('hour'), now - HOUR, now, 40));
  // From just inside the first whole hour of each range, the page's first slot (a fixed offset such as
  // +2 h left the first day empty when the run started after 22:00).
  const firstHour = (range: number) => Math.ceil((now - range) / HOUR) * HOUR + 60;
  const weekRows: NewLog[] = spread(await who('week'), firstHour(7 * DAY), now, 300);
  const monthRows: NewLog[] = spread(await who('month'), firstHour(30 * DAY), now, 600);
  await writeUsage(deps, [...weekRows, ...monthRows]);
  // A newcomer's first day: 150 calls over the last 20 hours (the last minute's calls come in the test).
  const dayRows: NewLog[] = spread(await who('day'), now - 20 * HOUR, now - 120, 150);
  await writeUsage(deps, dayRows);
  const idle = await createUser(test, { username: 'idle' });
  return { idle, dayRows, weekRows, monthRows };
}

export const dashboardRoutes: SceneRoute[] = [
  { route: '/app/dashboard', name: 'dashboard', ready: (page) => page.getByTestId('model-breakdown').waitFor() },
];

export const dashboardScene: Scene = {
  about: "the dashboard with every user's 30 days",
  async setUp(gateway) {
    await seedDashboard(gateway.test);
    return { routes: dashboardRoutes };
  },
};
