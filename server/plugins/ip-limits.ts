import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../context.ts';
import { tooManyRequests } from '../errors.ts';
import { isRelayPath } from '../relay/errors.ts';

/**
 * Global per-IP request limits (relay.md §6): one for the console and REST API,
 * one for the relay. Counted in the shared rate-limit store, so several instances
 * behind one address share them. 0 turns a limit off. Login, registration and
 * mail have their own stricter limits in their services.
 */
export function registerIpLimits(app: FastifyInstance, deps: AppDeps): void {
  const { api, relay } = deps.config.ipRateLimits;
  if (api.count <= 0 && relay.count <= 0) return;
  app.addHook('onRequest', async (req) => {
    const path = req.url;
    const onRelay = isRelayPath(path);
    const limit = onRelay ? relay : path.startsWith('/api/') || path.startsWith('/trpc/') ? api : undefined;
    if (!limit || limit.count <= 0) return;
    const decision = await deps.rateLimits.take(
      `ip:${onRelay ? 'relay' : 'api'}:${req.ip}`,
      limit.count,
      limit.windowSeconds * 1000,
    );
    if (!decision.allowed) throw tooManyRequests('common.too_many_requests_ip');
  });
}
