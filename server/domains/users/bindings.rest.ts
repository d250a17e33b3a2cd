import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { q, raw, restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

const idParams = z.object({ id: q.id() }).loose();
const clearParams = z.object({ id: q.id(), binding_type: z.string() });

/** new-api's 2026 binding calls: custom OAuth bindings (none here) and clearing a built-in link. */
export function registerUserBindingRoutes(app: FastifyInstance, deps: AppDeps) {
  const { users } = deps.services;

  restRoute(app, deps, 'GET', '/api/user/oauth/bindings', { auth: 'user' }, ({ user }) =>
    users.customBindings(user, user.id),
  );
  restRoute(app, deps, 'DELETE', '/api/user/oauth/bindings/:provider_id', { auth: 'user' }, () => users.unbindCustom());
  restRoute(app, deps, 'GET', '/api/user/:id/oauth/bindings', { auth: 'admin', params: idParams }, ({ user, params }) =>
    users.customBindings(user, params.id),
  );
  restRoute(app, deps, 'DELETE', '/api/user/:id/oauth/bindings/:provider_id', { auth: 'admin' }, () =>
    users.unbindCustom(),
  );
  restRoute(
    app,
    deps,
    'DELETE',
    '/api/user/:id/bindings/:binding_type',
    { auth: 'admin', params: clearParams },
    async ({ user, params }) => {
      await users.clearBinding(user, params.id, params.binding_type);
      return raw({ success: true, message: 'success' });
    },
  );
}
