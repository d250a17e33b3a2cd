import type { Db } from '../../db/types.ts';

/** What a quota warning needs to know about its recipient. */
export const findWarningRecipient = (db: Db, userId: number) =>
  db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'setting'])
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
