import type { FastifyReply, FastifyRequest } from 'fastify';
import { currencyOfOptions } from '../../shared/currency.ts';
import type { OptionReader } from '../../shared/options.ts';
import { quotaText } from '../../shared/quota-format.ts';
import {
  type MessageLanguage,
  type MessageParams,
  type ServerMessageCode,
  serverText,
  serverTextIn,
} from '../../shared/server-messages.ts';
import { callerLanguage, refusalTextIn } from '../caller-language.ts';
import { classifyError, type ErrorAnswer } from '../compat/envelope.ts';
import { type AppError, isAppError } from '../errors.ts';

const relayPrefixes = ['/v1', '/v1beta', '/pg/', '/mj/', '/suno/', '/kling/', '/jimeng', '/dashboard/billing'];

export const isRelayPath = (url: string) =>
  relayPrefixes.some((p) => url === p || url.startsWith(p.endsWith('/') ? p : `${p}/`) || url.startsWith(`${p}?`));

/**
 * An error the relay answers with as is: its own status (any, e.g. an upstream
 * 502), message and OpenAI `code`. `fromUpstream` marks errors that came from a
 * provider, the only kind a retry may help.
 */
export class RelayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly fromUpstream = false,
    /** The Chinese wording when `message` is English (refusal()); absent, `message` is the only one. */
    readonly zh?: string,
  ) {
    super(message);
    this.name = 'RelayError';
  }
}

export const relayError = (status: number, message: string, code?: string) => new RelayError(status, message, code);

/**
 * A refusal worded for API callers in both languages: Chinese by default, English when the caller's
 * Accept-Language prefers it (sendRelayError picks, server/caller-language.ts). Conversion refusals use
 * it: they say why a request cannot be carried to the chosen upstream, and agent users read them in a
 * terminal. `code` is the stable code a program reads (OpenAI's `error.code`), the same in both languages.
 */
export const refusal = (status: number, en: string, zh: string, code = 'invalid_request') =>
  new RelayError(status, en, code, false, zh);

/**
 * A refusal worded by a server-message code (shared/server-messages/relay.ts and its English twin):
 * both languages from the one table of each, the stable `code` beside them. `fromUpstream` marks an
 * upstream's failure, which a retry on another channel may help.
 */
export const relayRefusal = (
  status: number,
  messageCode: ServerMessageCode,
  code: string,
  params: MessageParams = {},
  fromUpstream = false,
) =>
  new RelayError(
    status,
    serverTextIn('en', messageCode, params),
    code,
    fromUpstream,
    serverTextIn('zh', messageCode, params),
  );

/** Whether the caller reads Chinese: the default, unless its Accept-Language prefers English (q-values honoured). */
export const prefersChinese = (acceptLanguage: string | undefined): boolean => callerLanguage(acceptLanguage) === 'zh';

/** Which error shape the caller speaks, from the front door it used. */
export type ErrorDialect = 'openai' | 'anthropic' | 'gemini';

export function dialectOf(req: FastifyRequest): ErrorDialect {
  const url = req.url;
  if (url.startsWith('/v1/messages')) return 'anthropic';
  if (url.startsWith('/v1beta')) return 'gemini';
  // The model list is one path for every SDK: there the headers tell who is asking.
  if (url.startsWith('/v1/models')) return modelsDialect(req);
  return 'openai';
}

/** Which dialect a `GET /v1/models` caller speaks (relay.md §1). */
export function modelsDialect(req: FastifyRequest): ErrorDialect {
  const h = req.headers;
  // Anthropic's clients always send anthropic-version (newer SDKs authenticate with Bearer, older with x-api-key).
  if (h['anthropic-version']) return 'anthropic';
  if (typeof h['x-goog-api-key'] === 'string' || (req.query as { key?: unknown } | undefined)?.key) return 'gemini';
  return 'openai';
}

const openaiType = (status: number) =>
  status === 401
    ? 'authentication_error'
    : status === 429
      ? 'rate_limit_error'
      : status >= 500
        ? 'server_error'
        : 'invalid_request_error';

