import type { Selectable } from 'kysely';
import type { Defaulted, Id } from '../../db/columns.ts';

/* The rows of `redemptions`, `redemption_uses` (joined into `Database` by server/db/types.ts). */

export interface RedemptionsTable {
  id: Id;
  user_id: Defaulted<number>;
  key: string;
  status: Defaulted<number>;
  name: Defaulted<string>;
  quota: Defaulted<number>;
  created_time: Defaulted<number>;
  redeemed_time: Defaulted<number>;
  used_user_id: Defaulted<number>;
  is_gift: Defaulted<number>;
  max_uses: Defaulted<number>;
  used_count: Defaulted<number>;
  valid_from: Defaulted<number>;
  valid_until: Defaulted<number>;
  deleted_at: number | null;
}

export interface RedemptionUsesTable {
  id: Id;
  redemption_id: number;
  user_id: number;
  quota: Defaulted<number>;
  created_time: Defaulted<number>;
}

export type RedemptionRow = Selectable<RedemptionsTable>;
