import type { Insertable, Updateable } from 'kysely';
import type { Database, Db } from '../../db/types.ts';

/* Kysely queries on prefill groups. No rules here. */

type NewPrefillGroup = Insertable<Database['prefill_groups']>;
type PrefillGroupPatch = Updateable<Database['prefill_groups']>;

/** Every group, or those of one type; the last changed first (as new-api lists them). */
export function listPrefillGroups(db: Db, type: string) {
  const q = db.selectFrom('prefill_groups').selectAll();
  return (type ? q.where('type', '=', type) : q).orderBy('updated_time', 'desc').orderBy('id', 'desc').execute();
}

export const findPrefillGroup = (db: Db, id: number) =>
  db.selectFrom('prefill_groups').selectAll().where('id', '=', id).executeTakeFirst();

export const prefillNameTaken = async (db: Db, name: string, exceptId = 0) =>
  (await db
    .selectFrom('prefill_groups')
    .select('id')
    .where('name', '=', name)
    .where('id', '<>', exceptId)
    .executeTakeFirst()) !== undefined;

export const insertPrefillGroup = async (db: Db, row: NewPrefillGroup) =>
  Number((await db.insertInto('prefill_groups').values(row).returning('id').executeTakeFirstOrThrow()).id);

export const updatePrefillGroup = async (db: Db, id: number, patch: PrefillGroupPatch) =>
  Number((await db.updateTable('prefill_groups').set(patch).where('id', '=', id).executeTakeFirst()).numUpdatedRows) >
  0;

export const deletePrefillGroup = async (db: Db, id: number) =>
  Number((await db.deleteFrom('prefill_groups').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;
