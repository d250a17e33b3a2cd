import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { serverText } from '../../../shared/server-messages.ts';
import { loginInput, registerInput, setupInput } from '../../../shared/schemas/users.ts';
import { decodeBody, decodeQuery } from '../../compat/go-decode.ts';
import { notAvailable } from '../../compat/not-available.ts';
import { raw, restRoute, withMessage } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';
import { badRequest, unauthorized } from '../../errors.ts';
import { isLoopbackCaller } from '../users/setup-code.rules.ts';
import { humanClient, passwordLogin, passwordRegister } from './http-steps.service.ts';
import { emailBindQuery, emailQuery, resetInput } from './mail-flows.service.ts';
import type { OAuthOutcome, RedirectProvider } from './oauth/oauth.service.ts';
import { issueState, takeState } from './oauth/oauth-state.service.ts';
import { sessionUser, startSession } from './session.service.ts';

const turnstileQuery = z.object({ turnstile: z.string().optional() }).loose();
const stateQuery = z.object({ aff: z.string().max(32).default('') });
const callbackQuery = z.object({
  code: z.string().default(''),
  state: z.string().default(''),
  iss: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});
const codeQuery = z.object({ code: z.string().default(''), aff: z.string().max(32).default('') });
const anyQuery = z.record(z.string(), z.unknown());
const providerParams = z.object({ provider: z.string().max(64) });

/** A bind call's fields: the JSON body today's console POSTs, or the query string older ones GET. */
const fieldsOf = <T>(schema: z.ZodType<T>, req: FastifyRequest): T =>
  req.method === 'POST' ? decodeBody(schema, req.body) : decodeQuery(schema, req.query);

const origin = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

