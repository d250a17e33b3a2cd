import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { runImport } from './import.service.ts';
import { openImportSource } from './sources/source.repo.ts';

/*
 * What the console's import is built from (issue 42): the same runner as `npm run import`, opened on the
 * operator's source and closed after, whatever happens.
 */

export interface ImportProgress {
  table: string;
  done: number;
  total: number;
}

export interface ImportRunSpec {
  /** A SQLite path, mysql://, postgres:// or new-api's SQL_DSN. */
  source: string;
  dryRun: boolean;
  logs: boolean;
  /** The gateway's SESSION_SECRET: imported two-factor secrets are sealed with it, as the gateway reads them. */
  sessionSecret: string;
  onProgress: (p: ImportProgress) => void;
}

export type ConsoleImportReport = Awaited<ReturnType<typeof runImport>>;
export type ImportRunner = (db: Kysely<Database>, spec: ImportRunSpec) => Promise<ConsoleImportReport>;

export const importRunner: ImportRunner = async (db, spec) => {
  const source = await openImportSource(spec.source);
  try {
    return await runImport(db, {
      source,
      dryRun: spec.dryRun,
      logs: spec.logs,
      sessionSecret: spec.sessionSecret,
      onProgress: spec.onProgress,
    });
  } finally {
    await source.close();
  }
};
