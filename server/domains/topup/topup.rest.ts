import type { FastifyInstance } from 'fastify';
import { payInput, topUpAmountInput } from '../../../shared/schemas/wallet.ts';
import { classifyError } from '../../compat/envelope.ts';
import { decodeBody } from '../../compat/go-decode.ts';
import { raw, restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

/**
 * new-api's two payment calls answer without `success`: `{message:"success", data, url?}`
 * or `{message:"error", data:"<reason>"}`, always HTTP 200, and consoles read them so.
 */
async function legacyPayAnswer(run: () => Promise<Record<string, unknown>>) {
  try {
    return raw({ message: 'success', ...(await run()) });
  } catch (err) {
    return raw({ message: 'error', data: classifyError(err).message });
  }
}

export function registerTopUpRoutes(app: FastifyInstance, deps: AppDeps) {
  const { topup } = deps.services;

  restRoute(app, deps, 'POST', '/api/user/amount', { auth: 'user' }, ({ user, req }) =>
    legacyPayAnswer(async () => ({ data: topup.quote(user, decodeBody(topUpAmountInput, req.body)) })),
  );

  restRoute(app, deps, 'POST', '/api/user/pay', { auth: 'user' }, ({ user, req }) =>
    legacyPayAnswer(() => topup.pay(user, decodeBody(payInput, req.body), `${req.protocol}://${req.host}`)),
  );

  // The gateway reads the plain-text body: "success" stops its retries, "fail" asks for another delivery.
  restRoute(app, deps, 'GET', '/api/user/epay/notify', { auth: 'public' }, async ({ req, reply }) => {
    let ok = false;
    try {
      ok = await topup.notify((req.query ?? {}) as Record<string, unknown>);
    } catch (err) {
      req.log.error({ err }, 'epay notify failed');
    }
    return reply.type('text/plain; charset=utf-8').send(ok ? 'success' : 'fail');
  });
}
