import type { Defaulted, Id } from '../../db/columns.ts';

/* The rows of `passkey_credentials`, `passkey_challenges` (joined into `Database` by server/db/types.ts). */

/** A registered passkey (migration 2026-11-27T0300); ids and key as base64url. */
export interface PasskeyCredentialsTable {
  id: Id;
  user_id: number;
  credential_id: string;
  /** The COSE public key. */
  public_key: string;
  sign_count: Defaulted<number>;
  /** JSON array of the authenticator's transports ('internal', 'usb', 'hybrid'...). */
  transports: Defaulted<string>;
  attachment: Defaulted<string>;
  aaguid: Defaulted<string>;
  backup_eligible: Defaulted<number>;
  backup_state: Defaulted<number>;
  created_at: number;
  last_used_at: number | null;
}

/** A WebAuthn ceremony in progress: its challenge, bound to one browser's flow cookie and purpose. */
export interface PasskeyChallengesTable {
  /** `<flow cookie>:<purpose>`. */
  id: string;
  /** The signed-in user the ceremony is for; 0 for sign-in. */
  user_id: Defaulted<number>;
  challenge: string;
  expires_at: number;
}
