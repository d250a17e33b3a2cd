import type { Db } from '../../db/types.ts';

export const listOptionRows = (db: Db) => db.selectFrom('options').select(['key', 'value']).execute();

/** Reads one option key: the admin's database test (GET /api/status/test) asks no more. */
export const probeOptionsTable = (db: Db) => db.selectFrom('options').select('key').limit(1).execute();

export const findOptionValue = async (db: Db, key: string) =>
  (await db.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst())?.value;

/** Insert-or-update in one statement; both SQLite and PostgreSQL understand ON CONFLICT. */
export const upsertOption = (db: Db, key: string, value: string) =>
  db
    .insertInto('options')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
