import type { Db } from './types.ts';

/** Runs `run` in the caller's transaction when `db` is one, else in a new one. */
export const inTransaction = <T>(db: Db, run: (trx: Db) => Promise<T>): Promise<T> =>
  db.isTransaction ? run(db) : db.transaction().execute(run);
