import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../context.ts';
import { registerFailureAccounting, rememberFailure } from './accounting.ts';
import { allowCrossOrigin, registerRelayCors } from './cors.ts';
import { sendRelayError } from './errors.ts';
import { setRetryAfter } from './relay-limits.ts';
import { registerRelayRoutes } from './routes.ts';
import { createRelayRuntime } from './runtime.ts';
import { registerServerTiming, serverTiming } from './timing.ts';

export interface RelayPluginOptions {
  deps: AppDeps;
}

/**
 * The relay (/v1, /v1beta, /pg, /mj, /suno, /dashboard/billing) as one encapsulated Fastify plugin:
 * its CORS, Server-Timing and error translator are this context's own, so they run for relay
 * routes only and the console, tRPC and REST answers never pay for them. Register it with
 * `app.register` (not wrapped in fastify-plugin: the encapsulation is the point).
 */
export async function relayPlugin(app: FastifyInstance, { deps }: RelayPluginOptions): Promise<void> {
  const rt = createRelayRuntime(deps);
  app.addHook('onReady', () => rt.routing.reload());
  // Settlements and queued log rows are written before the database closes.
  app.addHook('onClose', () => rt.close());

  registerRelayCors(app);
  const startedAt = registerServerTiming(app);
  registerFailureAccounting(app, rt, startedAt);
  app.setErrorHandler((err, req, reply) => answerRelayError(req, reply, err));
  registerRelayRoutes(app, rt, startedAt);
}

/**
 * A relay error in the caller's dialect, readable cross-origin. Also the app's answer for relay
 * paths outside this plugin's routes (unknown paths, app-wide hooks such as the IP limit, which run
 * before the relay's own), so those keep the relay's shape and CORS headers.
 */
export function answerRelayError(req: FastifyRequest, reply: FastifyReply, err: unknown) {
  allowCrossOrigin(req, reply.raw);
  rememberFailure(req, err);
  // The routes that throw straight here (the playground's video door) still say when to retry a 429.
  setRetryAfter(reply, err);
  return sendRelayError(req, reply, err);
}

/**
 * The 404 of an unknown relay path. The app's not-found handler calls it: a plugin without a
 * prefix cannot own the 404s of the prefixes it serves (Fastify keeps one per prefix).
 */
export function answerUnknownRelayPath(req: FastifyRequest, reply: FastifyReply, message: string) {
  reply.header('server-timing', serverTiming(reply.elapsedTime));
  return answerRelayError(req, reply, { status: 404, message, code: 'not_found' });
}
