import type { FastifyInstance } from 'fastify';
import { raw, restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';
import { sessionUser } from '../auth/session.service.ts';

export function registerPricingRoutes(app: FastifyInstance, deps: AppDeps) {
  // Public with an optional session (new-api's TryUserAuth): the session only picks the usable groups.
  // The answer has no message and carries group_ratio/usable_group beside data (api-contract §0.1).
  restRoute(app, deps, 'GET', '/api/pricing', { auth: 'public' }, async ({ req }) => {
    const user = await sessionUser(deps, req);
    return raw({ success: true, ...(await deps.services.pricing.list(user)) });
  });

  // Beside new-api's rest_model_ratio (root, like every price write): clears the shipped preset
  // prices the operator never changed; answers the models cleared.
  restRoute(app, deps, 'POST', '/api/option/clear_preset_prices', { auth: 'root' }, () =>
    deps.services.pricing.clearPresets(),
  );
}
