import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../context.ts';
import { createTaskPoller, type TaskPoller } from '../../domains/tasks/poller.service.ts';
import type { RelayRuntime } from '../runtime.ts';
import { createMjPollJob } from './midjourney/poll.ts';
import { registerMidjourneyRoutes } from './midjourney/routes.ts';
import { createSunoPollJob } from './suno/poll.ts';
import { registerSunoRoutes } from './suno/routes.ts';
import { createVideoPollJob } from './video/poll.ts';
import { registerVideoRoutes } from './video/routes.ts';

const pollers = new WeakMap<AppDeps, TaskPoller>();
const videoPollers = new WeakMap<AppDeps, TaskPoller>();

/** The poller started for these deps (tests poll on demand or shorten the interval). */
export const taskPollerOf = (deps: AppDeps): TaskPoller | undefined => pollers.get(deps);
/** The video jobs' poller (issue 40): it ticks often, each job is polled only when its backoff is due. */
export const videoPollerOf = (deps: AppDeps): TaskPoller | undefined => videoPollers.get(deps);

/** The video poller's tick: a new job's first polls come every few seconds (lifecycle.ts backoffFor). */
const VIDEO_TICK_MS = 3000;

/**
 * The task front doors (/mj/*, /suno/*) and the background poller, which starts
 * with the app and is stopped before the relay runtime and the database close.
 */
export function registerTaskRoutes(app: FastifyInstance, rt: RelayRuntime) {
  registerMidjourneyRoutes(app, rt);
  registerSunoRoutes(app, rt);
  registerVideoRoutes(app, rt);
  const poller = createTaskPoller(rt.deps, [createMjPollJob(rt), createSunoPollJob(rt)]);
  pollers.set(rt.deps, poller);
  const videoPoller = createTaskPoller(rt.deps, [createVideoPollJob(rt)]);
  videoPollers.set(rt.deps, videoPoller);
  app.addHook('onReady', async () => {
    poller.start(rt.deps.config.taskPollIntervalMs);
    videoPoller.start(Math.min(VIDEO_TICK_MS, rt.deps.config.taskPollIntervalMs));
  });
  app.addHook('onClose', async () => {
    await poller.stop();
    await videoPoller.stop();
  });
}
