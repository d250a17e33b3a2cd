import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  createTokenInput,
  stripKeyDecoration,
  tokenStatusInput,
  updateTokenInput,
} from '../../../shared/schemas/tokens.ts';
import { decodeBody } from '../../compat/go-decode.ts';
import { q, restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

/* /api/token/* (user): each user only ever sees their own tokens (api-contract §3). */

// Newer clients send `page_size` instead of `size`; either is accepted, `size` first.
const listQuery = z.object({ p: q.int(0), size: q.int(0), page_size: q.int(0) }).transform((v) => {
  const size = v.size || v.page_size;
  return { p: Math.max(0, v.p), size: size <= 0 ? 10 : Math.min(size, 100) };
});

const searchQuery = z.object({
  keyword: q.str().transform((v) => v.trim()),
  token: q.str().transform(stripKeyDecoration),
});

const updateQuery = z.object({ status_only: q.bool() });
const idParams = z.object({ id: q.id() });

export function registerTokenRoutes(app: FastifyInstance, deps: AppDeps) {
  const { tokens } = deps.services;

  restRoute(app, deps, 'GET', '/api/token/', { auth: 'user', query: listQuery }, ({ user, query }) =>
    tokens.list(user, query.p, query.size),
  );
  restRoute(app, deps, 'GET', '/api/token/search', { auth: 'user', query: searchQuery }, ({ user, query }) =>
    tokens.search(user, { keyword: query.keyword, key: query.token }),
  );
  restRoute(app, deps, 'GET', '/api/token/:id', { auth: 'user', params: idParams }, ({ user, params }) =>
    tokens.get(user, params.id),
  );
  // new-api answers no data: the console reloads the list to show the new key.
  restRoute(app, deps, 'POST', '/api/token/', { auth: 'user', body: createTokenInput }, async ({ user, body }) => {
    await tokens.create(user, body);
    return undefined;
  });
  restRoute(app, deps, 'PUT', '/api/token/', { auth: 'user', query: updateQuery }, ({ user, query, req }) =>
    query.status_only
      ? tokens.setStatus(user, decodeBody(tokenStatusInput, req.body))
      : tokens.update(user, decodeBody(updateTokenInput, req.body)),
  );
  restRoute(app, deps, 'DELETE', '/api/token/:id', { auth: 'user', params: idParams }, async ({ user, params }) => {
    await tokens.remove(user, params.id);
    return undefined;
  });
}
