import {
  type MessageParams,
  messageOfText,
  type ServerMessage,
  type ServerMessageCode,
  serverText,
} from '../shared/server-messages.ts';

/**
 * The one error type services throw. Each surface translates it exactly once:
 * the REST envelope (compat/envelope.ts), tRPC's errorFormatter (trpc/trpc.ts)
 * and the relay's provider-shaped errors (relay/errors.ts).
 */
export const errorCodes = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  NOT_IMPLEMENTED: 501,
  /** Another server we called (an upstream, a release feed) failed or could not be reached. */
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof errorCodes;

export interface AppErrorOptions {
  /** Machine-readable detail for API clients (e.g. OpenAI error code `insufficient_user_quota`). */
  detail?: string;
  /**
   * The REST adapter answers with the real HTTP status even where new-api's rule is HTTP 200
   * (compat/envelope.ts): the few refusals the API contract gives a status of their own.
   */
  realStatus?: boolean;
  /**
   * Technical text for people who want it (a network error's own words, a framework code, a hint for the
   * operator), untranslated. Sent as `detail`: tRPC `error.data.detail`, the REST envelope's top-level
   * `detail`; the console shows it under a "details" disclosure, never as the message.
   */
  technical?: string;
  /** A code new-api's REST answer carries beside the message (`code: "VERIFICATION_REQUIRED"`). */
  restCode?: string;
  /**
   * A refusal that ends at a known time (a sign-in lock): sent as the `Retry-After` header, and the REST
   * answer of its 429 keeps its `{success:false,message}` body (compat/envelope.ts) so the caller reads when.
   */
  retryAfterSeconds?: number;
}

/**
 * A refusal: its kind (`code`, the HTTP status), and what it says as a stable message code with
 * parameters (shared/server-messages.ts). `message` is the code's Chinese text, which REST answers
 * with; the console translates `messageCode` instead.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly messageCode: ServerMessageCode;
  readonly params: MessageParams;
  readonly detail?: string;
  readonly realStatus: boolean;
  readonly technical?: string;
  readonly restCode?: string;
  readonly retryAfterSeconds?: number;

  constructor(code: ErrorCode, messageCode: ServerMessageCode, params: MessageParams = {}, opts: AppErrorOptions = {}) {
    super(serverText(messageCode, params));
    this.name = 'AppError';
    this.code = code;
    this.messageCode = messageCode;
    this.params = params;
    this.detail = opts.detail;
    this.realStatus = opts.realStatus === true;
    this.technical = opts.technical;
    this.restCode = opts.restCode;
    this.retryAfterSeconds = opts.retryAfterSeconds;
  }

  get status(): number {
    return errorCodes[this.code];
  }

  /** The message as the console receives it. */
  get serverMessage(): ServerMessage {
    return { code: this.messageCode, params: this.params };
  }
}

type Maker = (messageCode: ServerMessageCode, params?: MessageParams, opts?: AppErrorOptions) => AppError;
const maker =
  (code: ErrorCode): Maker =>
  (messageCode, params, opts) =>
    new AppError(code, messageCode, params, opts);

export const badRequest = maker('BAD_REQUEST');
export const notFound = maker('NOT_FOUND');
export const conflict = maker('CONFLICT');
export const unauthorized = (messageCode: ServerMessageCode = 'common.not_logged_in', params?: MessageParams) =>
  new AppError('UNAUTHORIZED', messageCode, params);
export const forbidden = (messageCode: ServerMessageCode = 'common.forbidden', params?: MessageParams) =>
  new AppError('FORBIDDEN', messageCode, params);
export const tooManyRequests = (messageCode: ServerMessageCode = 'common.too_many_requests', params?: MessageParams) =>
  new AppError('TOO_MANY_REQUESTS', messageCode, params);

/**
 * A refusal whose words were built as text (a zod issue, a rule returning a message): its own code
 * when the text is one of the registry's, otherwise the text passed on as `common.text`.
 */
export function appErrorOfText(code: ErrorCode, text: string, opts?: AppErrorOptions): AppError {
  const m = messageOfText(text);
  return new AppError(code, m.code, m.params, opts);
}

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;
