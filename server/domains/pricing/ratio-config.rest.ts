import type { FastifyInstance } from 'fastify';
import { restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';
import { exposedRatios } from './exposed-ratios.service.ts';

export function registerRatioConfigRoutes(app: FastifyInstance, deps: AppDeps) {
  restRoute(app, deps, 'GET', '/api/ratio_config', { auth: 'public' }, () => exposedRatios(deps.services.options));
}
