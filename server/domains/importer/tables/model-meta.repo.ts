import { moveSequenceOnPostgres } from './target-sequence.repo.ts';
import type { BatchResult, Row, TableImporter } from './types.ts';
import { type IdTable, upsertById } from './upsert.repo.ts';
import { deletedAt, int, str, unixSeconds } from './values.rules.ts';

/*
 * The model marketplace (new-api 2025-2026): vendors, what each model says about itself (description, icon,
 * tags, endpoints, name rule), and the prefill groups the admin forms fill in with one click. Names are unique
 * here as there; a soft-deleted row is left behind.
 */

/** A JSON column (a MySQL 8 driver may have parsed it) as text. */
const json = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : str(v));

const mapVendor = (r: Row) => ({
  id: int(r.id),
  name: str(r.name),
  description: str(r.description),
  icon: str(r.icon),
  status: int(r.status, 1),
  created_time: unixSeconds(r.created_time) ?? 0,
  updated_time: unixSeconds(r.updated_time) ?? 0,
});

const mapModel = (r: Row) => ({
  id: int(r.id),
  model_name: str(r.model_name),
  description: str(r.description),
  icon: str(r.icon),
  tags: str(r.tags),
  vendor_id: int(r.vendor_id),
  endpoints: json(r.endpoints),
  name_rule: int(r.name_rule),
  status: int(r.status, 1),
  sync_official: int(r.sync_official, 1),
  created_time: unixSeconds(r.created_time) ?? 0,
  updated_time: unixSeconds(r.updated_time) ?? 0,
});

const mapPrefill = (r: Row) => ({
  id: int(r.id),
  name: str(r.name),
  type: str(r.type),
  items: json(r.items) || '[]',
  description: str(r.description),
  created_time: unixSeconds(r.created_time) ?? 0,
  updated_time: unixSeconds(r.updated_time) ?? 0,
});

/** Live rows upserted (a name taken by another id here is skipped), soft-deleted ones reported. */
async function upsertLive<T extends { id: number }>(
  trx: Parameters<TableImporter['importBatch']>[0],
  table: IdTable,
  rows: Row[],
  map: (r: Row) => T,
  unique: keyof T & string,
): Promise<BatchResult> {
  const result = await upsertById(trx, table, rows.filter((r) => deletedAt(r.deleted_at) === null).map(map), unique);
  const gone = rows
    .filter((r) => deletedAt(r.deleted_at) !== null)
    .map((r) => ({ id: r.id, reason: 'deleted in new-api' }));
  return { imported: result.imported, skipped: [...gone, ...result.skipped] };
}

export const vendorsImporter: TableImporter = {
  name: 'vendors',
  sourceTable: 'vendors',
  optional: true,
  importBatch: (trx, rows) => upsertLive(trx, 'vendors', rows, mapVendor, 'name'),
  finish: moveSequenceOnPostgres('vendors'),
};

export const modelsImporter: TableImporter = {
  name: 'models',
  sourceTable: 'models',
  optional: true,
  importBatch: (trx, rows) => upsertLive(trx, 'models', rows, mapModel, 'model_name'),
  finish: moveSequenceOnPostgres('models'),
};

export const prefillGroupsImporter: TableImporter = {
  name: 'prefill_groups',
  sourceTable: 'prefill_groups',
  optional: true,
  importBatch: (trx, rows) => upsertLive(trx, 'prefill_groups', rows, mapPrefill, 'name'),
  finish: moveSequenceOnPostgres('prefill_groups'),
};
