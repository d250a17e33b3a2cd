import { randomInt } from 'node:crypto';

/* Two-factor constants and pure checks, with new-api's numbers (common/totp.go). */

/** TOTP: 6 digits, 30-second steps, SHA-1 (what every authenticator app reads from the otpauth URL). */
export const TOTP_PERIOD_S = 30;
/** A code of the previous or next step is accepted too (clock drift), like new-api's default skew. */
export const TOTP_TOLERANCE_S = 30;
/** Wrong codes in a row before the second step is locked, and for how long. */
export const MAX_FAILED_ATTEMPTS = 5;
export const LOCKOUT_S = 300;
/** How long a right password waits for its second step. */
export const PENDING_LOGIN_TTL_S = 300;
/** How long POST /api/verify keeps a session verified (new-api's SecureVerificationTimeout). */
export const SECURE_VERIFY_TTL_S = 300;
export const BACKUP_CODE_COUNT = 8;

const BACKUP_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** `XXXX-XXXX`, uniformly random (randomInt has no modulo bias). */
export function newBackupCode(): string {
  const chars = Array.from({ length: 8 }, () => BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4)}`;
}

export const newBackupCodes = () => Array.from({ length: BACKUP_CODE_COUNT }, newBackupCode);

/** A TOTP code as typed: spaces dropped; six digits or nothing. */
export function totpCodeOf(input: string): string | undefined {
  const code = input.replace(/\s/g, '');
  return /^\d{6}$/.test(code) ? code : undefined;
}

/** A backup code as typed (any case, with or without the dash), in its stored form; or nothing. */
export function backupCodeOf(input: string): string | undefined {
  const clean = input.replace(/[\s-]/g, '').toUpperCase();
  return /^[A-Z0-9]{8}$/.test(clean) ? `${clean.slice(0, 4)}-${clean.slice(4)}` : undefined;
}

/**
 * The otpauth URL an authenticator app reads from the QR code, shaped as new-api builds it: the issuer
 * is the site's name, the account `username (issuer)`.
 */
export function otpauthUrl(issuer: string, username: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(`${username} (${issuer})`)}`;
  const query = new URLSearchParams({ secret, issuer, digits: '6', period: String(TOTP_PERIOD_S) });
  return `otpauth://totp/${label}?${query.toString()}`;
}

/** Minutes left of a lock, rounded up, for the message. */
export const lockMinutesLeft = (lockedUntil: number, now: number) => Math.max(1, Math.ceil((lockedUntil - now) / 60));
