import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  createTokenInput,
  stripKeyDecoration,
  tokenStatusInput,
  updateTokenInput,
} from '../../../shared/schemas/tokens.ts';
import { idsInput } from '../../../shared/schemas/common.ts';
import { contractOf, pagedQuery, pageObject } from '../../compat/contract.ts';
import { decodeBody, decodeQuery } from '../../compat/go-decode.ts';
import { q, restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';
import type { TokenView } from './tokens.service.ts';
import { maskedTokenView } from './tokens.view.ts';

/*
 * /api/token/* (user): each user only ever sees their own tokens. April 2025 (api-contract §3):
 * 0-based arrays with full keys. 2026 (docs/new-api-contract/lists.md): page objects with masked
 * keys; the full key comes from POST /api/token/:id/key or /batch/keys.
 */

// Newer clients send `page_size` instead of `size`; either is accepted, `size` first.
const legacyListQuery = z.object({ p: q.int(0), size: q.int(0), page_size: q.int(0) }).transform((v) => {
  const size = v.size || v.page_size;
  return { p: Math.max(0, v.p), size: size <= 0 ? 10 : Math.min(size, 100) };
});

const filterFields = {
  keyword: q.str().transform((v) => v.trim()),
  token: q.str().transform(stripKeyDecoration),
};
const legacySearchQuery = z.object(filterFields);
const pagedSearchQuery = pagedQuery(filterFields);
const listQuery = pagedQuery({});

const updateQuery = z.object({ status_only: q.bool() });
const idParams = z.object({ id: q.id() });
/** new-api answers at most 100 keys per call. */
const keysInput = z.object({ ids: idsInput.shape.ids.max(100, '无效的参数') });

export function registerTokenRoutes(app: FastifyInstance, deps: AppDeps) {
  const { tokens } = deps.services;
  const is2026 = () => contractOf(deps) === '2026';
  const shown = (v: TokenView) => (is2026() ? maskedTokenView(v) : v);

  restRoute(app, deps, 'GET', '/api/token/', { auth: 'user' }, async ({ user, req }) => {
    if (!is2026()) {
      const legacy = decodeQuery(legacyListQuery, req.query);
      return tokens.list(user, legacy.p, legacy.size);
    }
    const { paging } = decodeQuery(listQuery, req.query);
    const r = await tokens.listRange(user, {}, paging.offset, paging.pageSize);
    return pageObject(r.items.map(maskedTokenView), r.total, paging);
  });
  restRoute(app, deps, 'GET', '/api/token/search', { auth: 'user' }, async ({ user, req }) => {
    if (!is2026()) {
      const legacy = decodeQuery(legacySearchQuery, req.query);
      return tokens.search(user, { keyword: legacy.keyword, key: legacy.token });
    }
    const query = decodeQuery(pagedSearchQuery, req.query);
    const filter = { keyword: query.keyword, key: query.token };
    const r = await tokens.listRange(user, filter, query.paging.offset, query.paging.pageSize);
    return pageObject(r.items.map(maskedTokenView), r.total, query.paging);
  });
  restRoute(app, deps, 'GET', '/api/token/:id', { auth: 'user', params: idParams }, async ({ user, params }) =>
    shown(await tokens.get(user, params.id)),
  );
  // 2026: the full key (without `sk-`) of one of the caller's own tokens; another user's id is "not found".
  restRoute(app, deps, 'POST', '/api/token/:id/key', { auth: 'user', params: idParams }, async ({ user, params }) => ({
    key: await tokens.revealKey(user, params.id),
  }));
  restRoute(app, deps, 'POST', '/api/token/batch/keys', { auth: 'user', body: keysInput }, async ({ user, body }) => ({
    keys: await tokens.revealKeys(user, body.ids),
  }));
  // Batch delete: the caller's tokens among `ids`; answers how many were deleted.
  restRoute(app, deps, 'POST', '/api/token/batch', { auth: 'user', body: idsInput }, ({ user, body }) =>
    tokens.removeMany(user, body.ids),
  );
  // new-api answers no data: the console reloads the list to show the new key.
  restRoute(app, deps, 'POST', '/api/token/', { auth: 'user', body: createTokenInput }, async ({ user, body }) => {
    await tokens.create(user, body);
    return undefined;
  });
  restRoute(app, deps, 'PUT', '/api/token/', { auth: 'user', query: updateQuery }, async ({ user, query, req }) =>
    shown(
      query.status_only
        ? await tokens.setStatus(user, decodeBody(tokenStatusInput, req.body))
        : await tokens.update(user, decodeBody(updateTokenInput, req.body)),
    ),
  );
  restRoute(app, deps, 'DELETE', '/api/token/:id', { auth: 'user', params: idParams }, async ({ user, params }) => {
    await tokens.remove(user, params.id);
    return undefined;
  });
}
