import type { FastifyInstance } from 'fastify';
import { listRoutes } from '../security/routes.ts';
import { NEW_API_2026_ROUTES } from './new-api-routes.ts';

/** `GET /api/user/:id/` and `GET /api/user/:user_id` are the same route to a client. */
export const routeKey = (method: string, path: string) =>
  `${method} ${path.replace(/:[A-Za-z_]+/g, ':').replace(/\/$/, '')}`;

/** Which of today's new-api routes this app registers, and which it lacks. */
export function routeCoverage(app: FastifyInstance) {
  const ours = new Set(listRoutes(app.printRoutes({ commonPrefix: false })).map((r) => routeKey(r.method, r.path)));
  const missing = NEW_API_2026_ROUTES.filter((r) => {
    const [method, path] = r.split(' ');
    return !ours.has(routeKey(method, path));
  });
  return { total: NEW_API_2026_ROUTES.length, served: NEW_API_2026_ROUTES.length - missing.length, missing };
}
