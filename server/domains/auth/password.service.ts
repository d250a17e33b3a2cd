import { hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from '../users/users.rules.ts';

/*
 * New hashes are argon2id (the library's default algorithm). Databases imported
 * from new-api/one-api hold bcrypt hashes; those still verify, and login swaps
 * them for argon2 (see needsRehash).
 */

const isBcrypt = (stored: string) => /^\$2[aby]\$/.test(stored);

export const hashPassword = (password: string): Promise<string> => hash(password);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  if (stored === '') return false;
  // Loaded only for imported accounts' first sign-ins: most installs never need it.
  if (isBcrypt(stored)) return (await import('bcryptjs')).default.compare(password, stored);
  try {
    return await verify(stored, password);
  } catch {
    // A malformed stored hash is a wrong password, not a server error.
    return false;
  }
}

export const needsRehash = (stored: string) => isBcrypt(stored);

/** The KDF as the users domain receives it (services.ts): setup, admin and self-service set passwords too. */
export const passwordHasher: PasswordHasher = { hash: hashPassword, verify: verifyPassword };

let dummyHash: Promise<string> | undefined;

/** Spends about the same time as a real check, so unknown usernames cannot be told apart by timing. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hash('switchyard-dummy-password');
  await verify(await dummyHash, password).catch(() => false);
}
