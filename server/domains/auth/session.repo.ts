import type { Db } from '../../db/types.ts';

const authColumns = ['id', 'username', 'role', 'status', 'group'] as const;

/** The few columns authentication needs; soft-deleted users do not authenticate. */
export const findAuthUserById = (db: Db, id: number) =>
  db.selectFrom('users').select(authColumns).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();

export const findAuthUserByAccessToken = (db: Db, token: string) =>
  db
    .selectFrom('users')
    .select(authColumns)
    .where('access_token', '=', token)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

/** The user behind a live session id (expired sessions and deleted users do not count). */
export const findAuthUserBySession = (db: Db, sessionId: string, now: number) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.username', 'users.role', 'users.status', 'users.group'])
    .where('sessions.id', '=', sessionId)
    .where('sessions.expires_at', '>', now)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();

export const insertSession = (db: Db, row: { id: string; user_id: number; created_at: number; expires_at: number }) =>
  db.insertInto('sessions').values(row).execute();

export const deleteSession = (db: Db, id: string) => db.deleteFrom('sessions').where('id', '=', id).execute();

/** Also sweeps expired sessions of everyone, so the table never grows without bound. */
export const deleteUserSessions = (db: Db, userId: number, now: number) =>
  db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('expires_at', '<=', now)]))
    .execute();
