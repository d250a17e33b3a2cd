import { moveSequenceOnPostgres } from './target-sequence.repo.ts';
import type { Row, TableImporter } from './types.ts';
import { upsertById } from './upsert.repo.ts';
import { int, num, str, unixSeconds } from './values.rules.ts';

/* Plan orders (paid, pending, expired), so a payment notice arriving after the move still completes its order once. */
const mapOrder = (r: Row) => ({
  id: int(r.id),
  user_id: int(r.user_id),
  plan_id: int(r.plan_id),
  money: num(r.money),
  trade_no: str(r.trade_no),
  payment_method: str(r.payment_method),
  status: str(r.status) || 'pending',
  create_time: unixSeconds(r.create_time) ?? 0,
  complete_time: unixSeconds(r.complete_time) ?? 0,
  provider_payload: str(r.provider_payload),
});

export const subscriptionOrdersImporter: TableImporter = {
  name: 'subscription_orders',
  sourceTable: 'subscription_orders',
  optional: true,
  importBatch: (trx, rows) => upsertById(trx, 'subscription_orders', rows.map(mapOrder), 'trade_no'),
  finish: moveSequenceOnPostgres('subscription_orders'),
};
