import { sql } from 'kysely';
import type { Db } from '../../db/types.ts';

/* Queries of the invite (affiliate) balance. No rules here. */

export const findAffInfo = (db: Db, userId: number) =>
  db
    .selectFrom('users')
    .select(['aff_code', 'aff_count', 'aff_quota', 'aff_history_quota'])
    .where('id', '=', userId)
    .executeTakeFirst();

/** Sets the code only when still empty, so two concurrent first visits agree on one code. */
export async function setAffCodeIfMissing(db: Db, userId: number, code: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ aff_code: code })
    .where('id', '=', userId)
    .where('aff_code', 'is', null)
    .execute();
}

export async function affCodeTaken(db: Db, code: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('aff_code', '=', code).executeTakeFirst()) !== undefined;
}

/**
 * Moves `quota` from aff_quota to quota in one conditional statement: two concurrent
 * transfers can never spend the same invite quota twice. False when the balance is short.
 */
export async function moveAffQuota(db: Db, userId: number, quota: number): Promise<boolean> {
  const res = await db
    .updateTable('users')
    .set({ aff_quota: sql<number>`aff_quota - ${quota}`, quota: sql<number>`quota + ${quota}` })
    .where('id', '=', userId)
    .where('aff_quota', '>=', quota)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
