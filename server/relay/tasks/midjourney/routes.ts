import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { refusal } from '../../errors.ts';
import type { RelayRuntime } from '../../runtime.ts';
import { taskAuth, taskRoute } from '../http.ts';
import { actionOfCustomId, MJ_MODES, mjBodies, parseSimpleChange } from './actions.ts';
import { fetchMj, imageSeed, listMjByIds, proxyImage } from './query.ts';
import { type MjCallMeta, type MjSubmit, submitMj } from './submit.ts';

const idParam = z.object({ id: z.string().min(1).max(100) });

type Builder = (body: unknown) => MjSubmit;

/** Each submit path: its body schema and the action it is priced and stored as. */
const submits: Record<string, Builder> = {
  '/mj/submit/imagine': (b) => ({ action: 'IMAGINE', path: '/mj/submit/imagine', body: mjBodies.imagine.parse(b) }),
  '/mj/submit/describe': (b) => ({ action: 'DESCRIBE', path: '/mj/submit/describe', body: mjBodies.describe.parse(b) }),
  '/mj/submit/blend': (b) => ({ action: 'BLEND', path: '/mj/submit/blend', body: mjBodies.blend.parse(b) }),
  '/mj/submit/shorten': (b) => ({ action: 'SHORTEN', path: '/mj/submit/shorten', body: mjBodies.shorten.parse(b) }),
  '/mj/submit/upload-discord-images': (b) => ({
    action: 'UPLOAD',
    path: '/mj/submit/upload-discord-images',
    body: mjBodies.upload.parse(b),
  }),
  '/mj/insight-face/swap': (b) => ({
    action: 'SWAP_FACE',
    path: '/mj/insight-face/swap',
    body: mjBodies.swap.parse(b),
  }),
  '/mj/submit/change': (b) => {
    const body = mjBodies.change.parse(b);
    return { action: body.action, path: '/mj/submit/change', body, originMjId: body.taskId, needsSuccess: true };
  },
  '/mj/submit/simple-change': (b) => {
    const body = mjBodies.simpleChange.parse(b);
    const parsed = parseSimpleChange(body.content);
    if (!parsed)
      throw refusal(
        400,
        'content must read "<task id> U1-U4 / V1-V4 / R"',
        'content 格式应为 "<任务 ID> U1-U4 / V1-V4 / R"',
        'invalid_content',
      );
    return {
      action: parsed.action,
      path: '/mj/submit/simple-change',
      body,
      originMjId: parsed.taskId,
      needsSuccess: true,
    };
  },
  '/mj/submit/action': (b) => {
    const body = mjBodies.action.parse(b);
    const action = actionOfCustomId(body.customId);
    if (!action)
      throw refusal(
        400,
        `Unsupported customId: ${body.customId}`,
        `不支持的 customId：${body.customId}`,
        'invalid_custom_id',
      );
    return { action, path: '/mj/submit/action', body, originMjId: body.taskId, needsSuccess: true };
  },
  // A modal completes a task that waits for input (code 21): the origin is in MODAL state, not SUCCESS.
  '/mj/submit/modal': (b) => {
    const body = mjBodies.modal.parse(b);
    return { action: 'MODAL', path: '/mj/submit/modal', body, originMjId: body.taskId };
  },
};

/** The Midjourney-proxy front door (relay.md §10), plain and under `/{fast,relax,turbo}`. */
export function registerMidjourneyRoutes(app: FastifyInstance, rt: RelayRuntime) {
  const meta = (req: FastifyRequest, mode: string | null): MjCallMeta => ({ mode, ip: req.ip, requestId: req.id });

  for (const mode of [null, ...MJ_MODES]) {
    const prefix = mode ? `/${mode}` : '';
    for (const [path, build] of Object.entries(submits)) {
      app.post(
        `${prefix}${path}`,
        taskRoute('mj', async (req, reply) => {
          const p = await taskAuth(rt, req);
          const answer = await submitMj(rt, p, build(req.body ?? {}), meta(req, mode));
          return reply.status(answer.status).send(answer.body);
        }),
      );
    }
    app.get(
      `${prefix}/mj/task/:id/fetch`,
      taskRoute('mj', async (req) => fetchMj(rt, await taskAuth(rt, req), idParam.parse(req.params).id)),
    );
    app.post(
      `${prefix}/mj/task/list-by-condition`,
      taskRoute('mj', async (req) =>
        listMjByIds(rt, await taskAuth(rt, req), mjBodies.listByCondition.parse(req.body ?? {}).ids),
      ),
    );
    app.get(
      `${prefix}/mj/task/:id/image-seed`,
      taskRoute('mj', async (req, reply) => {
        const a = await imageSeed(rt, await taskAuth(rt, req), idParam.parse(req.params).id, mode);
        return reply.status(a.status).send(a.body);
      }),
    );
    app.get(
      `${prefix}/mj/image/:id`,
      taskRoute('mj', async (req, reply) => proxyImage(rt, idParam.parse(req.params).id, reply)),
    );
  }
}
