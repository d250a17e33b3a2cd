import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

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
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: false,
    // The relay and API are called cross-origin by SDKs; isolation headers would only break embedding.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });

  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'POST' || !req.url.startsWith('/trpc/')) return;
    const type = req.headers['content-type'] ?? '';
    if (!type.toLowerCase().startsWith('application/json')) {
      return reply
        .status(415)
        .send({ error: { message: 'console API writes must be application/json', code: -32600 } });
    }
  });
}
