import SignModule from 'tencentcloud-sdk-nodejs-common/tencentcloud/common/sign.js';
import { refusal } from '../../errors.ts';
import type { UpstreamRequest } from '../types.ts';

/*
 * Tencent Cloud API 3.0 signing (TC3-HMAC-SHA256) by Tencent's own SDK (tencentcloud-sdk-nodejs-common),
 * over the final body's bytes, the content type and the host, as its clients sign.
 */

// Node hands a CommonJS module's exports object to a default import (TypeScript's bundler resolution
// thinks it is the class itself): take `.default` when it is there.
const Sign = (SignModule as unknown as { default?: typeof SignModule }).default ?? SignModule;

/** A Tencent channel key as new-api stores it: `AppId|SecretId|SecretKey`. */
export interface TencentCredentials {
  appId: string;
  secretId: string;
  secretKey: string;
}

export function parseTencentKey(key: string): TencentCredentials {
  const [appId, secretId, secretKey, ...rest] = key.split('|').map((s) => s.trim());
  if (!appId || !secretId || !secretKey || rest.length > 0 || !/^\d+$/.test(appId))
    throw refusal(
      500,
      'A Tencent Hunyuan channel key must read AppId|SecretId|SecretKey (AppId is a number)',
      '腾讯混元渠道密钥格式应为 AppId|SecretId|SecretKey（AppId 为数字）',
      'channel_config_error',
    );
  return { appId, secretId, secretKey };
}

/** The service name in the credential scope: the API host's first label (`hunyuan`). */
export const TENCENT_SERVICE = 'hunyuan';

/**
 * Stamps and signs a request: X-TC-Timestamp now, and the Authorization header over the body as it
 * will be sent (after param_override), its content type and the URL's host.
 */
export function signTencentRequest(req: UpstreamRequest, c: TencentCredentials, now = Date.now()): UpstreamRequest {
  const timestamp = Math.floor(now / 1000);
  const contentType = req.headers['content-type'] ?? 'application/json';
  const authorization = Sign.sign3({
    method: req.method,
    url: req.url,
    payload: Buffer.from(req.body ?? ''),
    timestamp,
    service: TENCENT_SERVICE,
    secretId: c.secretId,
    secretKey: c.secretKey,
    multipart: false,
    boundary: '',
    headers: { 'Content-Type': contentType },
  });
  return {
    ...req,
    headers: { ...req.headers, 'content-type': contentType, 'x-tc-timestamp': String(timestamp), authorization },
  };
}
