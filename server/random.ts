import { randomBytes } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Uniform random [a-zA-Z0-9] from the CSPRNG: API keys, access tokens, OAuth states, invitation codes and
 * trade numbers all come from here. Bytes >= 248 are dropped so that 62 letters stay equally likely.
 */
export function randomAlphanumeric(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b >= 248) continue;
      out += ALPHANUMERIC[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}
