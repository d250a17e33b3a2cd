import { sql } from 'kysely';
import type { Db } from './types.ts';

/** The cheapest round trip to the database: readiness probes ask whether it answers at all. */
export const pingDatabase = (db: Db) => sql`select 1`.execute(db).then(() => undefined);
