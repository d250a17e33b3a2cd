import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { mjListInput, taskListInput } from '../../../shared/schemas/tasks.ts';
import { contractOf, pagingQuery, pageObject } from '../../compat/contract.ts';
import { decodeQuery } from '../../compat/go-decode.ts';
import { restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';
import { siteOrigin } from '../../site-origin.ts';

/**
 * new-api's /api/mj and /api/task lists. April 2025 (api-contract §13): 0-based `p`, 10 per page,
 * plain arrays. 2026: GetPageQuery paging and the page object; the filters are the same.
 */
export function registerTaskListRoutes(app: FastifyInstance, deps: AppDeps) {
  const { tasks } = deps.services;
  // new-api's console plays a video's result_url only when it is absolute: the site's address, else this request's.
  const resultBase = (req: FastifyRequest) => siteOrigin(deps.services.options.get('ServerAddress'), req);

  /** The filters are the same in both contracts; in 2026 the range comes from the paging query. */
  const paged = async <F, T>(
    filterSchema: z.ZodType<F>,
    raw: unknown,
    legacy: (f: F) => Promise<T[]>,
    page: (f: F, range: { offset: number; limit: number }) => Promise<{ items: T[]; total: number }>,
  ) => {
    const filter = decodeQuery(filterSchema, raw);
    if (contractOf(deps) === '2025-04') return legacy(filter);
    const { paging } = decodeQuery(pagingQuery, raw);
    const r = await page(filter, { offset: paging.offset, limit: paging.pageSize });
    return pageObject(r.items, r.total, paging);
  };

  restRoute(app, deps, 'GET', '/api/mj/', { auth: 'admin' }, ({ req }) =>
    paged(
      mjListInput,
      req.query,
      (f) => tasks.listMj(f),
      (f, range) => tasks.pageMj(f, range),
    ),
  );
  restRoute(app, deps, 'GET', '/api/mj/self', { auth: 'user' }, ({ req, user }) =>
    paged(
      mjListInput,
      req.query,
      (f) => tasks.listMjSelf(user.id, f),
      (f, range) => tasks.pageMj(f, range, user.id),
    ),
  );
  restRoute(app, deps, 'GET', '/api/task/', { auth: 'admin' }, ({ req }) =>
    paged(
      taskListInput,
      req.query,
      (f) => tasks.listTasks(f, resultBase(req)),
      (f, range) => tasks.pageTasks(f, range, undefined, resultBase(req)),
    ),
  );
  restRoute(app, deps, 'GET', '/api/task/self', { auth: 'user' }, ({ req, user }) =>
    paged(
      taskListInput,
      req.query,
      (f) => tasks.listTasksSelf(user.id, f, resultBase(req)),
      (f, range) => tasks.pageTasks(f, range, user.id, resultBase(req)),
    ),
  );
}
