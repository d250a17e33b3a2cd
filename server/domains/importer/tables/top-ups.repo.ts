import type { Row, TableImporter } from './types.ts';
import { movesSequence, upsertById } from './upsert.repo.ts';
import { int, num, str } from './values.rules.ts';

/* Top-up orders (paid, pending or failed), so a payment callback arriving after the move still finds its order. */
const mapTopUp = (r: Row) => ({
  id: int(r.id),
  user_id: int(r.user_id),
  amount: int(r.amount),
  money: num(r.money),
  trade_no: str(r.trade_no),
  payment_method: str(r.payment_method),
  complete_time: int(r.complete_time),
  create_time: int(r.create_time),
  status: str(r.status) || 'pending',
});

export const topUpsImporter: TableImporter = {
  name: 'top_ups',
  sourceTable: 'top_ups',
  finish: movesSequence('top_ups'),
  optional: true,
  importBatch: (trx, rows) => upsertById(trx, 'top_ups', rows.map(mapTopUp), 'trade_no'),
};
