import type { FastifyInstance } from 'fastify';
import {
  logByKeyInput,
  logDeleteInput,
  logFilterInput,
  logListInput,
  logSearchInput,
  quotaDataInput,
} from '../../../shared/schemas/logs.ts';
import { contractOf } from '../../compat/contract.ts';
import { allowAnyOrigin } from '../../compat/cors.ts';
import { decodeQuery } from '../../compat/go-decode.ts';
import { restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

/** new-api's /api/log and /api/data calls (api-contract §5). */
export function registerLogRoutes(app: FastifyInstance, deps: AppDeps) {
  const { logs } = deps.services;

  /**
   * The log lists answer the same page object in both contracts; 2026's GetPageQuery also takes the
   * page size as `ps` or `size` when `page_size` is not sent.
   */
  const listQuery = (raw: unknown) => {
    const v = (raw ?? {}) as Record<string, unknown>;
    const size = v.page_size ?? v.ps ?? v.size;
    const aliased = contractOf(deps) === '2026' && size !== undefined ? { ...v, page_size: size } : v;
    return decodeQuery(logListInput, aliased);
  };

  restRoute(app, deps, 'GET', '/api/log/', { auth: 'admin' }, ({ req }) => logs.listAll(listQuery(req.query)));
  restRoute(app, deps, 'DELETE', '/api/log/', { auth: 'admin', query: logDeleteInput }, ({ query }) =>
    logs.deleteBefore(query.target_timestamp),
  );
  restRoute(app, deps, 'GET', '/api/log/stat', { auth: 'admin', query: logFilterInput }, ({ query }) =>
    logs.statAll(query),
  );
  restRoute(app, deps, 'GET', '/api/log/search', { auth: 'admin', query: logSearchInput }, ({ query }) =>
    logs.searchAll(query.keyword),
  );

  restRoute(app, deps, 'GET', '/api/log/self', { auth: 'user' }, ({ req, user }) =>
    logs.listSelf(user.id, listQuery(req.query)),
  );
  restRoute(app, deps, 'GET', '/api/log/self/stat', { auth: 'user', query: logFilterInput }, ({ query, user }) =>
    logs.statSelf(user.id, query),
  );
  restRoute(app, deps, 'GET', '/api/log/self/search', { auth: 'user', query: logSearchInput }, ({ query, user }) =>
    logs.searchSelf(user.id, query.keyword),
  );

  app.options('/api/log/token', (_req, reply) => {
    allowAnyOrigin(reply);
    return reply.status(204).send();
  });
  restRoute(app, deps, 'GET', '/api/log/token', { auth: 'public' }, async ({ req, reply }) => {
    // Headers first, so an error answer is readable cross-origin too.
    allowAnyOrigin(reply);
    return logs.byTokenKey(decodeQuery(logByKeyInput, req.query).key);
  });

  restRoute(app, deps, 'GET', '/api/data/', { auth: 'admin', query: quotaDataInput }, ({ query }) =>
    logs.quotaDataAll(query),
  );
  restRoute(app, deps, 'GET', '/api/data/users', { auth: 'admin', query: quotaDataInput }, ({ query }) =>
    logs.quotaDataByUser(query),
  );
  restRoute(app, deps, 'GET', '/api/data/self', { auth: 'user', query: quotaDataInput }, ({ query, user }) =>
    logs.quotaDataSelf(user.id, query),
  );
}
