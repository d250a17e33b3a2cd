import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.ts';
import { finishImport, siteAddressOf } from './finish.repo.ts';
import { detectShape, type ShapeKind } from './schema.rules.ts';
import { type ImportSource, openImportSource, type SourceDialect } from './sources/source.repo.ts';
import { tableImporters } from './tables/index.ts';
import type { ImportContext, Skipped, TableImporter } from './tables/types.ts';

/*
 * Runs an import from a new-api / one-api database (issue 42), for the command and the console alike. Each table
 * is read in keyset batches and each batch written in a transaction of its own, so memory stays flat whatever the
 * size and a failure leaves whole batches behind and a state a second run completes (rows are upserted by id).
 * A dry run does the very same work in transactions rolled back: exact counts, nothing written. The closing
 * balance check compares the users' quota and the subscriptions' remaining quota of the source with what the
 * target holds for the same rows.
 */

export interface TableReport {
  read: number;
  imported: number;
  skipped: Skipped[];
}

export interface BalanceSums {
  users: number;
  subscriptions: number;
}

export interface ImportReport {
  shape: ShapeKind;
  dialect: SourceDialect;
  dryRun: boolean;
  tables: Record<string, TableReport>;
  notes: string[];
  balance: { before: BalanceSums; after: BalanceSums; ok: boolean };
  /** Abilities derived from the imported channels. */
  abilities: number;
  /** Set when a table failed: the batches before it stay written; running again completes the import. */
  failure?: { table: string; message: string };
}

export interface ImportProgress {
  table: string;
  done: number;
  total: number;
}

export interface RunImportOptions {
  source: ImportSource;
  dryRun?: boolean;
  /** Also copy the usage logs (tables marked `logs`). */
  logs?: boolean;
  onProgress?: (p: ImportProgress) => void;
  /** The tables to run (default: every table of tables/index.ts); tests pass their own. */
  importers?: TableImporter[];
  /** The server's SESSION_SECRET (two-factor secrets are sealed with it). */
  sessionSecret?: string;
  /** The site address passkeys were registered for here (default: this install's ServerAddress option). */
  siteAddress?: string;
}

/** A refusal before anything is written (unknown shape, a required table absent). */
export class ImportRefused extends Error {}

/** Thrown inside a dry run's transaction to roll it back after the batch is counted. */
class RollBack extends Error {
  constructor(readonly value: unknown) {
    super('dry run');
  }
}

async function inTransaction<T>(
  db: Kysely<Database>,
  dryRun: boolean,
  run: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction().execute(async (trx) => {
      const value = await run(trx);
      if (dryRun) throw new RollBack(value);
      return value;
    });
  } catch (err) {
    if (err instanceof RollBack) return err.value as T;
    throw err;
  }
}

export async function runImport(db: Kysely<Database>, options: RunImportOptions): Promise<ImportReport> {
  const { source, dryRun = false, logs = false, onProgress } = options;
  const importers = options.importers ?? tableImporters;
  const tables = await source.describe();
  const shape = detectShape(tables);
  if ('refusal' in shape) throw new ImportRefused(shape.refusal);
  const missing = importers.filter((t) => !t.optional && !tables.has(t.sourceTable)).map((t) => t.sourceTable);
  if (missing.length) throw new ImportRefused(`table ${missing.join(', ')} is missing from the source`);

  const notes: string[] = [];
  const note = (line: string) => {
    if (!notes.includes(line)) notes.push(line);
  };
  const report: ImportReport = {
    shape: shape.kind,
    dialect: source.dialect,
    dryRun,
    tables: {},
    notes,
    balance: { before: { users: 0, subscriptions: 0 }, after: { users: 0, subscriptions: 0 }, ok: true },
    abilities: 0,
  };
  const siteAddress = options.siteAddress || (await siteAddressOf(db));

  for (const importer of importers) {
    if (importer.logs && !logs) {
      if (tables.has(importer.sourceTable)) note(`${importer.name}: not copied (add --logs to copy them)`);
      continue;
    }
    const columns = tables.get(importer.sourceTable);
    if (!columns) {
      note(`${importer.name}: the source has no ${importer.sourceTable} table, nothing to copy`);
      continue;
    }
    const ctx: ImportContext = {
      shape: shape.kind,
      dialect: source.dialect,
      columns,
      tables,
      source,
      note,
      dryRun,
      siteAddress,
      sessionSecret: options.sessionSecret,
    };
    const entry: TableReport = { read: 0, imported: 0, skipped: [] };
    report.tables[importer.name] = entry;
    const total = await source.count(importer.sourceTable);
    onProgress?.({ table: importer.name, done: 0, total });
    try {
      for await (const rows of source.batches(importer.sourceTable, {
        size: importer.batchSize ?? 500,
        orderBy: importer.orderBy ?? 'id',
      })) {
        const { result, after } = await inTransaction(db, dryRun, async (trx) => {
          const result = await importer.importBatch(trx, rows, ctx);
          // A skipped row's money did not arrive, whatever the target holds under its id.
          const skipped = new Set(result.skipped.map((k) => String(k.id)));
          const landed = skipped.size ? rows.filter((r) => !skipped.has(String(r.id))) : rows;
          const after = importer.balance ? await importer.balance.target(trx, landed) : 0;
          return { result, after };
        });
        entry.read += rows.length;
        entry.imported += result.imported;
        entry.skipped.push(...result.skipped);
        if (importer.balance) {
          const kind = importer.balance.kind;
          report.balance.before[kind] += rows.reduce((sum, r) => sum + importer.balance!.source(r), 0);
          report.balance.after[kind] += after;
        }
        onProgress?.({ table: importer.name, done: entry.read, total: Math.max(total, entry.read) });
      }
      if (importer.finish) await inTransaction(db, dryRun, (trx) => importer.finish!(trx, ctx));
    } catch (err) {
      report.failure = { table: importer.name, message: err instanceof Error ? err.message : String(err) };
      break;
    }
  }
  if (!report.failure) report.abilities = await inTransaction(db, dryRun, (trx) => finishImport(trx));
  // Each batch of a dry run is rolled back, so the channels are not there to derive from.
  if (dryRun) note('abilities: derived from the imported channels by the real import (this count is what is here now)');
  const { before, after } = report.balance;
  report.balance.ok = !report.failure && before.users === after.users && before.subscriptions === after.subscriptions;
  return report;
}

/** Opens `spec` (a SQLite file, a URL or new-api's SQL_DSN), imports from it and closes it. */
export async function importFromSpec(
  db: Kysely<Database>,
  spec: string,
  options: Omit<RunImportOptions, 'source'> = {},
): Promise<ImportReport> {
  const source = await openImportSource(spec);
  try {
    return await runImport(db, { ...options, source });
  } finally {
    await source.close();
  }
}
