import { type Insertable, sql, type SqlBool, type Updateable } from 'kysely';
import type { Database, Db } from '../../db/types.ts';

/* Kysely queries on vendors (a model's maker in the marketplace). No rules here. */

type NewVendor = Insertable<Database['vendors']>;
type VendorPatch = Updateable<Database['vendors']>;

export type VendorRow = NonNullable<Awaited<ReturnType<typeof findVendor>>>;

function filtered(db: Db, keyword: string) {
  const q = db.selectFrom('vendors');
  if (!keyword) return q;
  const p = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return q.where((eb) =>
    eb.or([
      sql<SqlBool>`${eb.ref('name')} like ${p} escape '\\'`,
      sql<SqlBool>`${eb.ref('description')} like ${p} escape '\\'`,
    ]),
  );
}

/** One page, newest first, and the count of all rows the keyword keeps. */
export async function listVendors(db: Db, keyword: string, offset: number, limit: number) {
  const base = filtered(db, keyword);
  const [items, total] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(total.n) };
}

export const listAllVendors = (db: Db) => db.selectFrom('vendors').selectAll().orderBy('id').execute();

export const findVendor = (db: Db, id: number) =>
  db.selectFrom('vendors').selectAll().where('id', '=', id).executeTakeFirst();

export const vendorNameTaken = async (db: Db, name: string, exceptId = 0) =>
  (await db
    .selectFrom('vendors')
    .select('id')
    .where('name', '=', name)
    .where('id', '<>', exceptId)
    .executeTakeFirst()) !== undefined;

export const insertVendor = async (db: Db, row: NewVendor) =>
  Number((await db.insertInto('vendors').values(row).returning('id').executeTakeFirstOrThrow()).id);

export const updateVendor = async (db: Db, id: number, patch: VendorPatch) =>
  Number((await db.updateTable('vendors').set(patch).where('id', '=', id).executeTakeFirst()).numUpdatedRows) > 0;

export const deleteVendor = async (db: Db, id: number) =>
  Number((await db.deleteFrom('vendors').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;
