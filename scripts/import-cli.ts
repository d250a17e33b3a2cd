import { loadConfig } from '../server/config.ts';
import { migrateToLatest, openDatabase } from '../server/db/index.ts';
import { importDatabase } from '../server/domains/importer/import-database.service.ts';
import type { Flavor } from '../server/domains/importer/source.repo.ts';

/**
 * The import command: `npm run import -- <db> [--from new-api|one-api]`, and the single executable's
 * `switchyard import <db>`. Imports into the database Switchyard is configured with (SQL_DSN /
 * DATA_DIR), idempotently. Resolves with the process exit code.
 */
export async function runImport(argv: string[], usage: string): Promise<number> {
  const args = [...argv];
  const fromIndex = args.indexOf('--from');
  const flavor = fromIndex >= 0 ? (args.splice(fromIndex, 2)[1] as Flavor) : undefined;
  const file = args[0];
  if (!file || (flavor && flavor !== 'new-api' && flavor !== 'one-api')) {
    console.error(`usage: ${usage} <one-api.db> [--from new-api|one-api]`);
    return 2;
  }

  const config = loadConfig();
  const handle = openDatabase(config);
  try {
    await migrateToLatest(handle.db);
    const report = await importDatabase(handle.db, file, flavor);
    console.log(`Imported ${file} (${report.flavor}) into ${config.database.dialect}:`);
    console.table(
      Object.fromEntries(
        Object.entries(report.tables).map(([t, r]) => [
          t,
          { inserted: r.inserted, updated: r.updated, skipped: r.skipped.length },
        ]),
      ),
    );
    for (const [t, r] of Object.entries(report.tables))
      for (const s of r.skipped) console.log(`  skipped ${t} #${String(s.id)}: ${s.reason}`);
    console.log(`abilities derived: ${report.abilities}`);
    console.log('Restart running gateway instances so their caches load the imported data.');
    return 0;
  } catch (err) {
    console.error(`Import failed, nothing was changed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await handle.close();
  }
}