/** Setup wizard, sign-in, mail flows and third-party sign-in: the public routes of api-contract §2, §9 and §12. */
export function registerAuthRoutes(app: FastifyInstance, deps: AppDeps) {
  const { auth, options, users } = deps.services;
  const redirectUri = (req: FastifyRequest, p: string) =>
    `${(options.get('ServerAddress') || origin(req)).replace(/\/$/, '')}/oauth/${p}`;
  const sessionId = async (req: FastifyRequest) => (await sessionUser(deps, req))?.id;
  const requireSession = async (req: FastifyRequest) => {
    const id = await sessionId(req);
    if (id === undefined) throw unauthorized();
    return id;
  };
  /** A login answer starts the session; a bind answers message "bind" (what the console checks). */
  const answer = async (req: FastifyRequest, reply: FastifyReply, outcome: OAuthOutcome) => {
    if (outcome.kind === 'bind') return withMessage('bind');
    await startSession(deps.db, req, reply, outcome.user.id);
    return outcome.user;
  };

  // new-api sends this one without `message`.
  restRoute(app, deps, 'GET', '/api/setup', { auth: 'public' }, async ({ req }) =>
    raw({ success: true, data: await users.setupStatus(isLoopbackCaller(req.socket.remoteAddress, req.headers)) }),
  );

  restRoute(
    app,
    deps,
    'POST',
    '/api/setup',
    { auth: 'public', body: setupInput, realStatus: true },
    async ({ body, req }) => {
      await users.setup(body, {
        acceptLanguage: req.headers['accept-language'],
        loopback: isLoopbackCaller(req.socket.remoteAddress, req.headers),
      });
      return withMessage('系统初始化成功');
    },
  );

  restRoute(
    app,
    deps,
    'POST',
    '/api/user/login',
    { auth: 'public', body: loginInput, query: turnstileQuery },
    async ({ body, query, req, reply }) => {
      const answer = await passwordLogin(deps, req, reply, body, query.turnstile);
      // Two-factor on: success with `require_2fa` and no session; the console then asks for the code.
      return 'require_2fa' in answer ? withMessage(serverText('twofa.require_code'), answer) : answer;
    },
  );

  restRoute(
    app,
    deps,
    'POST',
    '/api/user/register',
    { auth: 'public', body: registerInput, query: turnstileQuery },
    async ({ body, query, req, reply }) => {
      await passwordRegister(deps, req, reply, body, query.turnstile);
    },
  );

  restRoute(app, deps, 'GET', '/api/user/logout', { auth: 'public' }, async ({ endSession }) => {
    await endSession();
  });

  restRoute(
    app,
    deps,
    'GET',
    '/api/verification',
    { auth: 'public', query: emailQuery },
    async ({ query, req, reply }) => {
      await auth.sendVerificationCode(query, await humanClient(options, req, reply, query.turnstile));
      return withMessage('验证码发送成功，请检查邮箱');
    },
  );

  restRoute(
    app,
    deps,
    'GET',
    '/api/reset_password',
    { auth: 'public', query: emailQuery },
    async ({ query, req, reply }) => {
      const client = await humanClient(options, req, reply, query.turnstile);
      await auth.sendPasswordReset(query, { ...client, origin: origin(req) });
      return withMessage('重置邮件发送成功，请检查邮箱');
    },
  );

  restRoute(app, deps, 'POST', '/api/user/reset', { auth: 'public', body: resetInput }, async ({ body, req }) =>
    auth.resetPassword(body, req.ip),
  );

  restRoute(app, deps, 'GET', '/api/oauth/state', { auth: 'public', query: stateQuery }, ({ query, req, reply }) =>
    issueState(req, reply, query.aff),
  );

  // April 2025 consoles bind by GET with a query string; today's console POSTs the same fields as JSON.
  for (const method of ['GET', 'POST'] as const)
    restRoute(app, deps, method, '/api/oauth/email/bind', { auth: 'public' }, async ({ req }) => {
      await auth.bindEmail(await requireSession(req), fieldsOf(emailBindQuery, req));
      return withMessage('邮箱绑定成功');
    });

  for (const provider of ['github', 'oidc', 'linuxdo'] as const satisfies RedirectProvider[]) {
    restRoute(
      app,
      deps,
      'GET',
      `/api/oauth/${provider}`,
      { auth: 'public', query: callbackQuery },
      async ({ query, req, reply }) => {
        // The provider's own refusal (e.g. the user pressed "deny") is passed through as it came.
        if (query.error) return raw({ success: false, message: query.error_description || query.error }, 400);
        const kept = takeState(req, reply, query.state);
        const ctx = {
          ip: req.ip,
          sessionUserId: await sessionId(req),
          aff: kept.aff,
          redirectUri: redirectUri(req, provider),
          iss: query.iss,
        };
        return answer(req, reply, await auth.completeRedirect(provider, query.code, query.state, ctx));
      },
    );
  }

  // Today's console sends every provider through one route (Discord and custom providers too):
  // the ones Switchyard has are the static routes above; any other is not switched on here.
  restRoute(app, deps, 'GET', '/api/oauth/:provider', { auth: 'public', params: providerParams }, ({ params }) => {
    throw badRequest('oauth.provider_disabled', { provider: params.provider });
  });

  for (const kind of ['jwt', 'header'])
    restRoute(app, deps, 'POST', `/api/auth/external/:provider/${kind}/login`, { auth: 'public' }, () => {
      throw notAvailable('compat.external_login_unavailable');
    });

  restRoute(
    app,
    deps,
    'GET',
    '/api/oauth/wechat',
    { auth: 'public', query: codeQuery },
    async ({ query, req, reply }) => answer(req, reply, await auth.wechat(query.code, { ip: req.ip, aff: query.aff })),
  );

  for (const method of ['GET', 'POST'] as const)
    restRoute(app, deps, method, '/api/oauth/wechat/bind', { auth: 'public' }, async ({ req }) => {
      const { code } = fieldsOf(codeQuery, req);
      await auth.wechat(code, { ip: req.ip, sessionUserId: await requireSession(req) });
      return withMessage('bind');
    });

  restRoute(
    app,
    deps,
    'GET',
    '/api/oauth/telegram/login',
    { auth: 'public', query: anyQuery },
    async ({ query, req, reply }) => answer(req, reply, await auth.telegram(query, { ip: req.ip })),
  );

  // The widget navigates the browser here, so success is a redirect back to the settings page.
  restRoute(
    app,
    deps,
    'GET',
    '/api/oauth/telegram/bind',
    { auth: 'public', query: anyQuery },
    async ({ query, req, reply }) => {
      await auth.telegram(query, { ip: req.ip, sessionUserId: await requireSession(req) });
      return reply.redirect('/app/me', 302);
    },
  );
}
