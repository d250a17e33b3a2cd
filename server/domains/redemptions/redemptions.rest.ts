import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  batchDisableInput,
  createRedemptionInput,
  expiredTimeAsValidUntil,
  redeemInput,
  redemptionNameInput,
  redemptionStatusInput,
  updateRedemptionInput,
} from '../../../shared/schemas/redemptions.ts';
import { contractOf, pagedQuery, pageObject } from '../../compat/contract.ts';
import { decodeBody, decodeQuery } from '../../compat/go-decode.ts';
import { q, restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

const legacyPaging = { p: q.int(0), page_size: q.int(10) };
const legacyQuery = z.object({ ...legacyPaging, keyword: q.str() });
const pagedKeywordQuery = pagedQuery({ keyword: q.str() });
const idParam = z.object({ id: q.id() });

/**
 * /api/redemption/* (admin) and the user's POST /api/user/topup, as new-api consoles call them.
 * Lists: April 2025's buggy 1-based paging (api-contract §0.4 style B), or 2026's GetPageQuery.
 */
export function registerRedemptionRoutes(app: FastifyInstance, deps: AppDeps) {
  const { redemptions } = deps.services;
  const admin = { auth: 'admin' } as const;

  const list = async (raw: unknown) => {
    if (contractOf(deps) === '2025-04') {
      const legacy = decodeQuery(legacyQuery, raw);
      return redemptions.list(legacy.keyword.trim(), legacy.p, legacy.page_size);
    }
    const query = decodeQuery(pagedKeywordQuery, raw);
    const r = await redemptions.listRange(query.keyword.trim(), query.paging.offset, query.paging.pageSize);
    return pageObject(r.items, r.total, query.paging);
  };
  restRoute(app, deps, 'GET', '/api/redemption/', admin, ({ req }) => list({ ...(req.query as object), keyword: '' }));
  restRoute(app, deps, 'GET', '/api/redemption/search', admin, ({ req }) => list(req.query));
  restRoute(app, deps, 'GET', '/api/redemption/count-by-name', { ...admin, query: redemptionNameInput }, ({ query }) =>
    redemptions.countByName(query.name),
  );
  restRoute(
    app,
    deps,
    'DELETE',
    '/api/redemption/delete-by-name',
    { ...admin, query: redemptionNameInput },
    ({ query }) => redemptions.deleteByName(query.name),
  );
  restRoute(app, deps, 'DELETE', '/api/redemption/delete-disabled', admin, () => redemptions.deleteDisabled());
  // 2026: used, disabled and expired codes at once; answers the count. Static, so it wins over /:id.
  restRoute(app, deps, 'DELETE', '/api/redemption/invalid', admin, () => redemptions.deleteInvalid());
  restRoute(app, deps, 'PUT', '/api/redemption/batch-disable', { ...admin, body: batchDisableInput }, ({ body }) =>
    redemptions.batchDisable(body.ids),
  );
  restRoute(app, deps, 'GET', '/api/redemption/:id', { ...admin, params: idParam }, ({ params }) =>
    redemptions.get(params.id),
  );
  restRoute(app, deps, 'POST', '/api/redemption/', admin, ({ req }) =>
    redemptions.create(decodeBody(createRedemptionInput, expiredTimeAsValidUntil(req.body))),
  );
  // One path, two bodies: ?status_only=true carries only {id, status}.
  restRoute(
    app,
    deps,
    'PUT',
    '/api/redemption/',
    { ...admin, query: z.object({ status_only: q.bool() }) },
    ({ query, req }) =>
      query.status_only
        ? redemptions.setStatus(decodeBody(redemptionStatusInput, req.body))
        : redemptions.update(decodeBody(updateRedemptionInput, expiredTimeAsValidUntil(req.body))),
  );
  restRoute(app, deps, 'DELETE', '/api/redemption/:id', { ...admin, params: idParam }, ({ params }) =>
    redemptions.remove(params.id),
  );

  restRoute(
    app,
    deps,
    'POST',
    '/api/user/topup',
    { auth: 'user', body: redeemInput },
    async ({ user, body }) => (await redemptions.redeem(user, body.key)).quota,
  );
}
