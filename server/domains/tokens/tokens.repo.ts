import { type Insertable, sql, type Updateable } from 'kysely';
import type { Db } from '../../db/types.ts';
import type { TokensTable } from './tokens.table.ts';

/* Token queries. Soft-deleted tokens (deleted_at set) are invisible to every query here. */

export type NewToken = Insertable<TokensTable>;
export type TokenPatch = Updateable<TokensTable>;

const likePattern = (v: string) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const live = (db: Db) => db.selectFrom('tokens').selectAll().where('deleted_at', 'is', null);

export const findUserToken = (db: Db, userId: number, id: number) =>
  live(db).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();

/** The relay's lookup: a live token by its key (without `sk-`). */
export const findTokenByKey = (db: Db, key: string) => live(db).where('key', '=', key).executeTakeFirst();

export interface TokenFilter {
  keyword?: string;
  key?: string;
}

function filtered(db: Db, userId: number, f: TokenFilter) {
  let query = live(db).where('user_id', '=', userId);
  if (f.keyword) query = query.where(sql<boolean>`name like ${likePattern(f.keyword)} escape '\\'`);
  if (f.key) query = query.where(sql<boolean>`${sql.ref('key')} like ${likePattern(f.key)} escape '\\'`);
  return query;
}

export const listUserTokens = (db: Db, userId: number, f: TokenFilter, offset: number, limit: number) =>
  filtered(db, userId, f).orderBy('id', 'desc').offset(offset).limit(limit).execute();

export const countUserTokens = async (db: Db, userId: number, f: TokenFilter) =>
  Number(
    (
      await filtered(db, userId, f)
        .clearSelect()
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The caller's live tokens among `ids` (others' ids simply do not match). */
export const listUserTokensByIds = (db: Db, userId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('tokens')
        .select(['id', 'key'])
        .where('deleted_at', 'is', null)
        .where('user_id', '=', userId)
        .where('id', 'in', ids)
        .execute();

export const insertToken = async (db: Db, row: NewToken) =>
  (await db.insertInto('tokens').values(row).returning('id').executeTakeFirstOrThrow()).id;

export const updateUserToken = (db: Db, userId: number, id: number, patch: TokenPatch) =>
  db
    .updateTable('tokens')
    .set(patch)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
    .then((r) => Number(r.numUpdatedRows));

/** Soft delete; answers the keys that were deleted (the relay's cache is keyed by them). */
export const softDeleteUserTokens = (db: Db, userId: number, ids: number[], now: number) =>
  db
    .updateTable('tokens')
    .set({ deleted_at: now })
    .where('user_id', '=', userId)
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .returning('key')
    .execute()
    .then((rows) => rows.map((r) => r.key));

/** The relay's status change of an expired or exhausted token (it publishes on the bus). */
export const setTokenStatus = (db: Db, id: number, status: number) =>
  db
    .updateTable('tokens')
    .set({ status })
    .where('id', '=', id)
    .execute()
    .then(() => undefined);

export const keyExists = async (db: Db, key: string) =>
  (await db.selectFrom('tokens').select('id').where('key', '=', key).executeTakeFirst()) !== undefined;
