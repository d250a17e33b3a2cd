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
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof errorCodes;

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Optional machine-readable detail for clients (e.g. OpenAI error code `insufficient_user_quota`). */
  readonly detail?: string;

  /**
   * The REST adapter answers with the real HTTP status even where new-api's rule is HTTP 200
   * (compat/envelope.ts): the few refusals the API contract gives a status of their own.
   */
  readonly realStatus: boolean;

  constructor(code: ErrorCode, message: string, detail?: string, opts: { realStatus?: boolean } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.detail = detail;
    this.realStatus = opts.realStatus === true;
  }

  get status(): number {
    return errorCodes[this.code];
  }
}

export const badRequest = (message: string, detail?: string) => new AppError('BAD_REQUEST', message, detail);
export const unauthorized = (message = '未登录或登录已过期，请重新登录') => new AppError('UNAUTHORIZED', message);
export const forbidden = (message = '无权进行此操作，权限不足') => new AppError('FORBIDDEN', message);
export const notFound = (message: string) => new AppError('NOT_FOUND', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const tooManyRequests = (message = '请求过于频繁，请稍后再试') => new AppError('TOO_MANY_REQUESTS', message);

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;
