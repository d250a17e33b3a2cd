import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  batchDisableInput,
  createRedemptionInput,
  redeemInput,
  redemptionNameInput,
  redemptionStatusInput,
  updateRedemptionInput,
} from '../../../shared/schemas/redemptions.ts';
import { decodeBody } from '../../compat/go-decode.ts';
import { q, restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

const paging = { p: q.int(0), page_size: q.int(10) };
const idParam = z.object({ id: q.id() });

/** /api/redemption/* (admin) and the user's POST /api/user/topup, as new-api consoles call them. */
export function registerRedemptionRoutes(app: FastifyInstance, deps: AppDeps) {
  const { redemptions } = deps.services;
  const admin = { auth: 'admin' } as const;

  restRoute(app, deps, 'GET', '/api/redemption/', { ...admin, query: z.object(paging) }, ({ query }) =>
    redemptions.list('', query.p, query.page_size),
  );
  restRoute(
    app,
    deps,
    'GET',
    '/api/redemption/search',
    { ...admin, query: z.object({ ...paging, keyword: q.str() }) },
    ({ query }) => redemptions.list(query.keyword.trim(), query.p, query.page_size),
  );
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
  restRoute(app, deps, 'PUT', '/api/redemption/batch-disable', { ...admin, body: batchDisableInput }, ({ body }) =>
    redemptions.batchDisable(body.ids),
  );
  restRoute(app, deps, 'GET', '/api/redemption/:id', { ...admin, params: idParam }, ({ params }) =>
    redemptions.get(params.id),
  );
  restRoute(app, deps, 'POST', '/api/redemption/', { ...admin, body: createRedemptionInput }, ({ body }) =>
    redemptions.create(body),
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
        : redemptions.update(decodeBody(updateRedemptionInput, req.body)),
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
