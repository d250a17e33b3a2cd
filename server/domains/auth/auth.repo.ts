import type { Db } from '../../db/types.ts';
import { nowSeconds } from '../../db/time.ts';

/* Queries of the sign-in flows (login lookup, verification codes, provider bindings). No rules here. */

export type ProviderColumn = 'github_id' | 'oidc_id' | 'wechat_id' | 'telegram_id' | 'linux_do_id';

export async function insertCode(db: Db, purpose: string, target: string, code: string, ttlS: number) {
  const now = nowSeconds();
  await db
    .insertInto('verification_codes')
    .values({ purpose, target, code, created_at: now, expires_at: now + ttlS, used_at: null })
    .execute();
}

/** Takes back a code whose mail could not be sent (nobody can ever type it). */
export async function deleteCode(db: Db, purpose: string, target: string, code: string) {
  await db
    .deleteFrom('verification_codes')
    .where('purpose', '=', purpose)
    .where('target', '=', target)
    .where('code', '=', code)
    .execute();
}

/** Login accepts the username or the e-mail address; soft-deleted users never sign in. */
export async function findLiveUserByLogin(db: Db, name: string) {
  const base = db.selectFrom('users').selectAll().where('deleted_at', 'is', null);
  return (
    (await base.where('username', '=', name).executeTakeFirst()) ??
    (name.includes('@') ? await base.where('email', '=', name).executeTakeFirst() : undefined)
  );
}

/** Any row holding the id, soft-deleted ones included (an id once bound stays taken, like usernames). */
export const findUserByProviderId = (db: Db, column: ProviderColumn, id: string) =>
  db
    .selectFrom('users')
    .select(['id', 'username', 'display_name', 'role', 'status', 'group', 'deleted_at'])
    .where(column, '=', id)
    .executeTakeFirst();

export const findLiveUserByEmail = (db: Db, email: string) =>
  db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('email', '=', email)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

export async function setProviderId(db: Db, userId: number, column: ProviderColumn, id: string) {
  await db
    .updateTable('users')
    .set({ [column]: id })
    .where('id', '=', userId)
    .execute();
}

export const maxUserId = async (db: Db) =>
  Number(
    (
      await db
        .selectFrom('users')
        .select((eb) => eb.fn.max('id').as('m'))
        .executeTakeFirst()
    )?.m ?? 0,
  );

/** Consumes an unused, unexpired code; true when this call got it (a code is good once). */
export async function consumeVerificationCode(db: Db, purpose: string, target: string, code: string) {
  const now = nowSeconds();
  const res = await db
    .updateTable('verification_codes')
    .set({ used_at: now })
    .where('purpose', '=', purpose)
    .where('target', '=', target)
    .where('code', '=', code)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
