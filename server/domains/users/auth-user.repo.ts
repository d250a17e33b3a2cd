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
