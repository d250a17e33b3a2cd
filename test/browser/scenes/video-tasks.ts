import { type FakeSora, startFakeSora } from '../../../scripts/fake-upstream/video/sora.ts';
import { ChannelType } from '../../../shared/channel-types.ts';
import { insertChannel, setOptions } from '../../relay-fixtures.ts';
import { type Gateway, type RestAuth, restSignIn } from '../harness.ts';
import type { Scene, SceneRoute } from '../layout-checks.ts';

/*
 * Video jobs (issue 40) submitted by a signed-in user through the console's video door (/pg/videos, the
 * playground's) to the Sora fake and read back until final: one finished, one failed. Used by
 * test/browser/video-tasks.test.ts and the `video-tasks` scene.
 */

export const DIRECTOR = { username: 'director', password: 'director-pass-1' };
/** $0.10 a second of sora-2: a 4-second job costs $0.40. */
export const SORA_PRICE = 0.1;
export const DONE_PROMPT = 'a red fox running through fresh snow';
export const FAIL_PROMPT = 'FAIL: a storm over the harbour';

export interface VideoSeed {
  sora: FakeSora;
  auth: RestAuth;
  done: string;
  failed: string;
  userId: number;
}

/** The session's cookie as a request header. */
export const cookieOf = (auth: RestAuth) => auth.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

export interface VideoJobAnswer {
  id: string;
  state: string;
  progress: number;
  seconds: number;
  quota: number;
  error?: { message: string };
}

export async function submitVideo(gateway: Gateway, auth: RestAuth, body: object): Promise<VideoJobAnswer> {
  const res = await fetch(`${gateway.baseUrl}/pg/videos`, {
    method: 'POST',
    headers: { cookie: cookieOf(auth), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`submit answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as VideoJobAnswer;
}

/** Reads a job until it is final (a read refreshes it from the upstream once it is a few seconds old). */
export async function waitFinal(gateway: Gateway, auth: RestAuth, id: string): Promise<VideoJobAnswer> {
  const end = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${gateway.baseUrl}/pg/videos/${id}`, { headers: { cookie: cookieOf(auth) } });
    const job = (await res.json()) as VideoJobAnswer;
    if (job.state === 'completed' || job.state === 'failed') return job;
    if (Date.now() > end) throw new Error(`video ${id} still ${job.state} after 30 s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** A Sora channel, the director with $10, one finished and one failed 4-second job. */
export async function seedVideoTasks(gateway: Gateway): Promise<VideoSeed> {
  const sora = await startFakeSora({ key: 'sk-sora-upstream', stepMs: 200 });
  const deps = gateway.test.deps;
  await setOptions(deps, { ModelPrice: JSON.stringify({ 'sora-2': SORA_PRICE, 'sora-2-pro': SORA_PRICE * 3 }) });
  await insertChannel(deps, {
    name: 'sora',
    type: ChannelType.Sora,
    key: 'sk-sora-upstream',
    baseUrl: sora.url,
    models: ['sora-2', 'sora-2-pro'],
  });
  const user = await deps.services.users.createUserDirect({ ...DIRECTOR, role: 1, quota: 5_000_000 });
  const auth = await restSignIn(gateway.baseUrl, DIRECTOR);
  const done = await submitVideo(gateway, auth, { model: 'sora-2', prompt: DONE_PROMPT, seconds: 4 });
  const failed = await submitVideo(gateway, auth, { model: 'sora-2', prompt: FAIL_PROMPT, seconds: 4 });
  sora.advance(60_000);
  await Promise.all([waitFinal(gateway, auth, done.id), waitFinal(gateway, auth, failed.id)]);
  return { sora, auth, done: done.id, failed: failed.id, userId: Number(user.id) };
}

const firstRow = 'tbody tr, [data-testid="phone-card"]';

export const videoTaskRoutes: SceneRoute[] = [
  {
    route: '/app/logs/tasks',
    name: 'video_task_log',
    ready: (page) => page.locator(firstRow).first().waitFor(),
    // The finished job's player, with its first frame loaded.
    after: async (page) => {
      await page.locator('button:has(svg.tabler-icon-player-play)').first().click();
      await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2);
    },
  },
  {
    route: '/playground?tab=video',
    name: 'playground_video',
    ready: (page) => page.locator('textarea').first().waitFor(),
  },
];

export const videoTasksScene: Scene = {
  about: 'video jobs in the task log (one playing, one failed) and the playground video tab, as their owner',
  async setUp(gateway) {
    const seed = await seedVideoTasks(gateway);
    return { routes: videoTaskRoutes, close: () => seed.sora.close() };
  },
};
