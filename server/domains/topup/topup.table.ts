import type { Selectable } from 'kysely';
import type { Defaulted, Id } from '../../db/columns.ts';

/* The rows of `top_ups` (joined into `Database` by server/db/types.ts). */

export interface TopUpsTable {
  id: Id;
  user_id: number;
  amount: Defaulted<number>;
  money: Defaulted<number>;
  trade_no: string;
  payment_method: Defaulted<string>;
  create_time: Defaulted<number>;
  complete_time: Defaulted<number>;
  status: Defaulted<string>;
}

export type TopUpRow = Selectable<TopUpsTable>;
