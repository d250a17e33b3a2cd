import type { Selectable } from 'kysely';
import type { Defaulted, Id } from '../../db/columns.ts';

/* The rows of `tokens` (joined into `Database` by server/db/types.ts). */

export interface TokensTable {
  id: Id;
  user_id: number;
  key: string;
  status: Defaulted<number>;
  name: Defaulted<string>;
  created_time: Defaulted<number>;
  accessed_time: Defaulted<number>;
  expired_time: Defaulted<number>;
  remain_quota: Defaulted<number>;
  unlimited_quota: Defaulted<number>;
  used_quota: Defaulted<number>;
  model_limits_enabled: Defaulted<number>;
  model_limits: Defaulted<string>;
  allow_ips: Defaulted<string>;
  group: Defaulted<string>;
  rate_limit_enabled: Defaulted<number>;
  rate_limit_period: Defaulted<number>;
  rate_limit_count: Defaulted<number>;
  rate_limit_success: Defaulted<number>;
  deleted_at: number | null;
}

export type TokenRow = Selectable<TokensTable>;
