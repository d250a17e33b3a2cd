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

/** A 200 whose JSON cannot be parsed: an upstream failure (retryable), never an answer to pay for. */
export const unparsableUpstreamJson = () =>
  new RelayError(
    502,
    'The upstream answered with JSON that cannot be parsed',
    'bad_upstream_response',
    true,
    '上游返回了无法解析的 JSON',
  );
