import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isAdmin } from '../../../../../shared/constants.ts';
import { taskOwner } from '../../../../domains/tasks/task-owner.repo.ts';
import { findRelayUser } from '../../../../domains/users/users.repo.ts';
import { schemaRefusal } from '../../../errors.ts';
import { type RelayPrincipal, toRelayUser } from '../../../principal.ts';
import { playgroundAuth } from '../../../routes.ts';
import type { RelayRuntime } from '../../../runtime.ts';
import { videoServiceOf } from '../service.ts';
import { sendVideoFile } from './send-file.ts';

/*
 * The console's video door (issue 40): the playground's video tab and the task log's player.
 * The session's user pays and reads, as on /pg/chat/completions (token id 0); answers are the
 * VideoTaskView itself and errors the relay's OpenAI shape. Every rule (prices, limits, isolation,
 * refresh) is the video service's: these routes only read the request and write the answer.
 */

const submitBody = z.object({
  model: z.string().min(1),
  prompt: z.string().trim().min(1),
  seconds: z.coerce.number().int().positive().optional(),
  size: z.string().min(1).optional(),
});

export function registerPlaygroundVideoRoutes(app: FastifyInstance, rt: RelayRuntime) {
  const videos = () => videoServiceOf(rt);
  const meta = (req: FastifyRequest) => ({ ip: req.ip, requestId: req.id, door: 'openai' as const });

  app.post('/pg/videos', async (req) => {
    const p = await playgroundAuth(rt, req);
    const parsed = submitBody.safeParse(req.body);
    if (!parsed.success) throw schemaRefusal(parsed.error.issues[0]?.message, 'invalid_request');
    const b = parsed.data;
    return videos().submit(p, { model: b.model, prompt: b.prompt, seconds: b.seconds, size: b.size }, meta(req));
  });

  app.get('/pg/videos/:id', async (req) => {
    const { id } = req.params as { id: string };
    return videos().get(await readerOf(rt, req, id), id);
  });

  // The task log's and the playground's <video src>: the file streamed through the gateway, Range
  // passed on so the player can seek, the upstream's URL and key never shown.
  app.get('/pg/videos/:id/content', async (req, reply) => {
    const { id } = req.params as { id: string };
    const variant = (req.query as { variant?: string }).variant === 'thumbnail' ? 'thumbnail' : 'video';
    const range = typeof req.headers.range === 'string' ? req.headers.range : undefined;
    const file = await videos().content(await readerOf(rt, req, id), id, variant, range);
    return sendVideoFile(reply, file);
  });
}

/**
 * Who reads a job: the session's user; an admin reading another user's job reads it as its owner
 * (admins see every user's tasks in the task log), so the service's isolation still decides.
 */
async function readerOf(rt: RelayRuntime, req: FastifyRequest, taskId: string): Promise<RelayPrincipal> {
  const p = await playgroundAuth(rt, req);
  if (!isAdmin(p.user.role)) return p;
  const ownerId = await taskOwner(rt.deps.db, taskId);
  if (ownerId === undefined || ownerId === p.user.id) return p;
  const owner = await findRelayUser(rt.deps.db, ownerId);
  if (!owner) return p;
  return { user: toRelayUser(owner), token: null, group: owner.group, pinnedChannelId: null };
}
