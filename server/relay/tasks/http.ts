import type { FastifyReply, FastifyRequest } from 'fastify';
import { classifyError } from '../../compat/envelope.ts';
import { rememberFailure } from '../accounting.ts';
import { RelayError } from '../errors.ts';
import type { RelayPrincipal } from '../principal.ts';
import type { RelayRuntime } from '../runtime.ts';

/** Task protocols carry their own error shapes (Midjourney-proxy `{code, description}`, Suno `{code, message}`). */
export type TaskDialect = 'mj' | 'suno';

function errorBody(dialect: TaskDialect, status: number, message: string, code: string | undefined, id: string) {
  const text = `${message} (request id: ${id})`;
  if (dialect === 'mj') return { code: 4, description: text, type: code ?? 'error', result: null };
  return { code: code ?? 'error', message: text, data: null };
}

/**
 * Wraps a task route: every failure (auth, validation, upstream) is answered in
 * the protocol's own shape with a real HTTP status, on every path including the
 * `/{mode}/mj/...` prefixes that the relay's shared error handler does not cover.
 */
export function taskRoute(dialect: TaskDialect, fn: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      return await fn(req, reply);
    } catch (err) {
      if (reply.sent) return reply;
      rememberFailure(req, err);
      const a =
        err instanceof RelayError ? { status: err.status, message: err.message, code: err.code } : classifyError(err);
      if (a.status >= 500 && !(err instanceof RelayError)) req.log.error({ err }, 'task request failed');
      return reply.status(a.status).send(errorBody(dialect, a.status, a.message, a.code, req.id));
    }
  };
}

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
