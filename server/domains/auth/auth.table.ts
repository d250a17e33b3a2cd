import type { Id } from '../../db/columns.ts';

/* The rows of `verification_codes`, `sessions` (joined into `Database` by server/db/types.ts). */

export interface VerificationCodesTable {
  id: Id;
  purpose: string;
  target: string;
  code: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}
