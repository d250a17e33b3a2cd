import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { loginInput, registerInput, setupInput } from '../../../shared/schemas/users.ts';
import { raw, restRoute, withMessage } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';
import { startSession } from './session.plugin.ts';
import { humanClient } from './human.ts';

const turnstileQuery = z.object({ turnstile: z.string().optional() }).loose();

/** Setup wizard and sign-in: public routes of api-contract §2 and §12. */
export function registerAuthRoutes(app: FastifyInstance, deps: AppDeps) {
  const { auth, users } = deps.services;

  // new-api sends this one without `message`.
  restRoute(app, deps, 'GET', '/api/setup', { auth: 'public' }, async () =>
    raw({ success: true, data: await users.setupStatus() }),
  );

  restRoute(
    app,
    deps,
    'POST',
    '/api/setup',
    { auth: 'public', body: setupInput, realStatus: true },
    async ({ body }) => {
      await users.setup(body);
      return withMessage('系统初始化成功');
    },
  );

  restRoute(
    app,
    deps,
    'POST',
    '/api/user/login',
    { auth: 'public', body: loginInput, query: turnstileQuery },
    async ({ body, query, req, reply }) => {
      const user = await auth.login(body, await humanClient(deps.services.options, req, reply, query.turnstile));
      await startSession(deps.db, req, reply, user.id);
      return user;
    },
  );

  restRoute(
    app,
    deps,
    'POST',
    '/api/user/register',
    { auth: 'public', body: registerInput, query: turnstileQuery },
    async ({ body, query, req, reply }) => {
      await auth.register(body, await humanClient(deps.services.options, req, reply, query.turnstile));
    },
  );

  restRoute(app, deps, 'GET', '/api/user/logout', { auth: 'public' }, async ({ endSession }) => {
    await endSession();
  });
}
