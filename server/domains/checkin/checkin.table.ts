import type { Defaulted, Id } from '../../db/columns.ts';

/* The rows of `check_ins` (joined into `Database` by server/db/types.ts). */

export interface CheckInsTable {
  id: Id;
  user_id: number;
  /** Calendar day in server time, YYYY-MM-DD. */
  day: string;
  quota: Defaulted<number>;
  created_at: Defaulted<number>;
}
