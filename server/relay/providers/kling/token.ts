import { SignJWT } from 'jose';
import { refusal } from '../../errors.ts';

/*
 * Kling authenticates each call with a JWT the gateway signs itself from the channel key
 * `AccessKey|SecretKey` (as new-api stores it): HS256 with the secret key, `{iss: AK, exp, nbf}` in
 * seconds, `nbf` a few seconds back for clock skew (Kling's own sample). Signing is local, so a token
 * is made once per key and reused until shortly before it expires.
 */

/** Kling's sample: 30 minutes; a new token is signed 5 minutes before that. */
const TTL_S = 30 * 60;
const MARGIN_S = 5 * 60;

const cache = new Map<string, { token: string; expiresAt: number }>();

/** `AK|SK` -> its parts; anything else is the operator's to fix. */
export function parseKlingKey(key: string): { accessKey: string; secretKey: string } {
  const parts = key.split('|').map((p) => p.trim());
  if (parts.length !== 2 || !parts[0] || !parts[1])
    throw refusal(
      400,
      'A Kling channel key must be "AccessKey|SecretKey" (both from the Kling developer console)',
      '可灵渠道的密钥格式应为 "AccessKey|SecretKey"（均来自可灵开发者控制台）',
      'invalid_channel_key',
    );
  return { accessKey: parts[0], secretKey: parts[1] };
}

/** The key's cached JWT, signed anew when missing or about to expire. */
export async function klingToken(key: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const hit = cache.get(key);
  if (hit && hit.expiresAt - MARGIN_S > now) return hit.token;
  const { accessKey, secretKey } = parseKlingKey(key);
  const expiresAt = now + TTL_S;
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(accessKey)
    .setExpirationTime(expiresAt)
    .setNotBefore(now - 5)
    .sign(new TextEncoder().encode(secretKey));
  cache.set(key, { token, expiresAt });
  return token;
}
