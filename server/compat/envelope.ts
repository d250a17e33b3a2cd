import type { FastifyBaseLogger, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { type MessageParams, type ServerMessageCode, serverText } from '../../shared/server-messages.ts';
import { callerLanguage, refusalTextIn } from '../caller-language.ts';
import { isAppError } from '../errors.ts';
import { isDecodeFailure } from './go-decode.ts';

export interface ErrorAnswer {
  status: number;
  message: string;
  /** Machine-readable code for the relay's provider-shaped errors. */
  code?: string;
  /** Technical detail (AppError `technical`, a framework code), sent to the console as `detail`. */
  technical?: string;
}

/**
 * Classifies any thrown value once, for every surface: our AppError, zod input
 * errors, Fastify's own 4xx (bad JSON, body too large, bad content type), and
 * everything else as a hidden 500. With the request, a body too large names the limit it passed.
 */
export function classifyError(err: unknown, req?: FastifyRequest): ErrorAnswer {
  if (isAppError(err)) return { status: err.status, message: err.message, code: err.detail, technical: err.technical };
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
  if (typeof fe?.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500)
    return frameworkRefusal(fe, fe.statusCode, req);
  return { status: 500, message: serverText('common.internal'), code: 'internal_error' };
}

/**
 * Fastify's FST_* codes say what went wrong to a programmer; these say it to a person: the message,
 * the code the relay's error shape carries, and the status when Fastify's own is not the one we answer.
 */
const frameworkMessages: Record<
  string,
  {
    message: ServerMessageCode;
    code: string;
    status?: number;
    /** A wording with what only the request knows, when it is at hand. */
    withRequest?: (req: FastifyRequest) => { message: ServerMessageCode; params: MessageParams };
  }
> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { message: 'common.invalid_json', code: 'invalid_json', status: 400 },
  FST_ERR_CTP_EMPTY_JSON_BODY: { message: 'common.invalid_json', code: 'invalid_json', status: 400 },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    message: 'common.body_too_large',
    code: 'body_too_large',
    status: 413,
    withRequest: (req) => ({ message: 'common.body_over_limit', params: { limit: byteSize(bodyLimitOf(req)) } }),
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { message: 'common.body_not_json', code: 'invalid_content_type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { message: 'common.bad_content_length', code: 'invalid_content_length' },
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A multipart parser's own body limit on an upload route (its bodyLimit option), for the 413 to name. */
    multipartBodyLimit?: number;
  }
}

/**
 * The body limit a request was held to: an upload route's multipart limit for a multipart body, else the
 * route's (BODY_LIMIT unless the route sets its own).
 */
export function bodyLimitOf(req: FastifyRequest): number {
  const multipart = req.routeOptions.config?.multipartBodyLimit;
  if (multipart && String(req.headers['content-type'] ?? '').startsWith('multipart/form-data')) return multipart;
  return req.routeOptions.bodyLimit;
}

/** Bytes as a person reads a limit: "32 MB" from 1 MiB up (binary megabytes, as BODY_LIMIT counts), else "64 KB". */
export function byteSize(bytes: number): string {
  const mb = bytes / 2 ** 20;
  if (mb >= 1) return `${Number(mb.toFixed(1))} MB`;
  return `${Number((bytes / 1024).toFixed(1))} KB`;
}

/**
 * A 4xx Fastify (or Node) raised before any handler ran: worded by its code, which itself goes to
 * `technical` only; a code not listed gets the catch-all sentence with the status.
 */
function frameworkRefusal(fe: FastifyError, status: number, req?: FastifyRequest): ErrorAnswer {
  const technical = fe.code ? `${fe.code}: ${fe.message}` : fe.message;
  const known = fe.code ? frameworkMessages[fe.code] : undefined;
  if (known) {
    const said = req && known.withRequest ? known.withRequest(req) : { message: known.message, params: {} };
    return {
      status: known.status ?? status,
      message: serverText(said.message, said.params),
      code: known.code,
      technical,
    };
  }
  if (fe instanceof SyntaxError)
    return { status: 400, message: serverText('common.invalid_json'), code: 'invalid_json', technical };
  return { status, message: serverText('common.bad_request', { status }), code: 'invalid_request', technical };
}

/**
 * new-api answers most failures with HTTP 200 and `success:false` (api-contract §0.1): its console
 * reads only `success`/`message`, and axios-based clients lose the message of any non-2xx answer.
 * That covers every refusal a service words on purpose, 5xx ones included (a mail that could not
 * be sent, an upstream that did not answer): new-api's handlers put `err.Error()` in a 200.
 * These keep their status: 401 (not logged in; a console then goes to its login page), 429 (with
 * an empty body, as new-api's limiter sends it, or the envelope and `Retry-After` for a sign-in lock), 413 (the body never reached a handler), the hidden
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

/**
 * A 5xx in the server log. A refusal we worded (an upstream that cannot be reached, a mail that could
 * not go) is expected, not a bug: one line with its code and technical detail, no stack. Anything
 * else is a bug: the error with its stack.
 */
export function logServerFailure(log: FastifyBaseLogger, err: unknown, fields: Record<string, unknown> = {}) {
  if (isAppError(err)) log.warn({ ...fields, messageCode: err.messageCode, detail: err.technical }, 'request failed');
  else log.error({ ...fields, err }, 'request failed');
}

/**
 * The REST adapter's error translator: `{success:false, message}`, HTTP 200 unless kept above. The
 * message is new-api's Chinese, or English when the request's Accept-Language prefers it (issue 45).
 */
export function sendEnvelopeError(req: FastifyRequest, reply: FastifyReply, err: unknown) {
  const classified = classifyError(err, req);
  const lang = callerLanguage(req.headers['accept-language']);
  const answer =
    lang === 'zh'
      ? classified
      : { ...classified, message: refusalTextIn(lang, err, classified.message) ?? classified.message };
  if (answer.status >= 500) logServerFailure(req.log, err);
  // A limiter's 429 has an empty body, as new-api's; a refusal that knows when it ends (a sign-in lock)
  // says so in the envelope and in `Retry-After`, so scripts and consoles can tell the user when to retry.
  if (answer.status === 429) {
    const retryAfter = isAppError(err) ? err.retryAfterSeconds : undefined;
    if (retryAfter === undefined) return reply.status(429).send();
    return reply
      .status(429)
      .header('retry-after', String(retryAfter))
      .send({ success: false, message: answer.message });
  }
  const status = keepsStatus(req, err, answer) ? answer.status : 200;
  // `detail`: technical text for the console's "details" disclosure (see ErrorAnswer.technical); only when there is one.
  const body = {
    success: false,
    message: answer.message,
    ...(answer.technical ? { detail: answer.technical } : {}),
    ...(isAppError(err) && err.restCode ? { code: err.restCode } : {}),
  };
  return reply.status(status).send(body);
}
