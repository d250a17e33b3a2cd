import { nowSeconds } from '../../../db/time.ts';
import { moveSequenceOnPostgres } from './target-sequence.repo.ts';
import type { Row, TableImporter } from './types.ts';
import { upsertById } from './upsert.repo.ts';
import { bool01, deletedAt, int, str, unixSeconds } from './values.rules.ts';

/*
 * Backup codes (new-api's two_fa_backup_codes): bcrypt hashes of `XXXX-XXXX`, which cannot be turned back into
 * codes, so they are kept as they are and the second step accepts them beside our own keyed hashes
 * (twofa.service.ts spendBackup). A used code stays used.
 */
const mapCode = (r: Row) => ({
  id: int(r.id),
  user_id: int(r.user_id),
  code_hash: str(r.code_hash),
  used_at: bool01(r.is_used) ? (unixSeconds(r.used_at) ?? nowSeconds()) : null,
  created_at: unixSeconds(r.created_at) ?? 0,
});

export const twoFaBackupCodesImporter: TableImporter = {
  name: 'two_fa_backup_codes',
  sourceTable: 'two_fa_backup_codes',
  optional: true,
  async importBatch(trx, rows) {
    const live = rows.filter((r) => deletedAt(r.deleted_at) === null);
    const result = await upsertById(trx, 'two_fa_backup_codes', live.map(mapCode));
    const gone = rows.filter((r) => deletedAt(r.deleted_at) !== null);
    return {
      imported: result.imported,
      skipped: [...gone.map((r) => ({ id: r.id, reason: 'deleted in new-api' })), ...result.skipped],
    };
  },
  finish: moveSequenceOnPostgres('two_fa_backup_codes'),
};
