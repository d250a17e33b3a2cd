import { sql } from 'kysely';
import type { Db, NewLog } from '../../db/types.ts';
import { insertLogs } from '../logs/insert-logs.repo.ts';

/* Queries of the daily check-in. No rules here. */

export async function hasCheckedIn(db: Db, userId: number, day: string): Promise<boolean> {
  const row = await db
    .selectFrom('check_ins')
    .select('id')
    .where('user_id', '=', userId)
    .where('day', '=', day)
    .executeTakeFirst();
  return row !== undefined;
}

/** The unique (user_id, day) index makes the second insert of a day fail: that is the once-a-day guarantee. */
export async function insertCheckIn(db: Db, userId: number, day: string, quota: number, now: number): Promise<void> {
  await db.insertInto('check_ins').values({ user_id: userId, day, quota, created_at: now }).execute();
}

export async function addUserQuota(db: Db, userId: number, quota: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ quota: sql<number>`quota + ${quota}` })
    .where('id', '=', userId)
    .execute();
}

export async function insertCheckInLog(db: Db, log: NewLog): Promise<void> {
  await insertLogs(db, [log]);
}

export const findUsername = async (db: Db, userId: number) =>
  (await db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst())?.username ?? '';
