import { startFakeMidjourney } from '../../../scripts/fake-upstream/midjourney.ts';
import { startFakeSuno } from '../../../scripts/fake-upstream/suno.ts';
import { relayRuntimeOf } from '../../../server/relay/runtime.ts';
import { taskPollerOf } from '../../../server/relay/tasks/routes.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../../relay-fixtures.ts';
import type { Gateway } from '../harness.ts';
import type { Scene, SceneRoute } from '../layout-checks.ts';

/*
 * Drawings and tasks submitted through the real /mj and /suno front doors to the fake upstreams and
 * polled to their final states (one still running): test/browser/task-logs.test.ts and the `task-logs` scene.
 */

export const PAINTER = { username: 'painter', password: 'painter-pass-1' };

/** The painter's tasks and someone else's drawing; returns what closes the fake upstreams. */
export async function seedTaskLogs(gateway: Gateway): Promise<() => Promise<unknown>> {
  const [mj, suno] = await Promise.all([startFakeMidjourney({ stepMs: 1000 }), startFakeSuno({ stepMs: 1000 })]);
  const deps = gateway.test.deps;
  await taskPollerOf(deps)!.stop();
  await setOptions(deps, { DrawingEnabled: 'true', TaskEnabled: 'true', ServerAddress: gateway.baseUrl });
  await insertChannel(deps, { type: 2, key: 'mj-secret', baseUrl: mj.url, models: ['mj_imagine', 'mj_upscale'] });
  await insertChannel(deps, { type: 36, key: 'suno-key', baseUrl: suno.url, models: ['suno_music', 'suno_lyrics'] });
  const user = await deps.services.users.createUserDirect({ ...PAINTER, role: 1, quota: 10_000_000 });
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
  return () => Promise.all([mj.close(), suno.close()]);
}

const firstRow = 'tbody tr, [data-testid="phone-card"]';

export const taskLogRoutes: SceneRoute[] = [
  { route: '/app/logs/drawing', name: 'drawing_logs', ready: (page) => page.locator(firstRow).first().waitFor() },
  { route: '/app/logs/tasks', name: 'task_logs', ready: (page) => page.locator(firstRow).first().waitFor() },
];

export const taskLogsScene: Scene = {
  about: 'the drawing and task logs as root',
  async setUp(gateway) {
    return { routes: taskLogRoutes, close: await seedTaskLogs(gateway) };
  },
};
