import type { FastifyInstance } from 'fastify';
import { isRelayPath } from '../relay/errors.ts';

const EXPOSED = 'x-request-id, server-timing, retry-after';

/**
 * CORS for the relay, as new-api's relay routes have it: browser chat front ends call the gateway
 * from the user's own page, with the token in Authorization. Any origin, never credentials: the
 * token is the only way in and cookies do not go along. The console playground (/pg), which runs
 * on the session cookie, is left out. Set on the raw response, so the relay's hijacked answers
 * carry it too; a preflight is answered here, before authentication (it carries no token).
 */
export function registerRelayCors(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    const url = req.url;
    if (!isRelayPath(url) || url.startsWith('/pg/')) return done();
    const res = reply.raw;
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-expose-headers', EXPOSED);
    if (req.method !== 'OPTIONS') return done();
    res.setHeader('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
    res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*');
    res.setHeader('access-control-max-age', '86400');
    void reply.code(204).send();
  });
}
