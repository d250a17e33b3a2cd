import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UserStatus } from '../../shared/constants.ts';
import { findRelayUser } from '../domains/users/users.repo.ts';
import { sessionUser } from '../domains/auth/session.service.ts';
import { countFailure, markAccounted } from './accounting.ts';
import { AttemptsFailed } from './attempts.ts';
import { registerBillingRoutes } from './front-doors/billing.ts';
import { modelsFor, oneModelFor } from './front-doors/models.ts';
import { registerFrontDoors } from './front-doors/routes.ts';
import { type FormPart, multipartToBody, parseMultipart, PARTS } from './front-doors/multipart.ts';
import type { FrontDoor } from './front-doors/types.ts';
import { registerImageFiles } from './images/files-route.ts';
import { refusal, relayAnswerOf, RelayError, relayRefusal } from './errors.ts';
import { type RelayPrincipal, toRelayUser } from './principal.ts';
import type { RelayMode } from './providers/types.ts';
import { runRelay } from './run-relay.ts';
import type { RelayRuntime } from './runtime.ts';
import { registerTaskRoutes } from './tasks/routes.ts';
import { serverTiming } from './timing.ts';
import { checkGroup } from './token-auth.ts';

/** OpenAI's upload limit, as on /v1/images/edits. */
const PLAYGROUND_UPLOAD_BYTES = 25 * 1024 * 1024;

/** OpenAI paths the gateway does not serve: answered 501 in OpenAI's error shape. */
const unsupported = [
  'files',
  'fine_tuning',
  'fine-tunes',
  'assistants',
  'threads',
  'batches',
  'vector_stores',
  'uploads',
];

/**
 * The relay's routes (/v1/*, /v1beta/*, /pg/*, /mj/*, /suno/*, /dashboard/billing/*), registered by
 * the relay plugin (plugin.ts), which owns their hooks and error handler. `startedAt` is when the
 * relay first saw a request (timing.ts).
 */
export function registerRelayRoutes(
  app: FastifyInstance,
  rt: RelayRuntime,
  startedAt: (req: FastifyRequest) => number,
): void {
  const handle =
    (mode: RelayMode, auth: (req: FastifyRequest) => Promise<RelayPrincipal>, door?: FrontDoor) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      const t0 = startedAt(req);
      try {
        await runRelay(rt, { req, reply, mode, principal: await auth(req), startedAt: t0, door });
      } catch (err) {
        if (reply.sent) {
          req.log.error({ err }, 'relay failed after the response started');
          return;
        }
        const wait = err instanceof AttemptsFailed ? err.upstreamWaitMs : 0;
        reply.header('server-timing', serverTiming(performance.now() - t0 - wait));
        // runRelay logged it (or, for a failed authentication, nobody can be named): accounting.ts
        // writes no second row, and counts it in the metric with the status the client got.
        markAccounted(req);
        if (relayAnswerOf(err).status === 499) countFailure(rt, req, 499);
        const retryAfter = (err as { retryAfterMs?: number }).retryAfterMs;
        if (err instanceof RelayError && err.status === 429 && retryAfter)
          reply.header('retry-after', String(Math.ceil(retryAfter / 1000)));
        throw err;
      }
      return reply;
    };

  const tokenAuth = (req: FastifyRequest) => rt.tokenAuth.authenticate(req);
  app.post('/v1/chat/completions', handle('chat', tokenAuth));
  app.post('/v1/completions', handle('completions', tokenAuth));
  app.post('/v1/embeddings', handle('embeddings', tokenAuth));
  app.post('/v1/engines/:model/embeddings', handle('embeddings', tokenAuth));
  const sessionAuth = (req: FastifyRequest) => playgroundAuth(rt, req);
  app.post('/pg/chat/completions', handle('chat', sessionAuth));
  // The playground's image tab (issue 44): the same image relay as /v1/images/*, paid by the session.
  app.post('/pg/images/generations', handle('images', sessionAuth));
  void app.register(async (scope) => {
    // Multipart only here, as for /v1/images/edits (front-doors/routes.ts), with OpenAI's upload limit.
    scope.addContentTypeParser(
      'multipart/form-data',
      { parseAs: 'buffer', bodyLimit: PLAYGROUND_UPLOAD_BYTES },
      (req, body, done) => {
        try {
          done(null, multipartToBody(parseMultipart(body as Buffer, String(req.headers['content-type']))));
        } catch (err) {
          done(err as Error, undefined);
        }
      },
    );
    scope.post(
      '/pg/images/edits',
      { config: { multipartBodyLimit: PLAYGROUND_UPLOAD_BYTES } },
      handle('image_edits', sessionAuth),
    );
  });

  registerFrontDoors(app, rt, (mode, door) => handle(mode, tokenAuth, door));
  registerTaskRoutes(app, rt);
  registerImageFiles(app, rt);
  registerBillingRoutes(app, rt, tokenAuth);

  app.get('/v1/models', async (req) => modelsFor(rt, await tokenAuth(req), req));
  app.get('/v1/models/:model', async (req) =>
    oneModelFor(rt, await tokenAuth(req), req, (req.params as { model: string }).model),
  );

  const notImplemented = async () => {
    throw relayRefusal(501, 'relay.api_not_implemented', 'api_not_implemented');
  };
  for (const p of unsupported) {
    app.all(`/v1/${p}`, notImplemented);
    app.all(`/v1/${p}/*`, notImplemented);
  }
}

/**
 * The console playground: the session's user, billed without a token (token_id 0),
 * in the user's group or the usable group named by `body.group` (removed before relaying).
 */
export async function playgroundAuth(rt: RelayRuntime, req: FastifyRequest): Promise<RelayPrincipal> {
  const auth = await sessionUser(rt.deps, req);
  // The session check reads live users only: a row gone since is a user deleted in between.
  const row = auth && (await findRelayUser(rt.deps.db, auth.id));
  if (!row)
    throw refusal(
      401,
      'Not logged in or the session has expired, please log in again',
      '未登录或登录已过期，请重新登录',
      'unauthorized',
    );
  const user = toRelayUser(row);
  if (user.status !== UserStatus.Enabled)
    throw refusal(403, 'This user has been banned', '用户已被封禁', 'user_banned');
  const body = req.body as Record<string, unknown> | undefined;
  const requested = typeof body?.group === 'string' ? body.group : '';
  if (body && 'group' in body) delete body.group;
  // An upload's parts are relayed as sent (an image edit): the group field must not reach the upstream.
  const parts = body?.[PARTS];
  if (Array.isArray(parts)) body![PARTS] = (parts as FormPart[]).filter((p) => p.name !== 'group');
  return { user, token: null, group: checkGroup(rt.deps, user, requested), pinnedChannelId: null };
}
