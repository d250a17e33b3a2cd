import type { Row, TableImporter } from './types.ts';
import { movesSequence, upsertById } from './upsert.repo.ts';
import { deletedAt, int, str } from './values.rules.ts';

/* Redemption codes, used or not: a code redeemed there stays redeemed here. */
const mapRedemption = (r: Row) => ({
  id: int(r.id),
  user_id: int(r.user_id),
  key: str(r.key),
  status: int(r.status, 1),
  name: str(r.name),
  quota: int(r.quota),
  created_time: int(r.created_time),
  redeemed_time: int(r.redeemed_time),
  used_user_id: int(r.used_user_id),
  deleted_at: deletedAt(r.deleted_at),
});

export const redemptionsImporter: TableImporter = {
  name: 'redemptions',
  sourceTable: 'redemptions',
  finish: movesSequence('redemptions'),
  optional: true,
  importBatch: (trx, rows) => upsertById(trx, 'redemptions', rows.map(mapRedemption), 'key'),
};
