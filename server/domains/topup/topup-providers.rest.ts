import type { FastifyInstance } from 'fastify';
import { notAvailable } from '../../compat/not-available.ts';
import { restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

/*
 * Payment providers today's new-api console offers beside Epay. Switchyard integrates Epay only:
 * the others answer a sentence saying so (the console shows their buttons only when /api/user/topup/info
 * says they are enabled, which it never does here, so these follow a hand-made call).
 */
const providers = [
  ['/api/user/stripe/pay', 'Stripe'],
  ['/api/user/stripe/amount', 'Stripe'],
  ['/api/user/creem/pay', 'Creem'],
  ['/api/user/waffo/pay', 'Waffo'],
] as const;

export function registerTopUpProviderRoutes(app: FastifyInstance, deps: AppDeps) {
  for (const [url, provider] of providers)
    restRoute(app, deps, 'POST', url, { auth: 'user' }, () => {
      throw notAvailable('topup.provider_unavailable', { provider });
    });
}
