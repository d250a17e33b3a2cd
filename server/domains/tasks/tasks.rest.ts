import type { FastifyInstance } from 'fastify';
import { mjListInput, taskListInput } from '../../../shared/schemas/tasks.ts';
import { restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

/** new-api's /api/mj and /api/task lists (api-contract §13): 0-based `p`, 10 per page, plain arrays. */
export function registerTaskListRoutes(app: FastifyInstance, deps: AppDeps) {
  const { tasks } = deps.services;
  restRoute(app, deps, 'GET', '/api/mj/', { auth: 'admin', query: mjListInput }, ({ query }) => tasks.listMj(query));
  restRoute(app, deps, 'GET', '/api/mj/self', { auth: 'user', query: mjListInput }, ({ query, user }) =>
    tasks.listMjSelf(user.id, query),
  );
  restRoute(app, deps, 'GET', '/api/task/', { auth: 'admin', query: taskListInput }, ({ query }) =>
    tasks.listTasks(query),
  );
  restRoute(app, deps, 'GET', '/api/task/self', { auth: 'user', query: taskListInput }, ({ query, user }) =>
    tasks.listTasksSelf(user.id, query),
  );
}
