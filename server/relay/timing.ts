import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Server-Timing value: the gateway's own milliseconds, upstream waits excluded (docs/options.md). */
export const serverTiming = (ms: number) => `gateway;dur=${Math.max(0, ms).toFixed(2)}`;

/**
 * Every relay answer carries Server-Timing (options.md): relayed ones set it themselves (the upstream's
 * wait left out); the rest (model lists, task routes, refusals, errors Fastify raises) get it on send.
 * Registered inside the relay plugin, so only relay requests pay for it. Answers when the relay first
 * saw a request (performance.now()).
 */
export function registerServerTiming(app: FastifyInstance): (req: FastifyRequest) => number {
  const started = new WeakMap<FastifyRequest, number>();
  // preParsing: after every onRequest hook, the app's per-IP limit included (its wait is not the relay's).
  app.addHook('preParsing', function relayTimingStart(req, _reply, payload, done) {
    started.set(req, performance.now());
    done(null, payload);
  });
  // A callback hook, not an async one: it runs for every relay answer, and most need nothing.
  app.addHook('onSend', function relayTimingStamp(req, reply, payload, done) {
    const t0 = started.get(req);
    if (t0 !== undefined && !reply.hasHeader('server-timing'))
      reply.header('server-timing', serverTiming(performance.now() - t0));
    done(null, payload);
  });
  return (req) => started.get(req) ?? performance.now();
}
