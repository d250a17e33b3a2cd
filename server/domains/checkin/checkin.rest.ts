import type { FastifyInstance } from 'fastify';
import { restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

export function registerCheckInRoutes(app: FastifyInstance, deps: AppDeps) {
  const { checkIn } = deps.services;
  restRoute(app, deps, 'GET', '/api/user/check_in_status', { auth: 'user' }, ({ user }) => checkIn.status(user.id));
  restRoute(app, deps, 'POST', '/api/user/check_in', { auth: 'user' }, ({ user }) => checkIn.checkIn(user.id));
}
