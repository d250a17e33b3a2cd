import { createHmac } from 'node:crypto';
import { refusal } from '../../errors.ts';

/*
 * Spark's URL authentication (xfyun's "通用URL鉴权"): the WebSocket URL carries `host`, `date` and
 * `authorization` in its query. The signature is HMAC-SHA256 with the APISecret over
 * `host: <host>\ndate: <date>\nGET <path> HTTP/1.1`; `authorization` is the base64 of
 * `api_key="<APIKey>", algorithm="hmac-sha256", headers="host date request-line", signature="<b64>"`.
 * Spark refuses a date more than five minutes off (403), a signature that does not match (401).
 */

/** A Spark channel key as new-api stores it: `APPID|APISecret|APIKey`. */
export interface SparkCredentials {
  appId: string;
  apiSecret: string;
  apiKey: string;
}

export function parseSparkKey(key: string): SparkCredentials {
  const [appId, apiSecret, apiKey, ...rest] = key.split('|').map((s) => s.trim());
  if (!appId || !apiSecret || !apiKey || rest.length > 0)
    throw refusal(
      500,
      'A Xunfei Spark channel key must read APPID|APISecret|APIKey',
      '讯飞星火渠道密钥格式应为 APPID|APISecret|APIKey',
      'channel_config_error',
    );
  return { appId, apiSecret, apiKey };
}

/** The string Spark signs for a GET of `path` on `host` at `date` (an RFC 1123 date in GMT). */
export const sparkSignedText = (host: string, date: string, path: string) =>
  `host: ${host}\ndate: ${date}\nGET ${path} HTTP/1.1`;

export const sparkSignature = (secret: string, text: string) =>
  createHmac('sha256', secret).update(text).digest('base64');

/**
 * The WebSocket URL of `url` (http(s) and ws(s) alike; the channel's base URL is an http one) with
 * Spark's authentication in its query, signed at `now`.
 */
export function signSparkUrl(url: string, c: SparkCredentials, now = new Date()): string {
  const u = new URL(url.replace(/^http/i, 'ws'));
  const date = now.toUTCString();
  const signature = sparkSignature(c.apiSecret, sparkSignedText(u.host, date, u.pathname));
  const origin = `api_key="${c.apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`;
  u.search = new URLSearchParams({
    authorization: Buffer.from(origin).toString('base64'),
    date,
    host: u.host,
  }).toString();
  return u.toString();
}
