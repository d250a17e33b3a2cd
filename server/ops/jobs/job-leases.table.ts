import type { Defaulted } from '../../db/columns.ts';

/* The rows of `job_leases` (joined into `Database` by server/db/types.ts). */

/** A background job's lease and last start (server/ops/jobs). */
export interface JobLeasesTable {
  name: string;
  holder: Defaulted<string>;
  locked_until: Defaulted<number>;
  last_started_at: Defaulted<number>;
}
