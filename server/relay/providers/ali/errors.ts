import { mapErrorBody } from '../shared/error-body.ts';
import type { UpstreamError } from '../types.ts';

/*
 * DashScope answers errors in two dialects: compatible mode in OpenAI's
 * `{error: {message, type, code}}`, the native API (images, tasks, rerank) as
 * `{code, message, request_id}`. Both come with a real HTTP status. A refused key
 * (`InvalidApiKey` / `invalid_api_key`, 401) and an account in arrears (`Arrearage`,
 * 400) take the channel out of service (channel-health.ts reads `code` and `type`).
 */

/** DashScope codes that mean the key cannot work until the operator acts, in OpenAI's terms. */
function deadKeyTerms(code: string | undefined): Pick<UpstreamError, 'type' | 'code'> | undefined {
  const c = (code ?? '').toLowerCase();
  if (c === 'invalidapikey' || c === 'invalid_api_key')
    return { type: 'authentication_error', code: 'invalid_api_key' };
  if (c === 'arrearage') return { type: 'insufficient_quota', code: 'Arrearage' };
  return undefined;
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** Either dialect of a DashScope error answer -> UpstreamError. */
export function mapAliError(status: number, text: string): UpstreamError {
  return mapErrorBody(status, text, (json) => {
    const o = json as { error?: Record<string, unknown>; code?: unknown; message?: unknown } | null;
    if (o?.error && typeof o.error === 'object') {
      const code = o.error.code === undefined || o.error.code === null ? undefined : String(o.error.code);
      const type = str(o.error.type);
      return {
        message: str(o.error.message) ?? JSON.stringify(o.error),
        type,
        code,
        ...(deadKeyTerms(code) ?? deadKeyTerms(type)),
      };
    }
    const code = str(o?.code);
    if (!code && !str(o?.message)) return undefined;
    return { message: str(o?.message) ?? code ?? '', type: code, code, ...deadKeyTerms(code) };
  });
}

/** A native failure of a task (FAILED, or no answer before the deadline) as the native error body. */
export const nativeErrorBody = (code: string, message: string, requestId = '') =>
  JSON.stringify({ code, message, request_id: requestId });

/** The HTTP status a failed image task gets: the prompt's fault is the client's, the rest is DashScope's. */
export function taskFailureStatus(code: string): number {
  if (/^(DataInspectionFailed|InvalidParameter|IPInfringementSuspect)/i.test(code)) return 400;
  if (/^(Throttling|RateQuota)/i.test(code)) return 429;
  return 500;
}
