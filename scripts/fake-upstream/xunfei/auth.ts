import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/*
 * Spark's URL authentication as its gateway checks it (xfyun "通用URL鉴权"), recomputed here from
 * the test's APISecret: `authorization` (base64 of `api_key="…", algorithm="hmac-sha256",
 * headers="host date request-line", signature="…"`), `date` and `host` in the query; the
 * signature is HMAC-SHA256 over `host: <Host>\ndate: <date>\nGET <path> HTTP/1.1`. The refusals
 * are the gateway's handshake answers: 401 for missing, unreadable or wrong credentials, 403 for a
 * date more than five minutes off.
 */

export interface SparkAuthRefusal {
  status: 401 | 403;
  message: string;
}

const SKEW_MS = 300_000;

/** `k="v", k2="v2"` (and Kong's older `hmac username="…"` spelling of the key) as a map. */
function fieldsOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.replace(/^hmac\s+/i, '').matchAll(/([a-z_]+)="([^"]*)"/gi)) out[m[1].toLowerCase()] = m[2];
  if (out.username && !out.api_key) out.api_key = out.username;
  return out;
}

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Undefined when the handshake carries a valid signature of `apiKey` / `apiSecret`. */
export function checkSparkAuth(req: IncomingMessage, apiKey: string, apiSecret: string): SparkAuthRefusal | undefined {
  const url = new URL(req.url ?? '/', 'ws://fake');
  const authorization = url.searchParams.get('authorization');
  const date = url.searchParams.get('date');
  if (!authorization || !date || !url.searchParams.get('host')) return { status: 401, message: 'Unauthorized' };
  const f = fieldsOf(Buffer.from(authorization, 'base64').toString('utf8'));
  if (!f.api_key || !f.signature || f.algorithm !== 'hmac-sha256' || f.headers !== 'host date request-line')
    return { status: 401, message: 'HMAC signature cannot be verified' };
  const at = Date.parse(date);
  if (!Number.isFinite(at) || Math.abs(Date.now() - at) > SKEW_MS)
    return {
      status: 403,
      message: 'HMAC signature cannot be verified, a valid date or x-date header is required for HMAC Authentication',
    };
  const signed = `host: ${req.headers.host ?? ''}\ndate: ${date}\nGET ${url.pathname} HTTP/1.1`;
  const expected = createHmac('sha256', apiSecret).update(signed).digest('base64');
  if (f.api_key !== apiKey || !sameText(f.signature, expected))
    return { status: 401, message: 'HMAC signature does not match' };
  return undefined;
}
