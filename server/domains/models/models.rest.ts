import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { modelMetaInput } from '../../../shared/schemas/model-meta.ts';
import { contractOf, pagedQuery, pageObject } from '../../compat/contract.ts';
import { notAvailable } from '../../compat/not-available.ts';
import { q, restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';
import { minRoleOf, requireRole } from '../auth/session.service.ts';

/*
 * /api/models/* : new-api's model metadata (admin), missing models and the upstream-sync pair, and
 * GET /api/models (user), which new-api keeps for its dashboard: channel type -> default models.
 * new-api registers GET /api/models and GET /api/models/ as two routes; Fastify here ignores the
 * trailing slash, so the handler tells them apart. Under the April 2025 contract both answer the
 * channel-type map, as they did (docs/new-api-contract/models.md).
 */

const listQuery = pagedQuery({ keyword: q.str(), vendor: q.str() });
const idParams = z.object({ id: q.id() });
const statusOnlyQuery = z.object({ status_only: q.bool() }).loose();

export function registerModelMetaRoutes(app: FastifyInstance, deps: AppDeps) {
  const { modelMeta, modelCatalog, channels } = deps.services;
  const admin = { auth: 'admin' } as const;

  const page = async (query: z.infer<typeof listQuery>) => {
    const { paging } = query;
    const r = await modelMeta.list({ keyword: query.keyword, vendor: query.vendor }, paging.offset, paging.pageSize);
    return { ...pageObject(r.items, r.total, paging), vendor_counts: r.vendor_counts };
  };

  restRoute(app, deps, 'GET', '/api/models', { auth: 'user', query: listQuery }, ({ req, user, query }) => {
    const slash = req.url.split('?')[0].endsWith('/');
    if (!slash || contractOf(deps) === '2025-04') return channels.defaultModelsByType();
    requireRole(user, minRoleOf.admin);
    // The admin list ignores a keyword; new-api's search is GET /api/models/search.
    return page({ ...query, keyword: '', vendor: '' });
  });
  restRoute(app, deps, 'GET', '/api/models/search', { ...admin, query: listQuery }, ({ query }) => page(query));
  restRoute(app, deps, 'GET', '/api/models/missing', admin, () => modelCatalog.missing());

  // new-api fetches its company's hosted metadata feed here. Switchyard does not: the preview finds
  // nothing to add or change (the console then shows its empty state), and the sync itself says why.
  restRoute(app, deps, 'GET', '/api/models/sync_upstream/preview', admin, () => ({ missing: [], conflicts: [] }));
  restRoute(app, deps, 'POST', '/api/models/sync_upstream', admin, () => {
    throw notAvailable('model_meta.sync_unavailable');
  });

  restRoute(app, deps, 'GET', '/api/models/:id', { ...admin, params: idParams }, ({ params }) =>
    modelMeta.get(params.id),
  );
  restRoute(app, deps, 'POST', '/api/models', { ...admin, body: modelMetaInput }, ({ body }) => modelMeta.create(body));
  restRoute(app, deps, 'PUT', '/api/models', { ...admin, body: modelMetaInput, query: statusOnlyQuery }, (i) =>
    i.query.status_only ? modelMeta.setStatus(i.body.id, i.body.status ?? 0) : modelMeta.update(i.body),
  );
  restRoute(app, deps, 'DELETE', '/api/models/:id', { ...admin, params: idParams }, async ({ params }) => {
    await modelMeta.remove(params.id);
  });
}