const anthropicType = (status: number) =>
  ({
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    529: 'overloaded_error',
  })[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');

const GOOGLE_ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';

const geminiStatus = (status: number) =>
  ({
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    403: 'PERMISSION_DENIED',
    404: 'NOT_FOUND',
    429: 'RESOURCE_EXHAUSTED',
    501: 'UNIMPLEMENTED',
    503: 'UNAVAILABLE',
  })[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');

/**
 * Body of an error in the front door's own shape; the request id is appended so operators can find the
 * log. The stable code (the same whatever language the message is in) goes where each protocol has room:
 * OpenAI's `error.code`, beside Anthropic's `error.type` (which stays one of Anthropic's own), and in
 * Google's `details` as an ErrorInfo `reason`, as Google's own APIs carry theirs.
 */
export function relayErrorBody(dialect: ErrorDialect, answer: ErrorAnswer, requestId: string) {
  const message = `${answer.message} (request id: ${requestId})`;
  switch (dialect) {
    case 'anthropic':
      return {
        type: 'error',
        error: { type: anthropicType(answer.status), message, ...(answer.code ? { code: answer.code } : {}) },
      };
    case 'gemini':
      return {
        error: {
          code: answer.status,
          message,
          status: geminiStatus(answer.status),
          ...(answer.code
            ? { details: [{ '@type': GOOGLE_ERROR_INFO, reason: answer.code, domain: 'switchyard' }] }
            : {}),
        },
      };
    default:
      return { error: { message, type: openaiType(answer.status), param: null, code: answer.code ?? null } };
  }
}

/**
 * The English wording of a refusal worded in Chinese outside the relay (an AppError of the billing or
 * auth step, a body error, a schema message), when there is one: the registry's English twin.
 */
function englishOf(err: unknown, zh: string): string | undefined {
  return refusalTextIn('en', err, zh);
}

/**
 * A body its front door's schema refused, in both languages: the schema's message (new-api's Chinese
 * wording, or zod's own English, which stays as it is) or, without one, the registry's "invalid parameters".
 */
export function schemaRefusal(message: string | undefined, code: string): RelayError {
  const zh = message ?? serverText('common.bad_params');
  return refusal(400, englishOf(undefined, zh) ?? zh, zh, code);
}

/** An AppError met inside the relay (a reservation refused) as a RelayError with both wordings. */
export function relayErrorOfApp(err: AppError, status: number, code: string): RelayError {
  const en = englishOf(err, err.message);
  return en === undefined ? new RelayError(status, err.message, code) : refusal(status, en, err.message, code);
}

/**
 * A reservation larger than the remaining balance (billing's requestExceedsQuota) as the caller reads
 * it: a 403 `insufficient_quota_for_request` saying how much the request needs and how much is left,
 * in the site's display unit (its currency, shared/currency.ts, else quota points). Other errors: undefined.
 */
export function quotaShortfall(err: unknown, opt: OptionReader, boundByMaxTokens = true): RelayError | undefined {
  if (!isAppError(err) || err.detail !== 'insufficient_quota_for_request') return undefined;
  const perUnit = opt('QuotaPerUnit');
  const currency = currencyOfOptions(opt);
  const amount = (quota: number, lang: MessageLanguage) =>
    currency.inCurrency && perUnit > 0
      ? quotaText(quota, perUnit, currency)
      : serverTextIn(lang, 'quota.points', { amount: quota });
  const need = Number(err.params.need);
  const remain = Number(err.params.remain);
  const byToken = err.messageCode === 'billing.request_exceeds_token_quota';
  // A fixed price (pictures, video and music tasks) is what it is: lowering max_tokens changes nothing.
  const code: ServerMessageCode = boundByMaxTokens
    ? err.messageCode
    : byToken
      ? 'relay.cost_exceeds_token_quota'
      : 'relay.cost_exceeds_user_quota';
  const said = (lang: MessageLanguage) =>
    serverTextIn(lang, code, { need: amount(need, lang), remain: amount(remain, lang) });
  return new RelayError(403, said('en'), 'insufficient_quota_for_request', false, said('zh'));
}

/**
 * The status, message and code a relay failure is answered with, before the caller's language is
 * chosen (sendRelayError's rule): what the error log records of a call that failed (error-log.ts).
 */
export function relayAnswerOf(err: unknown): ErrorAnswer {
  if (err instanceof RelayError) return { status: err.status, message: err.message, code: err.code };
  return isAnswer(err) ? err : classifyError(err);
}

/**
 * A relay failure as this caller is answered: its status, its stable code, and its words in the
 * caller's language (Chinese unless Accept-Language prefers English). Every door's error shape is
 * built from it (sendRelayError, the task doors' tasks/http.ts, Jimeng's).
 */
export function relayAnswerFor(req: FastifyRequest, err: unknown): ErrorAnswer {
  const lang = callerLanguage(req.headers['accept-language']);
  if (err instanceof RelayError) return { status: err.status, message: localized(err, lang), code: err.code };
  if (isAnswer(err)) return err;
  return withStableCode(err, inCallersLanguage(lang, err, classifyError(err, req)));
}

/** The relay's one error translator (the last-resort handler hides 5xx details via classifyError). */
export function sendRelayError(req: FastifyRequest, reply: FastifyReply, err: unknown) {
  const answer = relayAnswerFor(req, err);
  if (answer.status >= 500 && !isAnswer(err) && !(err instanceof RelayError))
    req.log.error({ err }, 'relay request failed');
  return reply.status(answer.status).send(relayErrorBody(dialectOf(req), answer, req.id));
}

function inCallersLanguage(lang: MessageLanguage, err: unknown, answer: ErrorAnswer): ErrorAnswer {
  if (lang === 'zh') return answer;
  const en = englishOf(err, answer.message);
  return en === undefined ? answer : { ...answer, message: en };
}

/**
 * Every answer carries a stable code a program can read whatever the language: an AppError without
 * an OpenAI code of its own (`detail`) gets its message code (`common.forbidden`, `billing.price_unset`).
 */
const withStableCode = (err: unknown, answer: ErrorAnswer): ErrorAnswer =>
  answer.code === undefined && isAppError(err) ? { ...answer, code: err.messageCode } : answer;

const localized = (err: RelayError, lang: MessageLanguage) =>
  err.zh !== undefined && lang === 'zh' ? err.zh : err.message;

const isAnswer = (v: unknown): v is ErrorAnswer =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as ErrorAnswer).status === 'number' &&
  typeof (v as ErrorAnswer).message === 'string' &&
  !(v instanceof Error);
