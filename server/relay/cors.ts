import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DROPPED_TOOLS_HEADER } from './dropped-tools.ts';

const EXPOSED = `x-request-id, server-timing, retry-after, ${DROPPED_TOOLS_HEADER}`;

/**
 * The relay's paths a browser may preflight: every prefix of `isRelayPath` but the console
 * playground's (/pg runs on the session cookie and is left out). Preflights match no relay
 * route, and the relay's hooks run for its own routes only, so each prefix gets an OPTIONS route.
 */
const PREFLIGHT_PATHS = [
  '/v1',
  '/v1/*',
  '/v1beta',
  '/v1beta/*',
  '/mj/*',
  '/suno/*',
  '/kling/*',
  '/dashboard/billing',
  '/dashboard/billing/*',
];

/** Whether a relay answer gets CORS headers: all but the session-based playground's. */
const wantsCors = (url: string) => !url.startsWith('/pg/');

/** The CORS headers of a relay answer, on the raw response so hijacked answers carry them too. */
export function allowCrossOrigin(req: FastifyRequest, res: ServerResponse): void {
  if (!wantsCors(req.url)) return;
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('access-control-expose-headers', EXPOSED);
}

function answerPreflight(req: FastifyRequest, reply: FastifyReply) {
  const res = reply.raw;
  res.setHeader('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
  res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*');
  res.setHeader('access-control-max-age', '86400');
  return reply.code(204).send();
}

/**
 * CORS for the relay, as new-api's relay routes have it: browser chat front ends call the gateway
 * from the user's own page, with the token in Authorization. Any origin, never credentials: the
 * token is the only way in and cookies do not go along. The console playground (/pg), which runs
 * on the session cookie, is left out. A preflight is answered in the hook, before authentication
 * (it carries no token) and before any route's handler (`/v1/files` answers every method with 501).
 * Registered inside the relay plugin: console, tRPC and REST answers never run it.
 */
export function registerRelayCors(app: FastifyInstance): void {
  app.addHook('onRequest', function relayCors(req, reply, done) {
    if (!wantsCors(req.url)) return done();
    allowCrossOrigin(req, reply.raw);
    if (req.method !== 'OPTIONS') return done();
    void answerPreflight(req, reply);
  });
  for (const path of PREFLIGHT_PATHS) app.options(path, answerPreflight);
}
