import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { serverText } from '../../../shared/server-messages.ts';
import { secureVerifyInput, twoFaCodeInput } from '../../../shared/schemas/twofa.ts';
import { q, restRoute, withMessage } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';
import { finishSecondStep } from './login-step.service.ts';

const idParams = z.object({ id: q.id() });

/**
 * new-api's two-factor calls (docs/new-api-contract/twofa.md): the user's own setup under
 * /api/user/2fa/*, the sign-in's second step, the admin's figures and reset, and POST /api/verify.
 * The /api/user/2fa/* paths are static, so /api/user/:id never catches them.
 */
export function registerTwoFaRoutes(app: FastifyInstance, deps: AppDeps) {
  const { twoFactor, secureVerify } = deps.services;
  const user = { auth: 'user' } as const;
  const withCode = { ...user, body: twoFaCodeInput } as const;

  restRoute(app, deps, 'GET', '/api/user/2fa/status', user, ({ user }) => twoFactor.status(user.id));
  restRoute(app, deps, 'POST', '/api/user/2fa/setup', user, async ({ user }) => {
    const { secret, qr_code_data, backup_codes } = await twoFactor.setup(user.id);
    return withMessage(serverText('twofa.setup_started'), { secret, qr_code_data, backup_codes });
  });
  restRoute(app, deps, 'POST', '/api/user/2fa/enable', withCode, async ({ user, body }) => {
    await twoFactor.enable(user.id, body.code);
    return withMessage(serverText('twofa.enabled'));
  });
  restRoute(app, deps, 'POST', '/api/user/2fa/disable', withCode, async ({ user, body }) => {
    await twoFactor.disable(user.id, body.code);
    return withMessage(serverText('twofa.disabled'));
  });
  restRoute(app, deps, 'POST', '/api/user/2fa/backup_codes', withCode, async ({ user, body }) =>
    withMessage(serverText('twofa.codes_regenerated'), await twoFactor.regenerateBackupCodes(user.id, body.code)),
  );

  restRoute(
    app,
    deps,
    'POST',
    '/api/user/login/2fa',
    { auth: 'public', body: twoFaCodeInput },
    ({ body, req, reply }) => finishSecondStep(deps, req, reply, body.code),
  );

  restRoute(app, deps, 'GET', '/api/user/2fa/stats', { auth: 'admin' }, () => twoFactor.stats());
  restRoute(app, deps, 'DELETE', '/api/user/:id/2fa', { auth: 'admin', params: idParams }, async ({ user, params }) => {
    await twoFactor.adminReset(user, params.id);
    return withMessage(serverText('twofa.admin_disabled'));
  });

  restRoute(app, deps, 'POST', '/api/verify', { ...user, body: secureVerifyInput }, async ({ user, body, req }) =>
    withMessage(serverText('verify.success'), await secureVerify.verify(user, req, body.method, body.code)),
  );
}
