import type { Row, TableImporter } from './types.ts';
import { movesSequence, upsertById } from './upsert.repo.ts';
import { bool01, deletedAt, int, str } from './values.rules.ts';

/* Tokens: keys unchanged, so clients keep working; limits, groups and allowed IPs as they were. */
const mapToken = (r: Row) => ({
  id: int(r.id),
  user_id: int(r.user_id),
  key: str(r.key),
  status: int(r.status, 1),
  name: str(r.name),
  created_time: int(r.created_time),
  accessed_time: int(r.accessed_time),
  expired_time: int(r.expired_time, -1),
  remain_quota: int(r.remain_quota),
  unlimited_quota: bool01(r.unlimited_quota),
  used_quota: int(r.used_quota),
  model_limits_enabled: bool01(r.model_limits_enabled),
  model_limits: str(r.model_limits),
  allow_ips: str(r.allow_ips),
  group: str(r.group),
  deleted_at: deletedAt(r.deleted_at),
});

export const tokensImporter: TableImporter = {
  name: 'tokens',
  sourceTable: 'tokens',
  finish: movesSequence('tokens'),
  optional: false,
  importBatch: (trx, rows) => upsertById(trx, 'tokens', rows.map(mapToken), 'key'),
};
