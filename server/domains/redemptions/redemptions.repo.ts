import { type Expression, type ExpressionBuilder, type Insertable, type SqlBool, sql, type Updateable } from 'kysely';
import { RedemptionStatus } from '../../../shared/constants.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Db, Database } from '../../db/types.ts';

/* Kysely queries on redemption codes and their uses. No rules here. */

type NewRedemption = Insertable<Database['redemptions']>;
type RedemptionPatch = Updateable<Database['redemptions']>;

const live = (db: Db) => db.selectFrom('redemptions').where('deleted_at', 'is', null);

/** Numeric keywords match an id or a name prefix; others a name prefix (as new-api). */
function keywordFilter(keyword: string) {
  const pattern = `${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return (eb: ExpressionBuilder<Database, 'redemptions'>): Expression<SqlBool> => {
    const byName = sql<SqlBool>`${eb.ref('name')} like ${pattern} escape '\\'`;
    return /^\d{1,15}$/.test(keyword) ? eb.or([eb('id', '=', Number(keyword)), byName]) : byName;
  };
}

export async function listRedemptions(db: Db, keyword: string, offset: number, limit: number) {
  const base = keyword === '' ? live(db) : live(db).where(keywordFilter(keyword));
  const [items, total] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(total.n) };
}

/** The usernames of the given user ids (deleted accounts included: a code's redeemer stays on record). */
export async function usernamesByIds(db: Db, ids: number[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id) => id > 0))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, r.username]));
}

export const findRedemptionById = (db: Db, id: number) => live(db).selectAll().where('id', '=', id).executeTakeFirst();

export const findRedemptionByKey = (db: Db, key: string) =>
  live(db).selectAll().where('key', '=', key).executeTakeFirst();

/** Deleted rows count too: the unique index on key covers them. */
export const keyExists = async (db: Db, key: string) =>
  (await db.selectFrom('redemptions').select('id').where('key', '=', key).executeTakeFirst()) !== undefined;

export const insertRedemptions = (db: Db, rows: NewRedemption[]) => db.insertInto('redemptions').values(rows).execute();

export async function updateRedemption(db: Db, id: number, patch: RedemptionPatch, onlyStatus?: number) {
  let q = db.updateTable('redemptions').set(patch).where('id', '=', id).where('deleted_at', 'is', null);
  if (onlyStatus !== undefined) q = q.where('status', '=', onlyStatus);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function softDeleteRedemptions(db: Db, where: { id?: number; name?: string; status?: number }) {
  let q = db.updateTable('redemptions').set({ deleted_at: nowSeconds() }).where('deleted_at', 'is', null);
  if (where.id !== undefined) q = q.where('id', '=', where.id);
  if (where.name !== undefined) q = q.where('name', '=', where.name);
  if (where.status !== undefined) q = q.where('status', '=', where.status);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/**
 * DELETE /api/redemption/invalid: soft-deletes every code that can no longer be redeemed: used,
 * disabled, past its end (`valid_until`, new-api's `expired_time`), or a gift code out of uses.
 */
export async function softDeleteInvalidRedemptions(db: Db, now: number) {
  const r = await db
    .updateTable('redemptions')
    .set({ deleted_at: now })
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('status', 'in', [RedemptionStatus.Used, RedemptionStatus.Disabled]),
        eb.and([eb('valid_until', '!=', 0), eb('valid_until', '<', now)]),
        eb.and([eb('is_gift', '=', 1), eb('max_uses', '!=', -1), eb('used_count', '>=', eb.ref('max_uses'))]),
      ]),
    )
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function disableRedemptions(db: Db, ids: number[]) {
  const r = await db
    .updateTable('redemptions')
    .set({ status: RedemptionStatus.Disabled })
    .where('id', 'in', ids)
    .where('status', '=', RedemptionStatus.Unused)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function countRedemptionsByName(db: Db, name: string) {
  const r = await live(db)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/*
 * Redeeming. Each step is one conditional statement whose affected-row count
 * decides the race, so two requests can never both pass (SQLite and PostgreSQL).
 */

/** A single-use code: only the request that flips it from unused to used wins. */
export async function claimSingleUse(db: Db, id: number, userId: number, now: number) {
  const r = await db
    .updateTable('redemptions')
    .set((eb) => ({
      status: RedemptionStatus.Used,
      used_user_id: userId,
      redeemed_time: now,
      used_count: eb('used_count', '+', 1),
    }))
    .where('id', '=', id)
    .where('status', '=', RedemptionStatus.Unused)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A gift code: one more use while it is unused and below max_uses (-1 = unlimited). */
export async function claimGiftUse(db: Db, id: number, userId: number, now: number) {
  const r = await db
    .updateTable('redemptions')
    .set((eb) => ({ used_count: eb('used_count', '+', 1), used_user_id: userId, redeemed_time: now }))
    .where('id', '=', id)
    .where('status', '=', RedemptionStatus.Unused)
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('max_uses', '=', -1), eb('used_count', '<', eb.ref('max_uses'))]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export const hasUsedGift = async (db: Db, redemptionId: number, userId: number) =>
  (await db
    .selectFrom('redemption_uses')
    .select('id')
    .where('redemption_id', '=', redemptionId)
    .where('user_id', '=', userId)
    .executeTakeFirst()) !== undefined;

/** The unique (redemption_id, user_id) index makes a second use by the same user fail here. */
export const insertGiftUse = (db: Db, redemptionId: number, userId: number, quota: number, now: number) =>
  db
    .insertInto('redemption_uses')
    .values({ redemption_id: redemptionId, user_id: userId, quota, created_time: now })
    .execute();
