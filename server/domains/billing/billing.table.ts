import type { Defaulted } from '../../db/columns.ts';

/* The rows of `quota_reservations` (joined into `Database` by server/db/types.ts). */

export interface QuotaReservationsTable {
  id: string;
  user_id: number;
  token_id: Defaulted<number>;
  quota: number;
  unlimited_token: Defaulted<number>;
  created_at: number;
  /** The subscription the quota was taken from; 0 = the wallet. */
  subscription_id: Defaulted<number>;
}
