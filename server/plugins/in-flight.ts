import type { FastifyInstance, RouteHandlerMethod } from 'fastify';

export interface InFlightHandlers {
  /** Resolves when every running route handler has returned, or after `capMs`; true when all did. */
  settled(capMs: number): Promise<boolean>;
}

/**
 * Keeps the promises of running route handlers. Fastify's close waits for the
 * connections, not for the handlers: a stream cut at the shutdown deadline closes
 * its socket while the relay handler is still about to bill what was produced, and
 * the database must not close under it. Call before any route is registered.
 */
export function trackInFlightHandlers(app: FastifyInstance): InFlightHandlers {
  const running = new Set<Promise<unknown>>();
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, req, reply) {
      const result: unknown = handler.call(this, req, reply);
      if (result instanceof Promise) {
        running.add(result);
        const done = () => running.delete(result);
        result.then(done, done);
      }
      return result;
    } as RouteHandlerMethod;
  });
  return {
    async settled(capMs) {
      let timer: NodeJS.Timeout | undefined;
      const cap = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), capMs)));
      const all = Promise.allSettled([...running]).then(() => true);
      const ok = await Promise.race([all, cap]);
      clearTimeout(timer);
      return ok;
    },
  };
}
