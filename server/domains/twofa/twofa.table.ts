import type { Defaulted, Id } from '../../db/columns.ts';

/* The rows of `two_fa`, `two_fa_backup_codes`, `two_fa_pending_logins`, `session_verifications` (joined into `Database` by server/db/types.ts). */

/** A user's TOTP setup (migration 2026-11-27T0200); the secret sealed with the server key (twofa/secret-box.rules.ts). */
export interface TwoFaTable {
  user_id: number;
  secret: string;
  is_enabled: Defaulted<number>;
  failed_attempts: Defaulted<number>;
  /** Unix seconds; 0 = not locked. */
  locked_until: Defaulted<number>;
  /** The TOTP time step last accepted: a code of that step or an earlier one is refused (replay). */
  last_step: Defaulted<number>;
  last_used_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A single-use recovery code, as a keyed hash (HMAC-SHA256 with the server key). */
export interface TwoFaBackupCodesTable {
  id: Id;
  user_id: number;
  code_hash: string;
  used_at: number | null;
  created_at: number;
}

/** A right password waiting for its second step; the id is the signed cookie's value. */
export interface TwoFaPendingLoginsTable {
  id: string;
  user_id: number;
  expires_at: number;
}

/** A session that passed a fresh check (POST /api/verify) until `expires_at`. */
export interface SessionVerificationsTable {
  session_id: string;
  user_id: number;
  /** '2fa' or 'passkey'. */
  method: string;
  expires_at: number;
}
