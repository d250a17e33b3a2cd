import { errorTypeOfStatus, mapErrorBody } from '../shared/error-body.ts';
import type { UpstreamError } from '../types.ts';

/*
 * Replicate answers errors as problem+json (RFC 7807): `{title, detail, status}`, a validation
 * failure with `invalid_fields` too. The detail says what to fix ("- input.num_outputs: Must be less
 * than or equal to 4"), so it is the message the client reads.
 */

/** A problem+json body, for failures the adapter reports itself (a failed or timed-out prediction). */
export const problemBody = (status: number, title: string, detail: string) => JSON.stringify({ title, detail, status });

export function mapReplicateError(status: number, text: string): UpstreamError | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const p = parsed as { title?: unknown; detail?: unknown } | null;
  if (typeof p?.title !== 'string' && typeof p?.detail !== 'string') return undefined;
  return mapErrorBody(status, text, () => {
    const title = typeof p.title === 'string' ? p.title : undefined;
    const detail = typeof p.detail === 'string' ? p.detail.trim() : undefined;
    return {
      message: detail && title ? `${title}: ${detail}` : (detail ?? title ?? `upstream status ${status}`),
      type: errorTypeOfStatus(status),
      code: title?.toLowerCase().replace(/[^a-z0-9]+/g, '_'),
    };
  });
}
