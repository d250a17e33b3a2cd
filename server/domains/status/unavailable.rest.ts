import type { FastifyInstance } from 'fastify';
import { pagingQuery, pageObject } from '../../compat/contract.ts';
import { notAvailable } from '../../compat/not-available.ts';
import { restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

/*
 * Settings tabs of new-api's 2026 console for features Switchyard does not have (docs/new-api-contract/misc.md
 * § Not available). What a tab loads on opening answers in its shape and empty, so it shows its empty or
 * "not enabled" state; what only an operator's click sends is refused with the reason.
 */
export function registerUnavailableFeatureRoutes(app: FastifyInstance, deps: AppDeps) {
  const refuse = (code: Parameters<typeof notAvailable>[0]) => () => {
    throw notAvailable(code);
  };

  // Upstream ratio sync: no channel to pull ratios from; fetching is refused.
  restRoute(app, deps, 'GET', '/api/ratio_sync/channels', { auth: 'root' }, () => []);
  restRoute(app, deps, 'POST', '/api/ratio_sync/fetch', { auth: 'root' }, refuse('feature.ratio_sync_unavailable'));

  // io.net model deployments (a service new-api hosts): settings say "off and not configured".
  const deployments = refuse('feature.deployments_unavailable');
  restRoute(app, deps, 'GET', '/api/deployments/settings', { auth: 'admin' }, () => ({
    provider: 'io.net',
    enabled: false,
    configured: false,
    can_connect: false,
  }));
  for (const path of ['/api/deployments/', '/api/deployments/search'])
    restRoute(app, deps, 'GET', path, { auth: 'admin', query: pagingQuery }, ({ query }) =>
      pageObject([], 0, query.paging),
    );
  for (const path of [
    '/api/deployments/hardware-types',
    '/api/deployments/locations',
    '/api/deployments/available-replicas',
  ])
    restRoute(app, deps, 'GET', path, { auth: 'admin' }, () => []);
  for (const path of [
    '/api/deployments/settings/test-connection',
    '/api/deployments/test-connection',
    '/api/deployments/price-estimation',
    '/api/deployments/',
    '/api/deployments/:id/extend',
  ])
    restRoute(app, deps, 'POST', path, { auth: 'admin' }, deployments);
  for (const path of [
    '/api/deployments/check-name',
    '/api/deployments/:id',
    '/api/deployments/:id/logs',
    '/api/deployments/:id/containers',
    '/api/deployments/:id/containers/:container_id',
  ])
    restRoute(app, deps, 'GET', path, { auth: 'admin' }, deployments);
  for (const path of ['/api/deployments/:id', '/api/deployments/:id/name'])
    restRoute(app, deps, 'PUT', path, { auth: 'admin' }, deployments);
  restRoute(app, deps, 'DELETE', '/api/deployments/:id', { auth: 'admin' }, deployments);

  // Custom OAuth providers: Switchyard's one OIDC sign-in is configured in the system settings.
  const customOAuth = refuse('feature.custom_oauth_unavailable');
  restRoute(app, deps, 'GET', '/api/custom-oauth-provider/', { auth: 'root' }, () => []);
  restRoute(app, deps, 'GET', '/api/custom-oauth-provider/:id', { auth: 'root' }, customOAuth);
  restRoute(app, deps, 'POST', '/api/custom-oauth-provider/', { auth: 'root' }, customOAuth);
  restRoute(app, deps, 'POST', '/api/custom-oauth-provider/discovery', { auth: 'root' }, customOAuth);
  restRoute(app, deps, 'PUT', '/api/custom-oauth-provider/:id', { auth: 'root' }, customOAuth);
  restRoute(app, deps, 'DELETE', '/api/custom-oauth-provider/:id', { auth: 'root' }, customOAuth);
}
