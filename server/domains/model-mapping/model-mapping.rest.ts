import type { FastifyInstance } from 'fastify';
import { modelMappingInput } from '../../../shared/schemas/model-mapping.ts';
import { restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

export function registerModelMappingRoutes(app: FastifyInstance, deps: AppDeps) {
  const { modelMapping } = deps.services;
  restRoute(app, deps, 'GET', '/api/model_mapping/', { auth: 'admin' }, () => modelMapping.get());
  restRoute(app, deps, 'PUT', '/api/model_mapping/', { auth: 'admin', body: modelMappingInput }, async ({ body }) => {
    await modelMapping.update(body.mapping);
    return undefined;
  });
  restRoute(app, deps, 'POST', '/api/model_mapping/reload', { auth: 'admin' }, () => modelMapping.reload());
}
