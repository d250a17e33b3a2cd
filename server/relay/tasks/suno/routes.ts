import type { FastifyInstance } from 'fastify';
import type { RelayRuntime } from '../../runtime.ts';
import { taskAuth, taskRoute } from '../http.ts';
import { fetchOneSuno, fetchSuno, type SunoAction, submitSuno, sunoBodies } from './suno.ts';

/** The Suno front door (relay.md §10). */
export function registerSunoRoutes(app: FastifyInstance, rt: RelayRuntime) {
  for (const action of ['music', 'lyrics'] as SunoAction[]) {
    app.post(
      `/suno/submit/${action}`,
      taskRoute('suno', async (req, reply) => {
        const p = await taskAuth(rt, req);
        const body = sunoBodies[action].parse(req.body ?? {});
        const a = await submitSuno(rt, p, action, body, { ip: req.ip, requestId: req.id });
        return reply.status(a.status).send(a.body);
      }),
    );
  }
  app.post(
    '/suno/fetch',
    taskRoute('suno', async (req) =>
      fetchSuno(rt, await taskAuth(rt, req), sunoBodies.fetch.parse(req.body ?? {}).ids),
    ),
  );
  app.get(
    '/suno/fetch/:id',
    taskRoute('suno', async (req) => fetchOneSuno(rt, await taskAuth(rt, req), sunoBodies.id.parse(req.params).id)),
  );
}
