import { RelayError } from '../../errors.ts';
import type { UpstreamError } from '../types.ts';

/**
 * An upstream error answer as an UpstreamError: `read` finds the provider's own error
 * object in the parsed JSON; a body it does not recognise, or one that is not JSON at
 * all (a proxy's HTML page), is passed on as its first 500 characters.
 */
export function mapErrorBody(
  status: number,
  text: string,
  read: (json: unknown) => Omit<UpstreamError, 'status'> | undefined,
): UpstreamError {
  try {
    const found = read(JSON.parse(text));
    if (found) return { status, ...found };
  } catch {
    // Not JSON: the raw text below.
  }
  return { status, message: text.slice(0, 500) || `upstream status ${status}` };
}

/**
 * The OpenAI error type of a provider error once its code is given an HTTP status: 401/403 a dead key
 * (authentication), 402 an account out of credit, 429 a limit, other 4xx the request's fault. The
 * relay's auto-disable reads these types (channel-health.ts).
 */
export function errorTypeOfStatus(status: number): string {
  if (status === 401 || status === 403) return 'authentication_error';
  if (status === 402) return 'insufficient_quota';
  if (status === 429) return 'rate_limit_error';
  return status >= 400 && status < 500 ? 'invalid_request_error' : 'api_error';
}

/** A 200 whose JSON cannot be parsed: an upstream failure (retryable), never an answer to pay for. */
export const unparsableUpstreamJson = () =>
  new RelayError(
    502,
    'The upstream answered with JSON that cannot be parsed',
    'bad_upstream_response',
    true,
    '上游返回了无法解析的 JSON',
  );
