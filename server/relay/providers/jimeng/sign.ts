import { createHash, createHmac } from 'node:crypto';
import { refusal } from '../../errors.ts';

/*
 * Volcengine's OpenAPI signature V4 ("HMAC-SHA256"), which Jimeng's visual.volcengineapi.com requires on
 * every call. Like AWS SigV4 but with its own names: X-Date / X-Content-Sha256 headers, the scope
 * date/region/service/request, and the signing key derived from the bare SecretKey. Small enough to
 * write here instead of pulling Volcengine's SDK for one header.
 */

/** A Jimeng channel key: `AccessKeyId|SecretAccessKey` (new-api's format). */
export interface VolcCredentials {
  accessKey: string;
  secretKey: string;
}

export function parseVolcKey(key: string): VolcCredentials {
  const [accessKey, secretKey, ...rest] = key.split('|').map((s) => s.trim());
  if (!accessKey || !secretKey || rest.length)
    throw refusal(
      500,
      'A Jimeng channel key must read AccessKeyId|SecretAccessKey',
      '即梦渠道密钥格式应为 AccessKeyId|SecretAccessKey',
      'channel_config_error',
    );
  return { accessKey, secretKey };
}

const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();
const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The headers that sign one request: X-Date, X-Content-Sha256 and Authorization (Host and
 * Content-Type are signed as sent; the caller sends `content-type` as given here).
 */
export function signVolcV4(
  req: { method: string; url: string; body: string; contentType: string },
  c: VolcCredentials,
  scope: { region: string; service: string },
  now = new Date(),
): Record<string, string> {
  const url = new URL(req.url);
  const xDate = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const date = xDate.slice(0, 8);
  const bodyHash = sha256(req.body);
  const query = [...url.searchParams.entries()]
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const signed: [string, string][] = [
    ['content-type', req.contentType],
    ['host', url.host],
    ['x-content-sha256', bodyHash],
    ['x-date', xDate],
  ];
  const signedHeaders = signed.map(([k]) => k).join(';');
  const canonical = [
    req.method,
    url.pathname || '/',
    query,
    signed.map(([k, v]) => `${k}:${v.trim()}\n`).join(''),
    signedHeaders,
    bodyHash,
  ].join('\n');
  const credentialScope = `${date}/${scope.region}/${scope.service}/request`;
  const toSign = ['HMAC-SHA256', xDate, credentialScope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(c.secretKey, date), scope.region), scope.service), 'request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return {
    'content-type': req.contentType,
    'x-date': xDate,
    'x-content-sha256': bodyHash,
    authorization: `HMAC-SHA256 Credential=${c.accessKey}/${credentialScope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}
