import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../context.ts';
import { pingDatabase } from '../db/ping.ts';

/**
 * Liveness (/healthz: the process answers), readiness (/readyz: the database
 * answers and we are not shutting down) and Prometheus metrics (/metrics: with
 * METRICS_TOKEN as a bearer token, or from loopback when no token is set).
 */
export function registerOpsRoutes(app: FastifyInstance, deps: AppDeps) {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_req, reply) => {
    if (closing) return reply.status(503).send({ status: 'shutting down' });
    try {
      await pingDatabase(deps.db);
      return { status: 'ready', database: deps.dbType };
    } catch {
      return reply.status(503).send({ status: 'database unavailable' });
    }
  });

  app.get('/metrics', async (req, reply) => {
    const token = deps.config.metricsToken;
    const allowed = token
      ? req.headers.authorization === `Bearer ${token}`
      : ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(req.socket.remoteAddress ?? '');
    if (!allowed) return reply.status(403).send({ success: false, message: 'metrics are not public' });
    return reply.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
}
