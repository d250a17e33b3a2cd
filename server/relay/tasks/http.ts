import type { FastifyReply, FastifyRequest } from 'fastify';
import { rememberFailure } from '../accounting.ts';
import { RelayError, relayAnswerFor } from '../errors.ts';
import { setRetryAfter } from '../relay-limits.ts';
import type { RelayPrincipal } from '../principal.ts';
import type { RelayRuntime } from '../runtime.ts';

/** Task protocols carry their own error shapes (Midjourney-proxy `{code, description}`, Suno `{code, message}`). */
export type TaskDialect = 'mj' | 'suno';

function errorBody(dialect: TaskDialect, status: number, message: string, code: string | undefined, id: string) {
  const text = `${message} (request id: ${id})`;
  if (dialect === 'mj') return { code: 4, description: text, type: code ?? 'error', result: null };
  return { code: code ?? 'error', message: text, data: null };
}

/** What a door sends for a failure, in its own shape (the failure is already counted and timed). */
export type DoorErrorAnswer = (req: FastifyRequest, reply: FastifyReply, thrown: unknown) => unknown;

/**
 * Wraps a task or video door's route: every failure (auth, validation, upstream) is remembered for the
 * error log, a 429 carries Retry-After, and the door answers in its own shape with a real HTTP status, on
 * every path, including the `/{mode}/mj/...` prefixes the relay's shared error handler does not cover.
 * `causeOf` unwraps a door's own wrapper error, so the log sees the failure itself.
 */
export function doorRoute(
  answer: DoorErrorAnswer,
  fn: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  causeOf: (thrown: unknown) => unknown = (thrown) => thrown,
) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      return await fn(req, reply);
    } catch (thrown) {
      if (reply.sent) return reply;
      const err = causeOf(thrown);
      rememberFailure(req, err);
      setRetryAfter(reply, err);
      return answer(req, reply, thrown);
    }
  };
}

/**
 * A failure's status, code and words in the caller's language (relayAnswerFor); an unexpected one (not
 * a RelayError) is logged with its stack.
 */
export function failureOf(req: FastifyRequest, err: unknown): { status: number; message: string; code?: string } {
  const a = relayAnswerFor(req, err);
  if (a.status >= 500 && !(err instanceof RelayError)) req.log.error({ err }, 'task request failed');
  return a;
}

/** A Midjourney or Suno route: failures in the protocol's own shape. */
export const taskRoute = (dialect: TaskDialect, fn: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
  doorRoute((req, reply, err) => {
    const a = failureOf(req, err);
    return reply.status(a.status).send(errorBody(dialect, a.status, a.message, a.code, req.id));
  }, fn);

/**
 * Token authentication shared with the rest of the relay; Midjourney clients may
 * send the token as `mj-api-secret` instead of a Bearer header.
 */
export function taskAuth(rt: RelayRuntime, req: FastifyRequest): Promise<RelayPrincipal> {
  const secret = req.headers['mj-api-secret'];
  if (!req.headers.authorization && typeof secret === 'string' && secret !== '')
    req.headers.authorization = `Bearer ${secret}`;
  return rt.tokenAuth.authenticate(req);
}
