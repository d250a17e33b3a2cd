import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../../../db/types.ts';
import type { BatchResult, TableImporter } from './types.ts';

export type IdTable =
  | 'users'
  | 'tokens'
  | 'channels'
  | 'redemptions'
  | 'top_ups'
  | 'subscription_plans'
  | 'subscription_orders'
  | 'user_subscriptions'
  | 'vendors'
  | 'models'
  | 'prefill_groups'
  | 'check_ins'
  | 'midjourneys'
  | 'tasks'
  | 'messages'
  | 'two_fa'
  | 'two_fa_backup_codes'
  | 'passkey_credentials';

/**
 * Upserts one batch by id: a row already here is updated, a new one inserted, so running twice changes nothing.
 * A row whose unique column (username, key, trade_no) already belongs to a different row here is skipped and
 * reported rather than overwriting it.
 */
export async function upsertById<T extends { id: number }>(
  trx: Db,
  table: IdTable,
  rows: T[],
  unique?: keyof T & string,
): Promise<BatchResult> {
  const result: BatchResult = { imported: 0, skipped: [] };
  if (!rows.length) return result;
  const ids = new Set(
    (
      await trx
        .selectFrom(table)
        .select('id')
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute()
    ).map((e) => Number(e.id)),
  );
  const owners = new Map<string, number>();
  if (unique) {
    const values = [...new Set(rows.map((r) => String(r[unique])))];
    const found = await trx
      .selectFrom(table)
      .select(['id', sql.ref<string>(unique).as('u')])
      .where(sql.ref(unique), 'in', values)
      .execute();
    for (const f of found) owners.set(String(f.u), Number(f.id));
  }
  for (const row of rows) {
    if (unique) {
      const owner = owners.get(String(row[unique]));
      if (owner !== undefined && owner !== row.id) {
        result.skipped.push({ id: row.id, reason: `${unique} already used by #${owner}` });
        continue;
      }
      owners.set(String(row[unique]), row.id);
    }
    const { id, ...rest } = row;
    if (ids.has(id))
      await trx
        .updateTable(table)
        .set(rest as never)
        .where('id', '=', id)
        .execute();
    else {
      await trx
        .insertInto(table)
        .values(row as never)
        .execute();
      ids.add(id);
    }
    result.imported++;
  }
  return result;
}

/** The sum of `column` over the rows with these ids (the balance check's "after"). */
export async function sumById(trx: Db, table: 'users', column: 'quota', ids: number[]): Promise<number> {
  let total = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const r = await trx
      .selectFrom(table)
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(column), sql<number>`0`).as('n'))
      .where('id', 'in', ids.slice(i, i + 500))
      .executeTakeFirst();
    total += Number(r?.n ?? 0);
  }
  return total;
}

/** PostgreSQL sequences do not move when ids are given explicitly; move them past the imported ids. */
export async function moveSequencePastIds(trx: Db, table: IdTable) {
  await sql`select setval(pg_get_serial_sequence(${table}, 'id'), greatest((select coalesce(max(id), 0) from ${sql.table(table)}), 1))`.execute(
    trx,
  );
}

/** A table importer's `finish` for a table with its own ids: on PostgreSQL, the sequence moves past them. */
export const movesSequence =
  (table: IdTable): NonNullable<TableImporter['finish']> =>
  async (trx) => {
    if (trx.getExecutor().adapter instanceof PostgresAdapter) await moveSequencePastIds(trx, table);
  };
