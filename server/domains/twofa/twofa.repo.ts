import type { Db } from '../../db/types.ts';

/* Two-factor rows: the TOTP setup, backup codes, pending second steps and verified sessions. */

export const findTwoFa = (db: Db, userId: number) =>
  db.selectFrom('two_fa').selectAll().where('user_id', '=', userId).executeTakeFirst();

/** A fresh setup replaces any earlier one (setup is refused while one is on: see the service). */
export async function replaceTwoFaSetup(db: Db, userId: number, secret: string, codeHashes: string[], now: number) {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('two_fa').where('user_id', '=', userId).execute();
    await trx.deleteFrom('two_fa_backup_codes').where('user_id', '=', userId).execute();
    await trx.insertInto('two_fa').values({ user_id: userId, secret, created_at: now, updated_at: now }).execute();
    await insertCodes(trx, userId, codeHashes, now);
  });
}

const insertCodes = (db: Db, userId: number, codeHashes: string[], now: number) =>
  db
    .insertInto('two_fa_backup_codes')
    .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: now })))
    .execute();

export async function replaceBackupCodes(db: Db, userId: number, codeHashes: string[], now: number) {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('two_fa_backup_codes').where('user_id', '=', userId).execute();
    await insertCodes(trx, userId, codeHashes, now);
  });
}

/** Turns a pending setup on; false when there was none or it is on already. */
export const enableTwoFa = async (db: Db, userId: number, now: number) =>
  (
    await db
      .updateTable('two_fa')
      .set({ is_enabled: 1, failed_attempts: 0, locked_until: 0, updated_at: now })
      .where('user_id', '=', userId)
      .where('is_enabled', '=', 0)
      .executeTakeFirst()
  ).numUpdatedRows > 0n;

/** Deletes the setup and its codes; the number of setups deleted (0 or 1). */
export async function deleteTwoFa(db: Db, userId: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('two_fa_backup_codes').where('user_id', '=', userId).execute();
    const r = await trx.deleteFrom('two_fa').where('user_id', '=', userId).executeTakeFirst();
    return Number(r.numDeletedRows);
  });
}

/**
 * Accepts a TOTP code of time step `step` once: the row moves only forward, so the same code (or an
 * older one) sent twice, even at the same moment, is accepted by one call only.
 */
export const acceptTotpStep = async (db: Db, userId: number, step: number, now: number) =>
  (
    await db
      .updateTable('two_fa')
      .set({ last_step: step, failed_attempts: 0, locked_until: 0, last_used_at: now, updated_at: now })
      .where('user_id', '=', userId)
      .where('last_step', '<', step)
      .executeTakeFirst()
  ).numUpdatedRows > 0n;

/**
 * Spends one unused backup code of this user, found by its hash (Switchyard's own) or its id (one brought from
 * new-api, matched by bcrypt); false when it is not an unused code of theirs (or was spent meanwhile).
 */
export async function spendBackupCode(
  db: Db,
  userId: number,
  code: { hash: string } | { id: number },
  now: number,
): Promise<boolean> {
  const r = await db
    .updateTable('two_fa_backup_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .$if('hash' in code, (q) => q.where('code_hash', '=', (code as { hash: string }).hash))
    .$if('id' in code, (q) => q.where('id', '=', (code as { id: number }).id))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (r.numUpdatedRows === 0n) return false;
  await db
    .updateTable('two_fa')
    .set({ failed_attempts: 0, locked_until: 0, last_used_at: now, updated_at: now })
    .where('user_id', '=', userId)
    .execute();
  return true;
}

/**
 * The unused backup codes of this user brought from new-api (bcrypt hashes, issue 42): a handful at most,
 * each compared in turn, since a salted hash cannot be looked up.
 */
export const unusedImportedBackupCodes = (db: Db, userId: number) =>
  db
    .selectFrom('two_fa_backup_codes')
    .select(['id', 'code_hash'])
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('code_hash', 'like', '$2%')
    .execute();

/** Counts a wrong code; the count reaching `max` locks until `lockUntil`. */
export async function countFailure(db: Db, userId: number, max: number, lockUntil: number, now: number) {
  await db
    .updateTable('two_fa')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1), updated_at: now }))
    .where('user_id', '=', userId)
    .execute();
  await db
    .updateTable('two_fa')
    .set({ locked_until: lockUntil, failed_attempts: 0 })
    .where('user_id', '=', userId)
    .where('failed_attempts', '>=', max)
    .execute();
}

export const countUnusedBackupCodes = async (db: Db, userId: number) =>
  Number(
    (
      await db
        .selectFrom('two_fa_backup_codes')
        .select((e) => e.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Live (not deleted) users, and those of them with two-factor on. */
export async function twoFaCounts(db: Db): Promise<{ total: number; enabled: number }> {
  const total = await db
    .selectFrom('users')
    .select((e) => e.fn.countAll().as('n'))
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  const enabled = await db
    .selectFrom('two_fa')
    .innerJoin('users', 'users.id', 'two_fa.user_id')
    .select((e) => e.fn.countAll().as('n'))
    .where('two_fa.is_enabled', '=', 1)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { total: Number(total.n), enabled: Number(enabled.n) };
}

/* Pending second steps of sign-in. Inserting one sweeps the expired ones, so the table stays small. */

export async function insertPendingLogin(
  db: Db,
  row: { id: string; user_id: number; expires_at: number },
  now: number,
) {
  await db.deleteFrom('two_fa_pending_logins').where('expires_at', '<=', now).execute();
  await db.insertInto('two_fa_pending_logins').values(row).execute();
}

export const findPendingLogin = (db: Db, id: string, now: number) =>
  db
    .selectFrom('two_fa_pending_logins')
    .selectAll()
    .where('id', '=', id)
    .where('expires_at', '>', now)
    .executeTakeFirst();

/** Single use: true for the one call that deleted it. */
export const takePendingLogin = async (db: Db, id: string) =>
  (await db.deleteFrom('two_fa_pending_logins').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n;

/* Sessions verified by POST /api/verify. */

export async function putSessionVerification(
  db: Db,
  row: { session_id: string; user_id: number; method: string; expires_at: number },
  now: number,
) {
  await db.deleteFrom('session_verifications').where('expires_at', '<=', now).execute();
  await db
    .insertInto('session_verifications')
    .values(row)
    .onConflict((oc) =>
      oc.column('session_id').doUpdateSet({ user_id: row.user_id, method: row.method, expires_at: row.expires_at }),
    )
    .execute();
}

export const findSessionVerification = (db: Db, sessionId: string, userId: number, now: number) =>
  db
    .selectFrom('session_verifications')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
