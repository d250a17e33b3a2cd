import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { serverText } from '../../../shared/server-messages.ts';
import { restRoute, withMessage } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';
import { humanClient } from '../auth/http-steps.service.ts';

const monthQuery = z.object({ month: z.string().optional() }).loose();
const turnstileQuery = z.object({ turnstile: z.string().optional() }).loose();

export function registerCheckInRoutes(app: FastifyInstance, deps: AppDeps) {
  const { checkIn, options } = deps.services;
  // The April 2025 console's calls.
  restRoute(app, deps, 'GET', '/api/user/check_in_status', { auth: 'user' }, ({ user }) => checkIn.status(user.id));
  restRoute(app, deps, 'POST', '/api/user/check_in', { auth: 'user' }, async ({ user }) => ({
    quota: (await checkIn.checkIn(user.id)).quota,
  }));

  // Today's console: the calendar card, and the check-in behind Turnstile when the site turned it on.
  restRoute(app, deps, 'GET', '/api/user/checkin', { auth: 'user', query: monthQuery }, ({ user, query }) =>
    checkIn.overview(user.id, query.month),
  );
  restRoute(
    app,
    deps,
    'POST',
    '/api/user/checkin',
    { auth: 'user', query: turnstileQuery },
    async ({ user, query, req, reply }) => {
      await humanClient(options, req, reply, query.turnstile);
      const done = await checkIn.checkIn(user.id);
      return withMessage(serverText('checkin.done'), { quota_awarded: done.quota, checkin_date: done.day });
    },
  );
}
