import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { serverText } from '../../../shared/server-messages.ts';
import { q, restRoute, withMessage } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

const idParams = z.object({ id: q.id() });

/**
 * POST /api/channel/:id/key (today's console's "view key"): root only, and only within five minutes of a
 * fresh check of this session (POST /api/verify); otherwise HTTP 403 with code VERIFICATION_REQUIRED.
 */
export function registerChannelKeyRoutes(app: FastifyInstance, deps: AppDeps) {
  const { channels, secureVerify } = deps.services;
  restRoute(
    app,
    deps,
    'POST',
    '/api/channel/:id/key',
    { auth: 'root', params: idParams },
    async ({ user, params, req }) => {
      await secureVerify.requireVerified(user, req);
      return withMessage(serverText('channel.key_revealed'), { key: await channels.revealKey(params.id) });
    },
  );
}
