import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/*
 * The server's own key for two-factor data, derived from SESSION_SECRET (config.ts; persisted in the
 * data directory when not given), so a copy of the database alone reveals neither TOTP secrets nor
 * backup codes. Changing SESSION_SECRET therefore turns two-factor off in practice: the users affected
 * sign in after an admin resets their two-factor (docs/operations.md).
 */

export interface TwoFaKeys {
  /** AES-256-GCM key for TOTP secrets. */
  seal: Buffer;
  /** HMAC-SHA256 key for backup codes. */
  mac: Buffer;
}

const derive = (secret: string, info: string) => Buffer.from(hkdfSync('sha256', secret, 'switchyard', info, 32));

export const twoFaKeys = (sessionSecret: string): TwoFaKeys => ({
  seal: derive(sessionSecret, 'two-factor secret'),
  mac: derive(sessionSecret, 'two-factor backup code'),
});

const VERSION = 'v1';

/** `v1.<iv>.<tag>.<ciphertext>`, base64url. */
export function sealSecret(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The secret, or undefined when it was sealed with another key (SESSION_SECRET changed) or is damaged. */
export function openSecret(key: Buffer, sealed: string): string | undefined {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * A backup code's stored form: a keyed hash (HMAC-SHA256). The codes are random (8 characters of 36,
 * the length new-api's console accepts), so no per-code salt is needed, and the key keeps a leaked
 * table from being searched offline; a keyed hash also lets the code be found by an indexed lookup
 * instead of a slow KDF run per stored code.
 */
export const hashBackupCode = (key: Buffer, normalized: string) =>
  createHmac('sha256', key).update(normalized).digest('base64url');

/** new-api's backup codes (imported, issue 42) are bcrypt hashes of the `XXXX-XXXX` form; ours never start so. */
export const isImportedBackupHash = (stored: string) => /^\$2[aby]\$/.test(stored);

/**
 * Whether a typed backup code is the one an imported bcrypt hash was made from. new-api hashed the code as
 * `XXXX-XXXX` in capitals, the form backupCodeOf() gives. Loaded only when a user still holds such codes.
 */
export async function matchesImportedBackupCode(normalized: string, stored: string): Promise<boolean> {
  return (await import('bcryptjs')).default.compare(normalized, stored);
}
