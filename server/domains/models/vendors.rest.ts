import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { prefillGroupInput, vendorInput } from '../../../shared/schemas/model-meta.ts';
import { pagedQuery, pageObject } from '../../compat/contract.ts';
import { q, restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

/*
 * /api/vendors/* and /api/prefill_group/* (admin), new in new-api's 2026 contract and served under
 * both contracts: vendor lists are page objects, prefill groups a plain list (docs/new-api-contract/models.md).
 */

const idParams = z.object({ id: q.id() });
const vendorQuery = pagedQuery({ keyword: q.str() });

export function registerVendorRoutes(app: FastifyInstance, deps: AppDeps) {
  const { vendors, prefillGroups } = deps.services;
  const admin = { auth: 'admin' } as const;

  const page = async (query: z.infer<typeof vendorQuery>, keyword: string) => {
    const { paging } = query;
    const r = await vendors.list(keyword, paging.offset, paging.pageSize);
    return pageObject(r.items, r.total, paging);
  };
  restRoute(app, deps, 'GET', '/api/vendors', { ...admin, query: vendorQuery }, ({ query }) => page(query, ''));
  restRoute(app, deps, 'GET', '/api/vendors/search', { ...admin, query: vendorQuery }, ({ query }) =>
    page(query, query.keyword),
  );
  restRoute(app, deps, 'GET', '/api/vendors/:id', { ...admin, params: idParams }, ({ params }) =>
    vendors.get(params.id),
  );
  restRoute(app, deps, 'POST', '/api/vendors', { ...admin, body: vendorInput }, ({ body }) => vendors.create(body));
  restRoute(app, deps, 'PUT', '/api/vendors', { ...admin, body: vendorInput }, ({ body }) => vendors.update(body));
  restRoute(app, deps, 'DELETE', '/api/vendors/:id', { ...admin, params: idParams }, async ({ params }) => {
    await vendors.remove(params.id);
  });

  restRoute(app, deps, 'GET', '/api/prefill_group', { ...admin, query: z.object({ type: q.str() }).loose() }, (i) =>
    prefillGroups.list(i.query.type),
  );
  restRoute(app, deps, 'POST', '/api/prefill_group', { ...admin, body: prefillGroupInput }, ({ body }) =>
    prefillGroups.create(body),
  );
  restRoute(app, deps, 'PUT', '/api/prefill_group', { ...admin, body: prefillGroupInput }, ({ body }) =>
    prefillGroups.update(body),
  );
  restRoute(app, deps, 'DELETE', '/api/prefill_group/:id', { ...admin, params: idParams }, async ({ params }) => {
    await prefillGroups.remove(params.id);
  });
}
