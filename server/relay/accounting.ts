import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { logRefusedCall } from './error-log.ts';
import { traceFailure } from '../telemetry/genai.ts';
import { traceOf } from '../telemetry/request-trace.ts';
import { relayAnswerOf, relayError } from './errors.ts';
import type { RelayPrincipal } from './principal.ts';
import type { RelayRuntime } from './runtime.ts';

/*
 * Every failed relay call accounted (issue 41): the relayed routes (routes.ts `handle`) log their own
 * failures; the rest (task routes, model lists, count_tokens, a body refused by a route's own
 * validation) are caught here, once the client has its answer: one error row (when the caller's token
 * is known) unless the route already wrote it. Every failed relay answer is counted here, once, in the
 * requests metric with the status the client actually got (reply.statusCode).
 */

const principals = new WeakMap<FastifyRequest, RelayPrincipal>();
const failures = new WeakMap<FastifyRequest, unknown>();
const accounted = new WeakSet<FastifyRequest>();

/** The caller a request authenticated as (token-auth.ts), for its error row. */
export const rememberPrincipal = (req: FastifyRequest, p: RelayPrincipal) => void principals.set(req, p);

/** The error a request was answered with (the relay's error handler, the task routes' own); its span says so. */
export function rememberFailure(req: FastifyRequest, err: unknown): void {
  failures.set(req, err);
  const t = traceOf(req);
  if (t) traceFailure(t, relayAnswerOf(err).code || String(relayAnswerOf(err).status));
}

/** A call whose route logged its failure itself (runRelay, error-log.ts): no second row. */
export const markAccounted = (req: FastifyRequest) => void accounted.add(req);

const bodyModel = (req: FastifyRequest) => {
  const model = (req.body as { model?: unknown } | undefined)?.model;
  return typeof model === 'string' ? model : '';
};

const counted = new WeakSet<FastifyRequest>();

/**
 * One count of a failed answer in the requests metric, at most once a request. The hook below counts
 * what was sent; a client that went away (499) may never get an answer that finishes, so the relayed
 * routes count that one themselves.
 */
export function countFailure(rt: RelayRuntime, req: FastifyRequest, status: number): void {
  if (counted.has(req)) return;
  counted.add(req);
  rt.deps.metrics.relayRequests.inc({ model: bodyModel(req), channel: '', status: String(status) });
}

/** Registered inside the relay plugin: relay routes only. `startedAt` as timing.ts answers it. */
export function registerFailureAccounting(
  app: FastifyInstance,
  rt: RelayRuntime,
  startedAt: (req: FastifyRequest) => number,
): void {
  // A callback hook after the answer is sent: nothing here delays the client.
  app.addHook('onResponse', function relayFailureAccounting(req, reply, done) {
    const status = reply.statusCode;
    if (status < 400) return done();
    countFailure(rt, req, status);
    const principal = principals.get(req);
    // 499: the client went away and saw no error (error-log.ts writes none for it either).
    if (principal && status !== 499 && !accounted.has(req)) {
      const err = failures.get(req) ?? relayError(status, STATUS_CODES[status] ?? `HTTP ${status}`, 'http_error');
      const startedAtMs = Date.now() - (performance.now() - startedAt(req));
      logRefusedCall(rt, { request: { req, principal }, startedAtMs }, err, status);
    }
    done();
  });
}
