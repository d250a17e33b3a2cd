import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/*
 * Volcengine's OpenAPI signature (V4, "HMAC-SHA256"), checked the way visual.volcengineapi.com checks
 * it. Written from Volcengine's signing documentation, apart from the adapter's signer
 * (providers/jimeng/sign.ts), so a bug on either side shows: the canonical request over the method,
 * the path, the query sorted by name and RFC 3986-escaped, the signed headers (lower-case, trimmed;
 * host, x-date and x-content-sha256 required), the body's SHA-256; the scope date/region/service/request;
 * the key derived from SecretKey by date, region, service and "request" (no prefix, unlike AWS).
 * Failures are Volcengine's common errors: name, CodeN and HTTP status.
 */

/** The one AccessKey the fake knows, and its SecretKey (tests sign with these, or fail). */
export const FAKE_VOLC_ACCESS_KEY = 'AKLTfakeSwitchyardJimeng0001';
export const FAKE_VOLC_SECRET_KEY = 'ZmFrZS12b2xjZW5naW5lLXNlY3JldC1rZXk=';

/** How far X-Date may be from the server's clock (Volcengine: 15 minutes). */
export const X_DATE_WINDOW_S = 900;

export interface VolcAuthFailure {
  status: number;
  code: string;
  codeN: number;
  message: string;
}

const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();

// RFC 3986: everything but unreserved characters is escaped (encodeURIComponent leaves !'()* alone).
const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const fail = (status: number, code: string, codeN: number, message: string): VolcAuthFailure => ({
  status,
  code,
  codeN,
  message,
});

/** Why Volcengine would refuse this request's signature, or null when it holds. */
export function checkVolcV4(
  method: string,
  url: string,
  headers: IncomingHttpHeaders,
  raw: Buffer,
  expect: { region: string; service: string },
  now = Date.now(),
): VolcAuthFailure | null {
  const auth = String(headers.authorization ?? '');
  if (!auth) return fail(401, 'MissingAuthenticationToken', 100003, 'Request is missing Authentication Token.');
  const m =
    /^HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([a-z0-9-]+)\/([a-z0-9_]+)\/request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) return fail(401, 'MissingSignature', 100005, 'The request is missing signature.');
  const [, accessKey, date, region, service, signedHeaders, signature] = m;
  const xDate = String(headers['x-date'] ?? '');
  const xm = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(xDate);
  if (!xm) return fail(400, 'MissingRequestInfo', 100004, 'The request is missing X-Date information.');
  const signedAt = Date.UTC(+xm[1], +xm[2] - 1, +xm[3], +xm[4], +xm[5], +xm[6]);
  if (Math.abs(now - signedAt) > X_DATE_WINDOW_S * 1000)
    return fail(400, 'InvalidTimestamp', 100006, 'The signature of the request is expired.');
  if (xDate.slice(0, 8) !== date)
    return fail(401, 'SignatureDoesNotMatch', 100010, 'The credential scope date does not match X-Date.');
  if (region !== expect.region || service !== expect.service)
    return fail(404, 'ServiceNotFound', 100007, `This service[${service}] in region[${region}] not found.`);
  if (accessKey !== FAKE_VOLC_ACCESS_KEY)
    return fail(401, 'InvalidAccessKey', 100009, `The accesskey [${accessKey}] included in the request is invalid.`);
  const names = signedHeaders.split(';');
  for (const required of ['host', 'x-date', 'x-content-sha256'])
    if (!names.includes(required))
      return fail(401, 'SignatureDoesNotMatch', 100010, `SignedHeaders must include ${required}.`);
  const bodyHash = sha256(raw);
  // The body hash the client declared must be the body's: a signature over another body must not pass.
  if (String(headers['x-content-sha256'] ?? '') !== bodyHash)
    return fail(401, 'SignatureDoesNotMatch', 100010, 'X-Content-Sha256 does not match the request body.');
  const u = new URL(url, 'http://x');
  const query = [...u.searchParams.entries()]
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonical = [
    method,
    u.pathname || '/',
    query,
    names.map((n) => `${n}:${String(headers[n] ?? '').trim()}\n`).join(''),
    signedHeaders,
    bodyHash,
  ].join('\n');
  const scope = `${date}/${region}/${service}/request`;
  const toSign = ['HMAC-SHA256', xDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(FAKE_VOLC_SECRET_KEY, date), region), service), 'request');
  const expected = createHmac('sha256', key).update(toSign).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex')))
    return fail(
      401,
      'SignatureDoesNotMatch',
      100010,
      'The request signature we calculated does not match the signature you provided. Check your Secret Access Key and signing method. Consult the service documentation for details.',
    );
  return null;
}
