import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { serverText } from '../../../shared/server-messages.ts';
import { authenticationCredential, registrationCredential } from '../../../shared/schemas/passkeys.ts';
import { q, restRoute, withMessage } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';
import { startSession } from '../auth/session.service.ts';
import { currentSite, startSite } from './passkeys-flow.service.ts';
import { restPasskeyStatus } from './passkeys.view.ts';

const idParams = z.object({ id: q.id() });

/** new-api wraps the WebAuthn options its console hands to navigator.credentials.* as `{options: {publicKey}}`. */
const optionsAnswer = (publicKey: unknown) => ({ options: { publicKey } });

/**
 * new-api's passkey calls (docs/new-api-contract/passkeys.md). The finish calls take the credential JSON
 * the console builds from navigator.credentials.create/get; sign-in answers like a password login.
 */
export function registerPasskeyRoutes(app: FastifyInstance, deps: AppDeps) {
  const { passkeys } = deps.services;

  restRoute(app, deps, 'POST', '/api/user/passkey/login/begin', { auth: 'public' }, async ({ req, reply }) =>
    optionsAnswer(await passkeys.loginBegin(startSite(req, reply))),
  );
  restRoute(
    app,
    deps,
    'POST',
    '/api/user/passkey/login/finish',
    { auth: 'public', body: authenticationCredential },
    async ({ body, req, reply }) => {
      const user = await passkeys.loginFinish(currentSite(req), body);
      await startSession(deps.db, req, reply, user.id);
      return user;
    },
  );

  restRoute(app, deps, 'GET', '/api/user/passkey', { auth: 'user' }, async ({ user }) =>
    restPasskeyStatus(await passkeys.status(user.id)),
  );
  restRoute(app, deps, 'POST', '/api/user/passkey/register/begin', { auth: 'user' }, async ({ user, req, reply }) =>
    optionsAnswer(await passkeys.registerBegin(user.id, startSite(req, reply))),
  );
  restRoute(
    app,
    deps,
    'POST',
    '/api/user/passkey/register/finish',
    { auth: 'user', body: registrationCredential },
    async ({ user, body, req }) => {
      await passkeys.registerFinish(user.id, currentSite(req), body);
      return withMessage(serverText('passkey.registered'));
    },
  );
  restRoute(app, deps, 'POST', '/api/user/passkey/verify/begin', { auth: 'user' }, async ({ user, req, reply }) =>
    optionsAnswer(await passkeys.verifyBegin(user.id, startSite(req, reply))),
  );
  restRoute(
    app,
    deps,
    'POST',
    '/api/user/passkey/verify/finish',
    { auth: 'user', body: authenticationCredential },
    async ({ user, body, req }) => {
      await passkeys.verifyFinish(user.id, currentSite(req), body);
      return withMessage(serverText('passkey.verified'));
    },
  );
  restRoute(app, deps, 'DELETE', '/api/user/passkey', { auth: 'user' }, async ({ user }) => {
    await passkeys.remove(user.id);
    return withMessage(serverText('passkey.removed'));
  });

  restRoute(
    app,
    deps,
    'DELETE',
    '/api/user/:id/reset_passkey',
    { auth: 'admin', params: idParams },
    async ({ user, params }) => {
      await passkeys.adminReset(user, params.id);
      return withMessage(serverText('passkey.reset'));
    },
  );
}
