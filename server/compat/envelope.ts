import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { isAppError } from '../errors.ts';

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
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return { status: 400, message: `${where}${issue?.message ?? '参数错误'}`, code: 'invalid_request' };
  }
  const fe = err as FastifyError;
  if (typeof fe?.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    if (
      fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      fe instanceof SyntaxError
    )
      return { status: 400, message: '无效的参数：请求体不是合法的 JSON', code: 'invalid_json' };
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, message: '请求体过大', code: 'body_too_large' };
    return { status: fe.statusCode, message: fe.message, code: fe.code };
  }
  return { status: 500, message: '服务器内部错误，请联系管理员', code: 'internal_error' };
}

/** The REST adapter's error translator: `{success:false, message}` with the HTTP status. */
export function sendEnvelopeError(req: FastifyRequest, reply: FastifyReply, err: unknown) {
  const answer = classifyError(err);
  if (answer.status >= 500) req.log.error({ err }, 'request failed');
  return reply.status(answer.status).send({ success: false, message: answer.message });
}
