import type { Db } from '../../../db/types.ts';
import type { ShapeKind } from '../schema.rules.ts';
import type { ImportSource, Row, SourceDialect } from '../sources/source.repo.ts';

/*
 * The contract every table of an import implements (issue 42): one source table mapped onto Switchyard's,
 * upserted by id so running twice changes nothing. The runner (import.service.ts) reads the source in keyset
 * batches and calls `importBatch` once per batch inside its own transaction (rolled back on a dry run).
 */

export type { Row };

export interface Skipped {
  id: unknown;
  reason: string;
}

export interface BatchResult {
  /** Rows written (inserted or updated) in the target. */
  imported: number;
  /** Rows left out, each with the sentence the report shows. */
  skipped: Skipped[];
}

export interface ImportContext {
  shape: ShapeKind;
  dialect: SourceDialect;
  /** The source table's columns (a column a schema lacks reads as undefined). */
  columns: Set<string>;
  /** Every source table and its columns. */
  tables: Map<string, Set<string>>;
  /** The source itself, for a lookup in another table (a plan's reset rule...). */
  source: ImportSource;
  /** A line for the closing report's notes (said once: the runner drops repeats). */
  note: (line: string) => void;
  dryRun: boolean;
  /** Switchyard's site address (ServerAddress), for passkeys' RP id; empty when not set. */
  siteAddress: string;
  /** The server's SESSION_SECRET: two-factor secrets are sealed with it (absent: they are skipped with a reason). */
  sessionSecret?: string;
}

/** What a table adds to the balance check: the source's amount of a row, and what the target holds for them. */
export interface BalanceContribution {
  kind: 'users' | 'subscriptions';
  /** The row's amount in the source (users: quota; subscriptions: amount_total - amount_used). */
  source: (row: Row) => number;
  /** The same amount as the target holds it for these source rows, after the batch (same transaction). */
  target: (trx: Db, rows: Row[]) => Promise<number>;
}

export interface TableImporter {
  /** The report's name for it (usually the target table). */
  name: string;
  sourceTable: string;
  /** An absent source table is skipped with a note; a required one absent refuses the import. */
  optional: boolean;
  /** Imported only with `--logs` (usage logs). */
  logs?: boolean;
  /** Keyset column (default `id`). */
  orderBy?: string;
  /** Rows per batch (default 500). */
  batchSize?: number;
  importBatch(trx: Db, rows: Row[], ctx: ImportContext): Promise<BatchResult>;
  balance?: BalanceContribution;
  /** After the table's last batch, in a transaction of its own (sequences, derived rows); dry runs too. */
  finish?(trx: Db, ctx: ImportContext): Promise<void>;
}
