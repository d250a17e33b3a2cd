import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { serverText } from '../../shared/server-messages.ts';

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
  const headers = helmetHeaders();
  app.addHook('onRequest', (req, reply, done) => {
    // On the raw response, so answers a handler writes itself (the relay's) carry them too.
    const res = reply.raw;
    for (let i = 0; i < headers.length; i++) res.setHeader(headers[i][0], headers[i][1]);
    if (req.method === 'POST' && req.url.startsWith('/trpc/')) {
      const type = req.headers['content-type'] ?? '';
      if (!type.toLowerCase().startsWith('application/json')) {
        // tRPC's error shape, with the code the console translates (trpc.ts errorFormatter's fields).
        const messageCode = 'common.body_not_json';
        reply.status(415).send({
          error: {
            message: serverText(messageCode),
            code: -32600,
            data: { code: 'UNSUPPORTED_MEDIA_TYPE', httpStatus: 415, messageCode, messageParams: {} },
          },
        });
        return;
      }
    }
    done();
  });
}

/**
 * helmet's headers, recorded once from its middleware: without a CSP nonce they are the
 * same for every answer, and replaying them skips helmet's per-request middleware chain
 * (a measurable share of the relay's CPU and allocations under load).
 */
function helmetHeaders(): [string, string | number | readonly string[]][] {
  const out: [string, string | number | readonly string[]][] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      out.push([name, value]);
    },
    // helmet removes X-Powered-By, which Node never sets.
    removeHeader() {},
  };
  helmet({
    contentSecurityPolicy: false,
    // The relay and API are called cross-origin by SDKs; isolation headers would only break embedding.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  })({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return out;
}
