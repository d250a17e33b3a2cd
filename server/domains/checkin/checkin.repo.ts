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

/** One user's check-ins between two calendar days (inclusive, YYYY-MM-DD), newest first. */
export const listCheckIns = (db: Db, userId: number, fromDay: string, toDay: string) =>
  db
    .selectFrom('check_ins')
    .select(['day', 'quota'])
    .where('user_id', '=', userId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .orderBy('day', 'desc')
    .execute();

/** How many times a user ever checked in and what it brought (one indexed aggregate). */
export async function checkInTotals(db: Db, userId: number): Promise<{ count: number; quota: number }> {
  const row = await db
    .selectFrom('check_ins')
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string | null>('quota').as('q')])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), quota: Number(row?.q ?? 0) };
}
