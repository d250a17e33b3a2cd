import { SignJWT } from 'jose';
import { refusal } from '../../errors.ts';

/*
 * Zhipu's legacy v3 API authenticates each call with a JWT the gateway signs itself from the key
 * `id.secret` (as new-api stores it): HS256 with the secret, header `sign_type: SIGN`, payload
 * `{api_key: id, exp, timestamp}` in milliseconds. Signing is local, so a token is made once per
 * key and reused until shortly before it expires.
 */

/** How long a token is valid (new-api: one day), and how long before that a new one is signed. */
const TTL_MS = 24 * 60 * 60 * 1000;
const MARGIN_MS = 5 * 60 * 1000;

const cache = new Map<string, { token: string; expiresAt: number }>();

/** `id.secret` -> its parts; anything else is the operator's to fix. */
export function parseZhipuKey(key: string): { id: string; secret: string } {
  const parts = key.trim().split('.');
  if (parts.length !== 2 || !parts[0] || !parts[1])
    throw refusal(
      400,
      'A Zhipu channel key must be "id.secret" (the API key from open.bigmodel.cn)',
      '智谱渠道的密钥格式应为 "id.secret"（open.bigmodel.cn 的 API Key）',
      'invalid_channel_key',
    );
  return { id: parts[0], secret: parts[1] };
}

/** The key's cached JWT, signed anew when missing or about to expire. */
export async function zhipuToken(key: string): Promise<string> {
  const hit = cache.get(key);
  const now = Date.now();
  if (hit && hit.expiresAt - MARGIN_MS > now) return hit.token;
  const { id, secret } = parseZhipuKey(key);
  const expiresAt = now + TTL_MS;
  const token = await new SignJWT({ api_key: id, exp: expiresAt, timestamp: now })
    .setProtectedHeader({ alg: 'HS256', sign_type: 'SIGN' })
    .sign(new TextEncoder().encode(secret));
  cache.set(key, { token, expiresAt });
  return token;
}
