import { sql } from 'kysely';
import { UserStatus } from '../../../shared/constants.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Db, NewLog } from '../../db/types.ts';
import type { NewUser, UserUpdate } from './users.table.ts';
import { insertLogs } from '../logs/insert-logs.repo.ts';

/* Kysely queries on users (and the few neighbouring rows the account flows write). No rules here. */

export const findUserById = (db: Db, id: number) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

export const findLiveUserById = (db: Db, id: number) =>
  db.selectFrom('users').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();

/** The columns a relayed call's principal is made of (relay/principal.ts toRelayUser), of a live user. */
export const findRelayUser = (db: Db, id: number) =>
  db
    .selectFrom('users')
    .select(['id', 'username', 'role', 'status', 'group', 'setting', 'quota'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

/** Soft-deleted rows count: a name or address once used stays taken. */
export async function usernameTaken(db: Db, username: string, exceptId = 0): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function emailTaken(db: Db, email: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  return row !== undefined;
}

export const findUserByAffCode = (db: Db, code: string) =>
  db.selectFrom('users').select(['id', 'username']).where('aff_code', '=', code).executeTakeFirst();

export async function rootExists(db: Db, rootRole: number): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('role', '>=', rootRole).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function insertUser(db: Db, user: NewUser): Promise<number> {
  const row = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateUser(db: Db, id: number, patch: UserUpdate): Promise<void> {
  await db.updateTable('users').set(patch).where('id', '=', id).execute();
}

/** Atomic quota change that never goes below zero; undefined when the user lacks the quota to remove. */
export async function addQuota(db: Db, id: number, delta: number): Promise<number | undefined> {
  const row = await db
    .updateTable('users')
    .set({ quota: sql<number>`quota + ${delta}` })
    .where('id', '=', id)
    .where(sql<boolean>`quota + ${delta} >= 0`)
    .returning('quota')
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.quota);
}

/** Invite reward for the inviter: kept in aff_quota until they move it to their balance. */
export async function creditInviter(db: Db, inviterId: number, quota: number): Promise<void> {
  await db
    .updateTable('users')
    .set({
      aff_count: sql<number>`aff_count + 1`,
      aff_quota: sql<number>`aff_quota + ${quota}`,
      aff_history_quota: sql<number>`aff_history_quota + ${quota}`,
    })
    .where('id', '=', inviterId)
    .execute();
}

/** Sets aff_code only when still empty, so two concurrent calls agree on one code. */
export async function setAffCodeIfMissing(db: Db, id: number, code: string): Promise<void> {
  await db.updateTable('users').set({ aff_code: code }).where('id', '=', id).where('aff_code', 'is', null).execute();
}

export async function affCodeTaken(db: Db, code: string): Promise<boolean> {
  return (await findUserByAffCode(db, code)) !== undefined;
}

export async function softDeleteUser(db: Db, id: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ deleted_at: nowSeconds(), status: UserStatus.Deleted })
    .where('id', '=', id)
    .execute();
}

/** Hard delete; the user's tokens go too, or they would outlive their owner. */
export async function hardDeleteUser(db: Db, id: number): Promise<void> {
  await db.deleteFrom('tokens').where('user_id', '=', id).execute();
  await db.deleteFrom('users').where('id', '=', id).execute();
}

export interface UserListFilter {
  keyword?: string;
  group?: string;
  offset: number;
  limit: number;
}

/** Admin list and search: soft-deleted users included, newest first. */
export async function listUsers(db: Db, f: UserListFilter) {
  let q = db.selectFrom('users');
  const kw = f.keyword?.trim() ?? '';
  if (kw !== '') {
    const like = `%${kw}%`;
    const id = /^\d+$/.test(kw) ? Number(kw) : undefined;
    q = q.where((eb) =>
      eb.or([
        eb('username', 'like', like),
        eb('email', 'like', like),
        eb('display_name', 'like', like),
        ...(id !== undefined && Number.isSafeInteger(id) ? [eb('id', '=', id)] : []),
      ]),
    );
  }
  if (f.group) q = q.where('group', '=', f.group);
  const [items, count] = await Promise.all([
    q.selectAll().orderBy('id', 'desc').limit(f.limit).offset(f.offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.n) };
}

export async function insertLog(db: Db, log: NewLog): Promise<void> {
  await insertLogs(db, [log]);
}

/** Whether first-run setup was recorded (status and the setup wizard read it). */
export const hasSetupRow = async (db: Db) =>
  (await db.selectFrom('setups').select('id').limit(1).executeTakeFirst()) !== undefined;

export async function insertSetupRow(db: Db, version: string): Promise<void> {
  await db.insertInto('setups').values({ version, initialized_at: nowSeconds() }).execute();
}

export async function insertUnlimitedToken(db: Db, userId: number, name: string, key: string): Promise<void> {
  await db
    .insertInto('tokens')
    .values({ user_id: userId, key, name, unlimited_quota: 1, expired_time: -1, created_time: nowSeconds() })
    .execute();
}

/** Distinct (group, model) pairs of enabled abilities: what each group's enabled channels serve. */
export const listEnabledGroupModels = (db: Db) =>
  db.selectFrom('abilities').select(['group', 'model']).distinct().where('enabled', '=', 1).execute();
