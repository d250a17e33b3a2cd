import type { Db } from '../../db/types.ts';

/*
 * The lease of a background job across instances (table job_leases). Each
 * statement is a single conditional UPDATE, so two instances racing for the
 * same run cannot both win, on SQLite or PostgreSQL alike. Times: unix seconds.
 */

/** Creates the job's row once; a row that exists already is left as it is. */
export async function ensureJobRow(db: Db, name: string): Promise<void> {
  await db
    .insertInto('job_leases')
    .values({ name })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

export const readJobRow = (db: Db, name: string) =>
  db
    .selectFrom('job_leases')
    .select(['holder', 'locked_until', 'last_started_at'])
    .where('name', '=', name)
    .executeTakeFirst();

/**
 * Takes the job for one run when nobody holds it and its last start is at least
 * `intervalSeconds` ago. True when this holder won the run.
 */
export async function claimJobRun(
  db: Db,
  claim: { name: string; holder: string; now: number; intervalSeconds: number; leaseSeconds: number },
): Promise<boolean> {
  const r = await db
    .updateTable('job_leases')
    .set({ holder: claim.holder, locked_until: claim.now + claim.leaseSeconds, last_started_at: claim.now })
    .where('name', '=', claim.name)
    .where('locked_until', '<=', claim.now)
    .where('last_started_at', '<=', claim.now - claim.intervalSeconds)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Extends a held lease while a long run goes on; false when this holder lost it. */
export async function renewJobLease(db: Db, name: string, holder: string, until: number): Promise<boolean> {
  const r = await db
    .updateTable('job_leases')
    .set({ locked_until: until })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Frees the lease after a run (the last start stays: it decides when the next run is due). */
export async function releaseJobLease(db: Db, name: string, holder: string): Promise<void> {
  await db
    .updateTable('job_leases')
    .set({ locked_until: 0 })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .execute();
}
