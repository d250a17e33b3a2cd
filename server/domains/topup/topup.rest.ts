import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { payInput, topUpAmountInput } from '../../../shared/schemas/wallet.ts';
import { classifyError } from '../../compat/envelope.ts';
import { decodeBody } from '../../compat/go-decode.ts';
import { raw, restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

/**
 * new-api's two payment calls answer without `success`: `{message:"success", data, url?}`
 * or `{message:"error", data:"<reason>"}`, always HTTP 200, and consoles read them so.
 */
export async function legacyPayAnswer(run: () => Promise<Record<string, unknown>>) {
  try {
    return raw({ message: 'success', ...(await run()) });
  } catch (err) {
    return raw({ message: 'error', data: classifyError(err).message });
  }
}

const formFields = z.object({}).loose();

/** A gateway's callback fields: the query string and, on a POST, the form body (read on these routes only). */
export const callbackFields = (req: FastifyRequest) =>
  ({ ...(req.query as object), ...(req.method === 'POST' ? decodeBody(formFields, req.body ?? {}) : {}) }) as Record<
    string,
    unknown
  >;

/** Registers routes that read form bodies (gateways post forms); elsewhere /api takes JSON alone. */
export function withFormBodies(app: FastifyInstance, register: (scoped: FastifyInstance) => void) {
  void app.register(async (scoped) => {
    scoped.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    register(scoped);
  });
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
  // It notifies by GET with a query string, or by POST with the same fields as a form.
  const notify = async (fields: unknown, req: FastifyRequest, reply: FastifyReply) => {
    let ok = false;
    try {
      ok = await topup.notify((fields ?? {}) as Record<string, unknown>);
    } catch (err) {
      req.log.error({ err }, 'epay notify failed');
    }
    return reply.type('text/plain; charset=utf-8').send(ok ? 'success' : 'fail');
  };
  restRoute(app, deps, 'GET', '/api/user/epay/notify', { auth: 'public' }, ({ req, reply }) =>
    notify(req.query, req, reply),
  );
  withFormBodies(app, (scoped) =>
    restRoute(scoped, deps, 'POST', '/api/user/epay/notify', { auth: 'public' }, ({ req, reply }) =>
      notify(callbackFields(req), req, reply),
    ),
  );
}
