import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { serverText } from '../../shared/server-messages.ts';
import { isAppError } from '../errors.ts';
import { isDecodeFailure } from './go-decode.ts';

export interface ErrorAnswer {
  status: number;
  message: string;
  /** Machine-readable code for the relay's provider-shaped errors. */
  code?: string;
}

/**
 * Classifies any thrown value once, for every surface: our AppError, zod input
 * errors, Fastify's own 4xx (bad JSON, body too large, bad content type), and
 * everything else as a hidden 500.
 */
export function classifyError(err: unknown): ErrorAnswer {
  if (isAppError(err)) return { status: err.status, message: err.message, code: err.detail };
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    // Our schemas' messages are the spec's own words and name their field ("令牌名称过长"); zod's
    // built-in English ones ("Invalid input: expected string") do not, so they get the field's path.
    const ours = /[\u4e00-\u9fff]/.test(issue?.message ?? '');
    const where = issue && issue.path.length > 0 && !ours ? `${issue.path.join('.')}: ` : '';
    return {
      status: 400,
      message: `${where}${issue?.message ?? serverText('common.bad_params')}`,
      code: 'invalid_request',
    };
  }
  const fe = err as FastifyError;
  if (typeof fe?.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    if (
      fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      fe instanceof SyntaxError
    )
      return { status: 400, message: serverText('common.invalid_json'), code: 'invalid_json' };
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return { status: 413, message: serverText('common.body_too_large'), code: 'body_too_large' };
    return { status: fe.statusCode, message: fe.message, code: fe.code };
  }
  return { status: 500, message: serverText('common.internal'), code: 'internal_error' };
}

/**
 * new-api answers most failures with HTTP 200 and `success:false` (api-contract §0.1): its console
 * reads only `success`/`message`, and axios-based clients lose the message of any non-2xx answer.
 * That covers every refusal a service words on purpose, 5xx ones included (a mail that could not
 * be sent, an upstream that did not answer): new-api's handlers put `err.Error()` in a 200.
 * These keep their status: 401 (not logged in; a console then goes to its login page), 429 (with
 * an empty body, as new-api's limiter sends it), 413 (the body never reached a handler), the hidden
 * 500 of an unexpected error, an AppError marked `realStatus`, and on routes declared `realStatus`
 * (setup, fetch_models) the route's own failures; on a route declared `realStatus: 'decode'`
 * (option update) only a body that does not decode (HTTP 400). A role or ban refusal of the auth
 * step before them answers 200 there too.
 */
const KEEPS_STATUS = new Set([401, 413, 429]);

/** Refusals of restRoute's auth step (role, ban, access token), told apart from the route's own failures. */
const authRefusals = new WeakSet<object>();
export function markAuthRefusal(err: unknown): unknown {
  if (typeof err === 'object' && err !== null) authRefusals.add(err);
  return err;
}

function keepsStatus(req: FastifyRequest, err: unknown, answer: ErrorAnswer): boolean {
  if (KEEPS_STATUS.has(answer.status) || (isAppError(err) && err.realStatus)) return true;
  if (answer.status >= 500 && !isAppError(err)) return true;
  const mode = req.routeOptions.config?.realStatus;
  if (mode === 'decode') return answer.code === 'invalid_json' || isDecodeFailure(err);
  const isObject = typeof err === 'object' && err !== null;
  return mode === true && !(isObject && authRefusals.has(err));
}

/** The REST adapter's error translator: `{success:false, message}`, HTTP 200 unless kept above. */
export function sendEnvelopeError(req: FastifyRequest, reply: FastifyReply, err: unknown) {
  const answer = classifyError(err);
  if (answer.status >= 500) req.log.error({ err }, 'request failed');
  if (answer.status === 429) return reply.status(429).send();
  const status = keepsStatus(req, err, answer) ? answer.status : 200;
  return reply.status(status).send({ success: false, message: answer.message });
}
