import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, type RestAuth, restSignIn, signedInSession, startGateway } from './harness.ts';
import { overflowing } from './layout-checks.ts';
import { cookieOf, DONE_PROMPT, seedVideoTasks, SORA_PRICE, type VideoSeed } from './scenes/video-tasks.ts';

/*
 * Video jobs in the console (issue 40), through the real console video door to the Sora fake: the task
 * log plays a finished job's file (streamed by the gateway: the <video> loads real MP4 bytes) and says
 * why a failed one failed; the playground's video tab submits, shows progress and plays; at 1366 and
 * 390 px. An admin plays another user's job; another user cannot. SHOTS_DIR=<folder> also saves pictures.
 */

const SHOTS = process.env.SHOTS_DIR;
const WIDTHS = [1366, 390] as const;
/** One dollar is 500,000 quota; a 4-second sora-2 job at $0.10 a second. */
const JOB_DOLLARS = `$${(SORA_PRICE * 4).toFixed(2)}`;

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** Waits until the page's <video> has read the file's header from real bytes (what a user sees start). */
async function videoLoads(page: Page) {
  await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) > 0, null, {
    timeout: 20_000,
  });
  return page.evaluate(() => {
    const v = document.querySelector('video')!;
    return { src: v.currentSrc, duration: v.duration, width: v.videoWidth };
  });
}

