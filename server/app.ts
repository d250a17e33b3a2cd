import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { registerCompatRoutes } from './compat/index.ts';
import { logServerFailure, sendEnvelopeError } from './compat/envelope.ts';
import type { AppDeps } from './context.ts';
import { isAppError } from './errors.ts';
import type { Logger } from 'pino';
import { lazyChildLogger } from './logger.ts';
import { registerRequestTracing } from './telemetry/request-trace.ts';
import { createTracing } from './telemetry/tracing.ts';
import { registerDemoUpstream } from './demo/demo-upstream.ts';
import { registerOpsRoutes } from './ops/health.ts';
import { registerBackgroundJobs } from './ops/jobs/background-jobs.ts';
import { createConsolePageCache } from './plugins/console-html.ts';
import { trackInFlightHandlers } from './plugins/in-flight.ts';
import { registerIpLimits } from './plugins/ip-limits.ts';
import { registerSecurity } from './plugins/security.ts';
import { isRelayPath, sendRelayError } from './relay/errors.ts';
import { answerRelayError, answerUnknownRelayPath, relayPlugin } from './relay/plugin.ts';
import { type AppRouter, appRouter } from './trpc/router.ts';
import { createContextFactory } from './trpc/trpc.ts';

/** After the last connection closed, how long handlers may take to finish their bookkeeping. */
const HANDLERS_SETTLE_CAP_MS = 5_000;

/** 20 hex digits from a random UUID (8-4-4-4-...), cut without a regular expression: this runs per request. */
const requestId = () => {
  const u = randomUUID();
  return u.slice(0, 8) + u.slice(9, 13) + u.slice(14, 18) + u.slice(19, 23);
};

/** Builds the whole HTTP surface on one Fastify instance; never listens (main.ts or tests do). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    trustProxy: config.trustProxy as boolean | string,
    bodyLimit: config.bodyLimit,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    requestIdHeader: 'x-request-id',
    genReqId: requestId,
    childLoggerFactory: (logger, bindings, options) =>
      lazyChildLogger(logger as unknown as Logger, bindings, options) as unknown as FastifyBaseLogger,
    // Fastify's own request lines would log query strings (Gemini keys travel in ?key=); ours below do not.
    logController: new LogController({ disableRequestLogging: true }),
  });

  // First, so every later hook and log line of a traced request knows its trace (server/telemetry/).
  const tracing = createTracing(config.telemetry, deps.metrics, config.version);
  if (tracing) {
    registerRequestTracing(app, tracing);
    // Registered before the others: it runs last, once settlements have ended their spans.
    app.addHook('onClose', () => tracing.shutdown());
  }
  const inFlight = trackInFlightHandlers(app);
  await app.register(fastifyCookie, { secret: config.sessionSecret });
  registerSecurity(app);

  // Some clients send `content-type: application/json` with no body (e.g. PUT .../read); treat that as no body.
  const parseJson = app.getDefaultJsonParser('error', 'remove');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    parseJson(req, String(body), done);
  });

  // Callback-style hooks: these run on every request, and an async hook costs a promise each.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    if (!deps.log.isLevelEnabled('info')) return done();
    // req.log is the request's child logger, which already carries reqId (a second one would be written twice).
    req.log.info(
      {
        method: req.method,
        path: req.url.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    );
    done();
  });

  // One translator per surface: the relay plugin has its own; here relay paths outside its routes (unknown
  // paths, app-wide hooks) still answer in the provider's error shape, the rest in the envelope.
  app.setErrorHandler((err, req, reply) => dispatchError(req, reply, err));

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: createContextFactory(deps),
      onError: ({ error, path: procedure }) => {
        const cause = error.cause ?? error;
        if (isAppError(cause) ? cause.status >= 500 : error.code === 'INTERNAL_SERVER_ERROR')
          logServerFailure(deps.log, cause, { procedure });
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  registerOpsRoutes(app, deps);
  if (config.demoChannel) registerDemoUpstream(app);
  registerCompatRoutes(app, deps);
  // Awaited here so its onClose hooks are registered before the one below (they run last-registered first).
  await app.register(relayPlugin, { deps });
  // After the relay plugin: an app hook added later runs after the relay's own (CORS) on relay routes, so
  // preflights are answered before the per-IP limit counts them and its refusals carry the CORS headers.
  registerIpLimits(app, deps);
  // onClose hooks run last-registered first, after the server stopped: this one runs
  // before the relay's (which flushes settlements), so handlers still billing get in.
  app.addHook('onClose', async () => {
    if (!(await inFlight.settled(HANDLERS_SETTLE_CAP_MS)))
      deps.log.warn('shutdown: route handlers still running after the connections closed');
  });
  registerBackgroundJobs(app, deps);
  // Until setup is done, the wizard asks a browser that is not on this machine for this code (issue 39).
  app.addHook('onListen', async () => {
    const code = await deps.services.users.pendingSetupCode();
    if (code)
      deps.log.warn(
        { setupCode: code },
        `setup code: ${code} (the setup page asks for it unless it is opened on this machine)`,
      );
  });

  const hasClient = existsSync(path.join(config.clientDist, 'index.html'));
  const consolePage = hasClient ? createConsolePageCache(config.clientDist, deps.services.options) : undefined;
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: config.clientDist,
      wildcard: false,
      index: false,
      // The build writes a .br and a .gz beside each asset (scripts/console-build.ts): sent as they are, never
      // compressed per request; a file without them, or a client asking for neither, gets the plain file.
      preCompressed: true,
      setHeaders(reply, file) {
        reply.header(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0];
    if (url.startsWith('/api') || isRelayPath(url) || url.startsWith('/trpc') || url.startsWith('/assets')) {
      const message = `Invalid URL (${req.method} ${url})`;
      if (url.startsWith('/api')) {
        return reply.status(404).send({
          success: false,
          message,
          error: { message, type: 'invalid_request_error', param: '', code: '' },
        });
      }
      if (isRelayPath(url)) return answerUnknownRelayPath(req, reply, message);
      return sendRelayError(req, reply, { status: 404, message, code: 'not_found' });
    }
    if (consolePage && (req.method === 'GET' || req.method === 'HEAD')) {
      const page = consolePage(url);
      return reply
        .header('cache-control', 'no-cache')
        .header('content-security-policy', page.csp)
        .type('text/html; charset=utf-8')
        .send(page.html);
    }
    return reply.status(404).send({ success: false, message: 'Not found' });
  });

  return app;
}

function dispatchError(req: FastifyRequest, reply: FastifyReply, err: unknown) {
  if (isRelayPath(req.url)) return answerRelayError(req, reply, err);
  return sendEnvelopeError(req, reply, err);
}
