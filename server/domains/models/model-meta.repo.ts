import { type Insertable, sql, type SqlBool, type Updateable } from 'kysely';
import type { Database, Db } from '../../db/types.ts';

/* Kysely queries on model metadata (`models`) and the served models it describes. No rules here. */

type NewModelMeta = Insertable<Database['models']>;
type ModelMetaPatch = Updateable<Database['models']>;

export type ModelMetaRow = NonNullable<Awaited<ReturnType<typeof findModelMeta>>>;

const likePattern = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface ModelMetaFilter {
  keyword: string;
  /** A vendor id, or text matched against vendor names (new-api's `vendor` query). */
  vendor: string;
}

function filtered(db: Db, f: ModelMetaFilter) {
  let q = db.selectFrom('models');
  if (f.keyword) {
    const p = likePattern(f.keyword);
    q = q.where((eb) =>
      eb.or([
        sql<SqlBool>`${eb.ref('models.model_name')} like ${p} escape '\\'`,
        sql<SqlBool>`${eb.ref('models.description')} like ${p} escape '\\'`,
        sql<SqlBool>`${eb.ref('models.tags')} like ${p} escape '\\'`,
      ]),
    );
  }
  if (/^\d+$/.test(f.vendor)) q = q.where('models.vendor_id', '=', Number(f.vendor));
  else if (f.vendor) {
    const p = likePattern(f.vendor);
    q = q.where((eb) =>
      eb(
        'models.vendor_id',
        'in',
        eb
          .selectFrom('vendors')
          .select('vendors.id')
          .where((v) => sql<SqlBool>`${v.ref('vendors.name')} like ${p} escape '\\'`),
      ),
    );
  }
  return q;
}

/** One page, newest first, and the count of all rows the filter keeps. */
export async function listModelMeta(db: Db, f: ModelMetaFilter, offset: number, limit: number) {
  const base = filtered(db, f);
  const [items, total] = await Promise.all([
    base.selectAll('models').orderBy('models.id', 'desc').offset(offset).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(total.n) };
}

export const listAllModelMeta = (db: Db) => db.selectFrom('models').selectAll().orderBy('id').execute();

export const findModelMeta = (db: Db, id: number) =>
  db.selectFrom('models').selectAll().where('id', '=', id).executeTakeFirst();

/** Whether another row (not `exceptId`) already has this name. */
export const modelNameTaken = async (db: Db, name: string, exceptId = 0) =>
  (await db
    .selectFrom('models')
    .select('id')
    .where('model_name', '=', name)
    .where('id', '<>', exceptId)
    .executeTakeFirst()) !== undefined;

export const insertModelMeta = async (db: Db, row: NewModelMeta) =>
  Number((await db.insertInto('models').values(row).returning('id').executeTakeFirstOrThrow()).id);

export const updateModelMeta = async (db: Db, id: number, patch: ModelMetaPatch) =>
  Number((await db.updateTable('models').set(patch).where('id', '=', id).executeTakeFirst()).numUpdatedRows) > 0;

export const deleteModelMeta = async (db: Db, id: number) =>
  Number((await db.deleteFrom('models').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;

/** Model rows per vendor id (0: no vendor), over all rows. */
export async function countModelsByVendor(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('models')
    .select(['vendor_id', (eb) => eb.fn.countAll<string | number>().as('n')])
    .groupBy('vendor_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.vendor_id), Number(r.n)]));
}

/** Gives every model of a vendor no vendor (the vendor is being deleted). */
export const detachVendor = (db: Db, vendorId: number) =>
  db.updateTable('models').set({ vendor_id: 0 }).where('vendor_id', '=', vendorId).execute();

/** Names of models with metadata among `names` (exact names only). */
export async function describedNames(db: Db, names: string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const rows = await db.selectFrom('models').select('model_name').where('model_name', 'in', names).execute();
  return new Set(rows.map((r) => r.model_name));
}

/** Models some enabled ability of an existing channel serves, with the channel and the group. */
export const listServedModels = (db: Db) =>
  db
    .selectFrom('abilities')
    .innerJoin('channels', 'channels.id', 'abilities.channel_id')
    .select([
      'abilities.model as model',
      'abilities.group as group',
      'channels.name as channelName',
      'channels.type as channelType',
    ])
    .distinct()
    .where('abilities.enabled', '=', 1)
    .orderBy('abilities.model')
    .execute();
