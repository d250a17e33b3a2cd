import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/*
 * Tencent Cloud API 3.0's TC3-HMAC-SHA256, checked the way Tencent's servers check it (written
 * from Tencent's signing documentation, apart from the SDK the adapter signs with, so a signing bug
 * on either side shows): the canonical request over the method, path, query, the signed headers
 * (`host` without the port, as Tencent's SDKs sign it) and the body's SHA-256, the
 * date/service/tc3_request scope, the key derived from `TC3` + SecretKey.
 */

/** The one SecretId the fake knows, and its SecretKey (tests sign with these, or fail). */
export const FAKE_TENCENT_SECRET_ID = 'AKIDfakeSwitchyardTencent0001';
export const FAKE_TENCENT_SECRET_KEY = 'fake-tencent-secret-key';

/** How far X-TC-Timestamp may be from the server's clock (Tencent: five minutes). */
export const TIMESTAMP_WINDOW_S = 300;

const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();

/** The failure Tencent names for a request whose signature does not hold, or null when it holds. */
export function checkTc3(
  method: string,
  url: string,
  headers: IncomingHttpHeaders,
  raw: Buffer,
  now = Date.now(),
): { code: string; message: string } | null {
  const auth = String(headers.authorization ?? '');
  const m =
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([a-z]+)\/tc3_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m)
    return {
      code: 'AuthFailure.InvalidAuthorization',
      message: 'Authorization header does not conform to the Tencent Cloud standard.',
    };
  const [, secretId, date, service, signedHeaders, signature] = m;
  const timestamp = Number(headers['x-tc-timestamp']);
  if (!Number.isInteger(timestamp) || Math.abs(now / 1000 - timestamp) > TIMESTAMP_WINDOW_S)
    return {
      code: 'AuthFailure.SignatureExpire',
      message: 'Signature expired. Timestamp and server time cannot differ by more than five minutes.',
    };
  if (new Date(timestamp * 1000).toISOString().slice(0, 10) !== date)
    return {
      code: 'AuthFailure.SignatureFailure',
      message: 'The credential scope date does not match X-TC-Timestamp.',
    };
  if (secretId !== FAKE_TENCENT_SECRET_ID)
    return {
      code: 'AuthFailure.SecretIdNotFound',
      message: 'The SecretId is not found, please ensure that your SecretId is correct.',
    };
  const names = signedHeaders.split(';');
  if (!names.includes('content-type') || !names.includes('host'))
    return { code: 'AuthFailure.SignatureFailure', message: 'SignedHeaders must include content-type and host.' };
  const value = (name: string) => {
    const v = String(headers[name] ?? '').trim();
    return (name === 'host' ? v.replace(/:\d+$/, '') : v).toLowerCase();
  };
  const u = new URL(url, 'http://x');
  const canonical = [
    method,
    u.pathname,
    u.search.slice(1),
    names.map((n) => `${n}:${value(n)}\n`).join(''),
    signedHeaders,
    sha256(raw),
  ].join('\n');
  const toSign = ['TC3-HMAC-SHA256', String(timestamp), `${date}/${service}/tc3_request`, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(`TC3${FAKE_TENCENT_SECRET_KEY}`, date), service), 'tc3_request');
  const expected = createHmac('sha256', key).update(toSign).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex')))
    return {
      code: 'AuthFailure.SignatureFailure',
      message: 'The provided credentials could not be validated. Please check your signature is correct.',
    };
  return null;
}
