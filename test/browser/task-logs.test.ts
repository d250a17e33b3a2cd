import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMidjourney, startFakeMidjourney } from '../../scripts/fake-upstream/midjourney.ts';
import { type FakeSuno, startFakeSuno } from '../../scripts/fake-upstream/suno.ts';
import { taskPollerOf } from '../../server/relay/tasks/routes.ts';
import { relayRuntimeOf } from '../../server/relay/runtime.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../relay-fixtures.ts';
import { type Gateway, launchChromium, openSession, startGateway, logIn } from './harness.ts';
import { repoRoot } from './global-setup.ts';
import { sweepThemes } from './layout-checks.ts';

/*
 * Drawing and task logs in a browser: tasks are submitted through the real
 * /mj and /suno front doors to the fake upstreams and polled to their final
 * states; the pages then show them to root (all users, channel column, callback
 * notice) and to a normal user (own tasks only). Screenshots go to test-artifacts.
 */

const ROOT = { username: 'root', password: 'root-password-1' };
const USER = { username: 'painter', password: 'painter-pass-1' };
const shots = path.join(repoRoot, 'test-artifacts/screenshots');

describe('drawing and task logs in a browser', () => {
  let gateway: Gateway;
  let mj: FakeMidjourney;
  let suno: FakeSuno;
  let browser: Browser;

  beforeAll(async () => {
    [gateway, mj, suno, browser] = await Promise.all([
      startGateway(),
      startFakeMidjourney({ stepMs: 1000 }),
      startFakeSuno({ stepMs: 1000 }),
      launchChromium(),
    ]);
    const deps = gateway.test.deps;
    await taskPollerOf(deps)!.stop();
    const res = await fetch(`${gateway.baseUrl}/api/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ROOT.username, password: ROOT.password, confirmPassword: ROOT.password }),
    });
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
    await setOptions(deps, { DrawingEnabled: 'true', TaskEnabled: 'true', ServerAddress: gateway.baseUrl });
    await insertChannel(deps, { type: 2, key: 'mj-secret', baseUrl: mj.url, models: ['mj_imagine', 'mj_upscale'] });
    await insertChannel(deps, { type: 36, key: 'suno-key', baseUrl: suno.url, models: ['suno_music', 'suno_lyrics'] });
    const user = await deps.services.users.createUserDirect({ ...USER, role: 1, quota: 10_000_000 });
    const other = await insertUser(deps, { quota: 10_000_000 });
    const key = (await insertToken(deps, Number(user.id), { unlimited: true })).key;
    const otherKey = (await insertToken(deps, other.id, { unlimited: true })).key;
    const post = (p: string, k: string, body: object) =>
      fetch(`${gateway.baseUrl}${p}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await post('/mj/submit/imagine', key, { prompt: 'a lighthouse at dusk, oil painting' });
    await post('/mj/submit/imagine', key, { prompt: 'this one will fail' });
    await post('/mj/submit/imagine', otherKey, { prompt: 'someone else drawing' });
    await post('/suno/submit/music', key, { prompt: 'a calm piano song' });
    await post('/suno/submit/lyrics', key, { prompt: 'lyrics about the sea' });
    await post('/suno/submit/music', key, { prompt: 'please fail' });
    mj.advance(60_000);
    suno.advance(60_000);
    await taskPollerOf(deps)!.pollOnce();
    // One still running, to show progress.
    await post('/mj/submit/imagine', key, { prompt: 'still drawing' });
    mj.advance(4_000);
    await taskPollerOf(deps)!.pollOnce();
    await relayRuntimeOf(deps)!.drain();
    mkdirSync(shots, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await mj?.close();
    await suno?.close();
    await gateway?.close();
  });

  it('root sees every drawing, the channel column and the callback notice; the image opens in a preview', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await logIn(s, ROOT);
    await s.page.getByRole('link', { name: 'Drawing logs' }).click();
    await s.page.waitForURL('**/app/logs/drawing');
    await s.page.getByTestId('mj-callback-notice').waitFor();
    await s.page.getByText('someone else drawing', { exact: true }).waitFor();
    await s.page.getByRole('columnheader', { name: 'Channel', exact: true }).waitFor();
    expect(await s.page.getByText('Failed', { exact: true }).count()).toBe(1);
    await s.page.getByRole('button', { name: 'View image' }).first().click();
    await s.page.getByRole('dialog', { name: 'Image preview' }).getByRole('img', { name: 'Image preview' }).waitFor();
    await s.page.keyboard.press('Escape');
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('a user sees only their own drawings and no admin notice or channel column', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await logIn(s, USER);
    await s.page.goto('/app/logs/drawing');
    await s.page.getByText('a lighthouse at dusk, oil painting', { exact: true }).waitFor();
    expect(await s.page.getByText('someone else drawing', { exact: true }).count()).toBe(0);
    expect(await s.page.getByTestId('mj-callback-notice').count()).toBe(0);
    expect(await s.page.getByRole('columnheader', { name: 'Channel', exact: true }).count()).toBe(0);
    await s.page.goto('/app/logs/tasks');
    await s.page.getByText('Generate lyrics').waitFor();
    await s.page.getByRole('button', { name: 'View lyrics' }).click();
    await s.page.getByRole('dialog', { name: 'Task result' }).getByText('lyrics about the sea').waitFor();
    await s.page.keyboard.press('Escape');
    await s.page.getByRole('button', { name: 'Listen' }).first().click();
    expect(await s.page.getByRole('dialog', { name: 'Task result' }).locator('audio').count()).toBe(2);
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('screenshots: zh/en, desktop and phone', async () => {
    for (const theme of sweepThemes())
      for (const lang of ['zh', 'en'] as const)
        for (const width of [1366, 390]) {
          const s = await openSession(browser, gateway.baseUrl, { theme, width, height: 900 });
          await logIn(s, ROOT);
          // Signed in with the English form; the language switches afterwards.
          await s.page.evaluate((l) => localStorage.setItem('i18nextLng', l), lang);
          for (const [route, name] of [
            ['/app/logs/drawing', 'drawing_logs'],
            ['/app/logs/tasks', 'task_logs'],
          ]) {
            await s.page.goto(route);
            await s.page.locator('tbody tr, [data-testid="phone-card"]').first().waitFor();
            await s.page.waitForTimeout(300);
            await s.page.screenshot({
              path: path.join(shots, `${name}-${theme}-${lang}-${width}.png`),
              fullPage: true,
            });
          }
          expect(s.errors).toEqual([]);
          await s.context.close();
        }
  });
});
