import type { Insertable } from 'kysely';
import type { Db } from '../../db/types.ts';
import type { PasskeyCredentialsTable } from './passkeys.table.ts';

export type NewPasskey = Insertable<PasskeyCredentialsTable>;

/** A user's passkey (one per user, as in new-api); undefined when none is registered. */
export const findPasskeyOfUser = (db: Db, userId: number) =>
  db
    .selectFrom('passkey_credentials')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .executeTakeFirst();

export const findPasskeyByCredentialId = (db: Db, credentialId: string) =>
  db.selectFrom('passkey_credentials').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();

/** Registering replaces whatever passkey the user had: one transaction, so the user never has none halfway. */
export async function replacePasskey(db: Db, row: NewPasskey): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('passkey_credentials').where('user_id', '=', row.user_id).execute();
    await tx.insertInto('passkey_credentials').values(row).execute();
  });
}

/**
 * Records a successful use. The counter only moves forward: a concurrent use that already stored a higher
 * count wins (0 stays 0 for authenticators that do not count). Answers whether the row was updated.
 */
export async function recordPasskeyUse(db: Db, id: number, signCount: number, usedAt: number): Promise<boolean> {
  const r = await db
    .updateTable('passkey_credentials')
    .set({ sign_count: signCount, last_used_at: usedAt })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('sign_count', '<', signCount), eb('sign_count', '=', 0)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Answers how many passkeys were removed. */
export async function deletePasskeysOfUser(db: Db, userId: number): Promise<number> {
  const r = await db.deleteFrom('passkey_credentials').where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Stores a ceremony's challenge, replacing an older one of the same browser and purpose; sweeps expired ones. */
export async function putChallenge(
  db: Db,
  row: { id: string; user_id: number; challenge: string; expires_at: number },
  now: number,
): Promise<void> {
  await db
    .deleteFrom('passkey_challenges')
    .where((eb) => eb.or([eb('id', '=', row.id), eb('expires_at', '<=', now)]))
    .execute();
  await db.insertInto('passkey_challenges').values(row).execute();
}

/**
 * Takes a challenge out: whoever deletes the row owns it, so two finishes racing on one challenge cannot both
 * use it. Expired rows are not returned.
 */
export async function takeChallenge(db: Db, id: string, now: number) {
  const row = await db.selectFrom('passkey_challenges').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const r = await db
    .deleteFrom('passkey_challenges')
    .where('id', '=', id)
    .where('challenge', '=', row.challenge)
    .executeTakeFirst();
  if (Number(r.numDeletedRows) === 0 || row.expires_at <= now) return undefined;
  return row;
}
