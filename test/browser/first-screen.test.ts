import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertChannel, insertToken } from '../relay-fixtures.ts';
import { createUser, setupRoot, ROOT_PASSWORD, ROOT_USERNAME } from '../users.ts';
import { best, describeFigures, type FirstScreen, measureFirstScreen } from './first-screen.ts';
import { repoRoot } from './global-setup.ts';
import { type Gateway, launchChromium, type RestAuth, restSignIn, startGateway } from './harness.ts';

/*
 * Issue 45, "the first screen is slow": a fresh browser opening /admin/channels after sign-in fetched 136
 * script files and showed its rows after ~4 s on loopback. Here a cold first screen (new context, empty cache)
 * of an admin page and of a user's landing page is measured three times each (plus one run to warm the server),
 * and the best run must keep within scripts/perf-budget.json: few script files, the page's own chunk fetched
 * with the entry (preloaded, not asked for once the entry has run), the data asked for before the page renders,
 * and the rows shown within a second on an idle machine. The times are allowed for a busy machine: the best of
 * three runs counts (a slow run says the machine was busy, the best one what the console allows), and the time
 * budgets are multiplied by how oversubscribed the CPU was (load average per core, at least 1): the suite's
 * machine is shared, and an idle one would read 1. The figures go to test-artifacts/first-screen.json, which
 * .ci/run prints.
 */

interface Budget {
  firstScreen: { scripts: number; dataAskedMs: number; rowsMs: number };
}
const budget = (JSON.parse(readFileSync(path.join(repoRoot, 'scripts/perf-budget.json'), 'utf8')) as Budget)
  .firstScreen;
const RUNS = 3;

describe('a cold first screen', () => {
  let gateway: Gateway;
  let browser: Browser;
  let rootAuth: RestAuth;
  let userAuth: RestAuth;
  const figures: Record<string, { best: FirstScreen; runs: FirstScreen[]; busy: number }> = {};

  beforeAll(async () => {
    gateway = await startGateway();
    await setupRoot(gateway.test);
    const { deps } = gateway.test;
    for (let i = 1; i <= 12; i++)
      await insertChannel(deps, {
        name: `first-screen-channel-${i}`,
        models: ['gpt-4o-mini'],
        baseUrl: 'http://127.0.0.1:9',
      });
    const user = await createUser(gateway.test);
    for (let i = 1; i <= 5; i++) await insertToken(deps, user.id, { name: `first-screen-token-${i}` });
    rootAuth = await restSignIn(gateway.baseUrl, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    userAuth = await restSignIn(gateway.baseUrl, user);
    browser = await launchChromium();
  });

  afterAll(async () => {
    const out = path.join(repoRoot, 'test-artifacts');
    mkdirSync(out, { recursive: true });
    if (Object.keys(figures).length)
      writeFileSync(path.join(out, 'first-screen.json'), JSON.stringify({ budget, pages: figures }, null, 2));
    await browser?.close();
    await gateway?.close();
  });

  async function measure(auth: RestAuth, opts: Parameters<typeof measureFirstScreen>[3]) {
    await measureFirstScreen(browser, gateway.baseUrl, auth, opts); // the server's first answers, not counted
    const runs: FirstScreen[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await measureFirstScreen(browser, gateway.baseUrl, auth, opts));
    const busy = Math.round(Math.max(1, loadavg()[0] / availableParallelism()) * 10) / 10;
    const b = best(runs);
    figures[opts.path] = { best: b, runs, busy };
    console.log(
      `first screen: ${describeFigures(b)}; rows in ${runs.map((r) => r.rowsMs).join(', ')} ms; CPU ×${busy}`,
    );
    return { f: b, busy };
  }

  function expectWithinBudget({ f, busy }: { f: FirstScreen; busy: number }) {
    expect(f.scripts, 'script files fetched').toBeLessThanOrEqual(budget.scripts);
    // Preloaded with the HTML: asked for before the entry script had even arrived, let alone run.
    expect(f.pageChunkAskedMs, "when the page's chunk was asked for").toBeLessThan(f.entryArrivedMs);
    expect(f.dataAskedMs, 'ms until the data was asked for').toBeLessThanOrEqual(budget.dataAskedMs * busy);
    expect(f.rowsMs, 'ms until the rows showed').toBeLessThanOrEqual(budget.rowsMs * busy);
  }

  it('an administrator opening the channel list sees its rows within the budget', async () => {
    const f = await measure(rootAuth, {
      path: '/admin/channels',
      dataProcedure: 'channels.list',
      marker: 'first-screen-channel-1',
      pageChunk: 'ChannelsPage',
    });
    expectWithinBudget(f);
  });

  it('a user opening the token list sees its rows within the budget', async () => {
    const f = await measure(userAuth, {
      path: '/app/tokens',
      dataProcedure: 'tokens.list',
      marker: 'first-screen-token-1',
      pageChunk: 'TokensPage',
    });
    expectWithinBudget(f);
  });
});
