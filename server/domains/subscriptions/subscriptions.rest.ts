import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  bindBody,
  epayPayBody,
  grantBody,
  planBody,
  planPayBody,
  planStatusBody,
  preferenceBody,
} from '../../../shared/schemas/subscriptions.ts';
import { notAvailable } from '../../compat/not-available.ts';
import { q, restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';
import { callbackFields, legacyPayAnswer, withFormBodies } from '../topup/topup.rest.ts';

const idParam = z.object({ id: q.id() });
const origin = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

/**
 * /api/subscription/* as new-api's console calls it (router/api-router.go; docs/new-api-contract/
 * subscriptions.md). Plans come wrapped as `{plan}`; admin writes answer `data: null`; the payment
 * calls answer new-api's `{message: "success" | "error", data}` without `success`.
 */
export function registerSubscriptionRoutes(app: FastifyInstance, deps: AppDeps) {
  const { plans, users, purchase } = deps.services.subscriptions;
  const user = { auth: 'user' } as const;
  const admin = { auth: 'admin' } as const;
  const wrapped = async (enabledOnly: boolean) => (await plans.list(enabledOnly)).map((plan) => ({ plan }));

  restRoute(app, deps, 'GET', '/api/subscription/plans', user, () => wrapped(true));
  restRoute(app, deps, 'GET', '/api/subscription/self', user, ({ user: u }) => users.self(u.id));
  restRoute(
    app,
    deps,
    'PUT',
    '/api/subscription/self/preference',
    { ...user, body: preferenceBody },
    ({ user: u, body }) => users.setPreference(u.id, body.billing_preference),
  );
  restRoute(app, deps, 'POST', '/api/subscription/epay/pay', { ...user, body: epayPayBody }, ({ user: u, body, req }) =>
    legacyPayAnswer(async () => {
      const { data, url } = await purchase.epayPay(u.id, body.plan_id, body.payment_method, origin(req));
      return { data, url };
    }),
  );
  for (const [path, provider] of [
    ['/api/subscription/stripe/pay', 'Stripe'],
    ['/api/subscription/creem/pay', 'Creem'],
  ] as const)
    restRoute(app, deps, 'POST', path, { ...user, body: planPayBody }, () =>
      legacyPayAnswer(() => {
        throw notAvailable('subscription.provider_unavailable', { provider });
      }),
    );

  // The gateway's notice (plain text: "success" stops its retries) and the browser's return (a redirect).
  const notify = async (req: FastifyRequest, reply: FastifyReply) => {
    const fields = callbackFields(req);
    let ok = false;
    try {
      ok = await purchase.epayNotify(fields);
    } catch (err) {
      req.log.error({ err }, 'subscription epay notify failed');
    }
    return reply.type('text/plain; charset=utf-8').send(ok ? 'success' : 'fail');
  };
  const back = async (req: FastifyRequest, reply: FastifyReply) => {
    let to = `${origin(req)}/app/wallet?pay=fail`;
    try {
      to = await purchase.epayReturn(callbackFields(req), origin(req));
    } catch (err) {
      req.log.error({ err }, 'subscription epay return failed');
    }
    return reply.redirect(to, 302);
  };
  withFormBodies(app, (scoped) => {
    for (const method of ['GET', 'POST'] as const) {
      restRoute(scoped, deps, method, '/api/subscription/epay/notify', { auth: 'public' }, ({ req, reply }) =>
        notify(req, reply),
      );
      restRoute(scoped, deps, method, '/api/subscription/epay/return', { auth: 'public' }, ({ req, reply }) =>
        back(req, reply),
      );
    }
  });

  restRoute(app, deps, 'GET', '/api/subscription/admin/plans', admin, () => wrapped(false));
  restRoute(app, deps, 'POST', '/api/subscription/admin/plans', { ...admin, body: planBody }, async ({ body }) => ({
    plan: await plans.create({ from: 'new-api', fields: body.plan }),
  }));
  restRoute(
    app,
    deps,
    'PUT',
    '/api/subscription/admin/plans/:id',
    { ...admin, params: idParam, body: planBody },
    async ({ params, body }) => {
      await plans.update(params.id, { from: 'new-api', fields: body.plan });
      return null;
    },
  );
  restRoute(
    app,
    deps,
    'PATCH',
    '/api/subscription/admin/plans/:id',
    { ...admin, params: idParam, body: planStatusBody },
    async ({ params, body }) => {
      await plans.setEnabled(params.id, body.enabled);
      return null;
    },
  );
  restRoute(
    app,
    deps,
    'POST',
    '/api/subscription/admin/bind',
    { ...admin, body: bindBody },
    async ({ user: a, body }) => {
      await users.grant(a, body.user_id, body.plan_id);
      return null;
    },
  );
  restRoute(
    app,
    deps,
    'GET',
    '/api/subscription/admin/users/:id/subscriptions',
    { ...admin, params: idParam },
    ({ user: a, params }) => users.listForUser(a, params.id),
  );
  restRoute(
    app,
    deps,
    'POST',
    '/api/subscription/admin/users/:id/subscriptions',
    { ...admin, params: idParam, body: grantBody },
    async ({ user: a, params, body }) => {
      await users.grant(a, params.id, body.plan_id);
      return null;
    },
  );
  restRoute(
    app,
    deps,
    'POST',
    '/api/subscription/admin/user_subscriptions/:id/invalidate',
    { ...admin, params: idParam },
    async ({ user: a, params }) => {
      await users.invalidate(a, params.id);
      return null;
    },
  );
  restRoute(
    app,
    deps,
    'DELETE',
    '/api/subscription/admin/user_subscriptions/:id',
    { ...admin, params: idParam },
    async ({ user: a, params }) => {
      await users.remove(a, params.id);
      return null;
    },
  );
}
