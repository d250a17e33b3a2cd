import { PostgresAdapter } from 'kysely';
import type { Db } from '../../../db/types.ts';
import { type IdTable, moveSequencePastIds } from './upsert.repo.ts';

/**
 * A table's `finish` when its ids came from the source: PostgreSQL's sequence is moved past them, so the next row
 * Switchyard creates there does not collide with an imported id (SQLite's AUTOINCREMENT follows by itself).
 */
export const moveSequenceOnPostgres = (table: IdTable) => async (trx: Db) => {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) await moveSequencePastIds(trx, table);
};
