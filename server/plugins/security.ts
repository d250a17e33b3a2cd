import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers for every answer (helmet), and the CSRF rule for the console
 * API: cookie-authenticated writes must be JSON requests. A cross-site form can
 * only send urlencoded, multipart or text/plain bodies, and a cross-site script
 * cannot send JSON without a CORS preflight, which we never grant. Together with
 * SameSite=Strict session cookies this closes cross-site request forgery. (The
 * REST adapter already requires the custom New-Api-User header, which has the
 * same effect.) The console page's Content-Security-Policy is set where the page
 * is served (console-html.ts), since it depends on the operator's custom code.
 */
export function registerSecurity(app: FastifyInstance): void {
  // Built once: the headers are the same for every answer (@fastify/helmet rebuilt this middleware
  // per request, a measurable share of the relay's CPU under load).
  const setHeaders = helmet({
    contentSecurityPolicy: false,
    // The relay and API are called cross-origin by SDKs; isolation headers would only break embedding.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
  const next = (err?: unknown) => {
    if (err) throw err;
  };

  app.addHook('onRequest', (req, reply, done) => {
    // On the raw response, so answers a handler writes itself (the relay's) carry them too.
    setHeaders(req.raw, reply.raw, next);
    if (req.method === 'POST' && req.url.startsWith('/trpc/')) {
      const type = req.headers['content-type'] ?? '';
      if (!type.toLowerCase().startsWith('application/json')) {
        reply.status(415).send({ error: { message: 'console API writes must be application/json', code: -32600 } });
        return;
      }
    }
    done();
  });
}