describe('video jobs in the console', () => {
  let gateway: Gateway;
  let browser: Browser;
  let seed: VideoSeed;
  let root: RestAuth;

  const balance = async (userId: number) =>
    Number(
      (
        await gateway.test.deps.db
          .selectFrom('users')
          .select('quota')
          .where('id', '=', userId)
          .executeTakeFirstOrThrow()
      ).quota,
    );

  beforeAll(async () => {
    [gateway, browser] = await Promise.all([startGateway(), launchChromium()]);
    await setupRoot(gateway.test);
    seed = await seedVideoTasks(gateway);
    root = await restSignIn(gateway.baseUrl, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
  });

  afterAll(async () => {
    await browser?.close();
    await seed?.sora.close();
    await gateway?.close();
  });

  it("new-api's /api/task/self lists the jobs in its shape, without the upstream's id, host or the gateway's own record", async () => {
    const res = await fetch(`${gateway.baseUrl}/api/task/self?p=0`, {
      headers: { cookie: cookieOf(seed.auth), 'New-Api-User': String(seed.userId) },
    });
    const body = (await res.json()) as { success: boolean; data: { items?: unknown[] } | unknown[] };
    expect(body.success).toBe(true);
    const items = (Array.isArray(body.data) ? body.data : (body.data.items ?? [])) as Record<string, unknown>[];
    const done = items.find((t) => t.task_id === seed.done)!;
    expect(done).toMatchObject({ platform: '55', status: 'SUCCESS', progress: '100%', quota: 200_000 });
    expect(done.properties).toMatchObject({ input: DONE_PROMPT, origin_model_name: 'sora-2' });
    const failed = items.find((t) => t.task_id === seed.failed)!;
    expect(failed).toMatchObject({ status: 'FAILURE', quota: 0 });
    expect(failed.result_url).toBeUndefined();
    // new-api's console plays result_url ("点击预览视频"): the gateway's content route, with the session.
    expect(done.result_url).toBe(`${gateway.baseUrl}/pg/videos/${seed.done}/content`);
    const file = await fetch(done.result_url as string, { headers: { cookie: cookieOf(seed.auth) } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    const admin = await fetch(`${gateway.baseUrl}/api/task/?p=0`, {
      headers: { cookie: cookieOf(root), 'New-Api-User': '1' },
    });
    const all = JSON.stringify(await admin.json());
    expect(all).toContain(`/pg/videos/${seed.done}/content`);
    expect(all).not.toContain('_switchyard');
    expect(all).not.toContain(new URL(seed.sora.url).host);
    const text = JSON.stringify(body);
    expect(text).not.toContain('_switchyard');
    expect(text).not.toContain(new URL(seed.sora.url).host);
    for (const upstreamId of seed.sora.videos.keys()) expect(text).not.toContain(upstreamId);
  });

  it('the file streams through the gateway with Range; another user gets 404, an admin plays it', async () => {
    const url = `${gateway.baseUrl}/pg/videos/${seed.done}/content`;
    const part = await fetch(url, { headers: { cookie: cookieOf(seed.auth), range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toMatch(/^bytes 0-99\//);
    const upstream = [...seed.sora.videos.values()].find((v) => v.prompt === DONE_PROMPT)!;
    expect(Buffer.from(await part.arrayBuffer())).toEqual(seed.sora.contentOf(upstream.id).subarray(0, 100));
    const stranger = await gateway.test.deps.services.users.createUserDirect({
      username: 'stranger',
      password: 'stranger-pass-1',
      role: 1,
      quota: 1_000_000,
    });
    expect(stranger.id).toBeGreaterThan(0);
    const other = await restSignIn(gateway.baseUrl, { username: 'stranger', password: 'stranger-pass-1' });
    expect((await fetch(url, { headers: { cookie: cookieOf(other) } })).status).toBe(404);
    expect(
      (await fetch(`${gateway.baseUrl}/pg/videos/${seed.done}`, { headers: { cookie: cookieOf(other) } })).status,
    ).toBe(404);
    expect((await fetch(url, { headers: { cookie: cookieOf(root) } })).status).toBe(200);
    expect((await fetch(url)).status).toBe(401);
  });

  for (const width of WIDTHS) {
    it(`the task log plays the finished video and says why the failed one failed (${width} px)`, async () => {
      const s = await signedInSession(browser, gateway.baseUrl, seed.auth, { width });
      await s.page.goto('/app/logs/tasks');
      const rows = s.page.locator('tbody tr, [data-testid="phone-card"]');
      await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(2);
      const failed = rows.filter({ hasText: seed.failed });
      expect(await failed.innerText()).toContain('the prompt asked the fake to fail');
      const done = rows.filter({ hasText: seed.done });
      const doneText = await done.innerText();
      expect(doneText).toContain('Sora');
      expect(doneText).toContain('Text to video');
      expect(doneText).toContain('4 s');
      expect(doneText).toContain(JOB_DOLLARS);
      expect(await overflowing(s.page)).toEqual([]);
      await shot(s.page, `task-log-${width}`);
      await done.getByRole('button', { name: 'Watch video' }).click();
      const v = await videoLoads(s.page);
      // The gateway's URL, never the upstream's.
      expect(v.src).toBe(`${gateway.baseUrl}/pg/videos/${seed.done}/content`);
      expect(v.duration).toBeGreaterThan(1);
      expect(v.width).toBe(160);
      await shot(s.page, `task-log-player-${width}`);
      expect(s.errors).toEqual([]);
      await s.context.close();
    });
  }

  it("root sees the director's jobs in the task log and plays one", async () => {
    const s = await signedInSession(browser, gateway.baseUrl, root, { width: 1366 });
    await s.page.goto('/app/logs/tasks');
    const done = s.page.locator('tbody tr').filter({ hasText: seed.done });
    await done.waitFor({ timeout: 20_000 });
    await done.getByRole('button', { name: 'Watch video' }).click();
    expect((await videoLoads(s.page)).duration).toBeGreaterThan(1);
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  for (const width of WIDTHS) {
    it(`the playground's video tab submits, shows progress and plays (${width} px)`, async () => {
      const before = await balance(seed.userId);
      const s = await signedInSession(browser, gateway.baseUrl, seed.auth, { width });
      await s.page.goto('/playground');
      // The director's only models make videos: the chat tab offers none of them.
      await s.page.getByText('No model is available to your groups yet.').waitFor({ timeout: 20_000 });
      await s.page
        .locator('label')
        .filter({ hasText: /^Video$/ })
        .click();
      await s.page.waitForURL('**/playground?tab=video');
      // sora-2 is offered (a video model of the user's group), chat models are not.
      const model = s.page.getByRole('combobox', { name: 'Video model' });
      await expect.poll(() => model.inputValue(), { timeout: 20_000 }).toBe('sora-2');
      await s.page.getByLabel('Prompt').fill(`a paper boat on a pond, ${width}`);
      await s.page.getByLabel('Seconds').fill('8');
      await s.page.getByRole('button', { name: 'Generate video' }).click();
      const job = s.page.getByTestId('video-job');
      await job.waitFor({ timeout: 15_000 });
      // Queued or running first: the progress bar shows before the player.
      expect(['queued', 'in_progress']).toContain(await job.getAttribute('data-state'));
      await shot(s.page, `playground-progress-${width}`);
      seed.sora.advance(60_000);
      await expect.poll(() => job.getAttribute('data-state'), { timeout: 30_000 }).toBe('completed');
      const v = await videoLoads(s.page);
      expect(v.src).toMatch(new RegExp(`^${gateway.baseUrl}/pg/videos/video_[0-9a-f]{32}/content$`));
      expect(v.duration).toBeGreaterThan(1);
      // Charged the 8 seconds it made, at $0.10 a second.
      expect(await job.innerText()).toContain('$0.80');
      expect(before - (await balance(seed.userId))).toBe(400_000);
      expect(await overflowing(s.page)).toEqual([]);
      await shot(s.page, `playground-player-${width}`);
      expect(s.errors).toEqual([]);
      await s.context.close();
    });
  }

  it('the playground says which lengths the model makes when asked for another, and charges nothing', async () => {
    const before = await balance(seed.userId);
    const s = await signedInSession(browser, gateway.baseUrl, seed.auth, { width: 1366 });
    await s.page.goto('/playground?tab=video');
    await expect
      .poll(() => s.page.getByRole('combobox', { name: 'Video model' }).inputValue(), { timeout: 20_000 })
      .toBe('sora-2');
    await s.page.getByLabel('Prompt').fill('a seven second clip');
    await s.page.getByLabel('Seconds').fill('7');
    await s.page.getByRole('button', { name: 'Generate video' }).click();
    const alert = s.page.getByRole('alert');
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.innerText()).toMatch(/4, 8, 12 seconds, not 7/);
    expect(await balance(seed.userId)).toBe(before);
    expect(s.errors).toEqual([]);
    await s.context.close();
  });
});
