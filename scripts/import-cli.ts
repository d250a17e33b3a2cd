import { loadConfig } from '../server/config.ts';
import { migrateToLatest, openDatabase } from '../server/db/index.ts';
import {
  type ImportProgress,
  ImportRefused,
  type ImportReport,
  runImport as runImportService,
} from '../server/domains/importer/import.service.ts';
import { openImportSource } from '../server/domains/importer/sources/source.repo.ts';

/**
 * The import command: `npm run import -- <source> [--dry-run] [--logs] [--site-address URL]`, and the single
 * executable's `switchyard import <source>`. The source is a new-api / one-api SQLite file, a mysql:// or
 * postgres:// URL, or new-api's SQL_DSN as its .env holds it. Imports into the database Switchyard is configured with
 * (SQL_DSN / DATA_DIR), idempotently. Resolves with the exit code: 0 done and balanced, 1 failed or unbalanced, 2
 * bad arguments or a source refused.
 */

const quoteArg = (s: string) => (/[\s()]/.test(s) ? `'${s}'` : s);

export function parseImportArgs(
  argv: string[],
): { source: string; dryRun: boolean; logs: boolean; siteAddress?: string } | undefined {
  let source: string | undefined;
  let dryRun = false;
  let logs = false;
  let siteAddress: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dry-run') dryRun = true;
    else if (a === '--logs') logs = true;
    else if (a === '--site-address') siteAddress = argv[++i];
    // The shape is detected now; `--from` is accepted for old scripts and ignored.
    else if (a === '--from') i++;
    else if (a.startsWith('--')) return undefined;
    else if (source === undefined) source = a;
    else return undefined;
  }
  return source ? { source, dryRun, logs, siteAddress } : undefined;
}

/** A bar on a terminal, a line per table otherwise (CI logs, pipes). */
function progressPrinter(tty: boolean) {
  let current = '';
  let lastDraw = 0;
  return {
    update(p: ImportProgress) {
      if (tty) {
        const now = Date.now();
        if (p.done < p.total && now - lastDraw < 100 && p.table === current) return;
        lastDraw = now;
        const width = 30;
        const filled = p.total ? Math.round((p.done / p.total) * width) : width;
        process.stdout.write(
          `\r${p.table.padEnd(22)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.done}/${p.total}   `,
        );
        if (p.done >= p.total) process.stdout.write('\n');
      } else if (p.table !== current) console.log(`reading ${p.table} (${p.total} rows)`);
      current = p.table;
    },
  };
}

export function formatReport(report: ImportReport, label: string): string[] {
  const lines: string[] = [];
  const verb = report.dryRun ? 'Dry run (nothing written) of' : 'Imported';
  lines.push(`${verb} ${label} (${report.shape}, ${report.dialect}):`);
  const w = Math.max(5, ...Object.keys(report.tables).map((t) => t.length));
  lines.push(`  ${'table'.padEnd(w)}  ${'read'.padStart(9)}  ${'imported'.padStart(9)}  ${'skipped'.padStart(9)}`);
  for (const [t, r] of Object.entries(report.tables))
    lines.push(
      `  ${t.padEnd(w)}  ${String(r.read).padStart(9)}  ${String(r.imported).padStart(9)}  ${String(r.skipped.length).padStart(9)}`,
    );
  for (const [t, r] of Object.entries(report.tables)) {
    for (const s of r.skipped.slice(0, 50)) lines.push(`  skipped ${t} #${String(s.id)}: ${s.reason}`);
    if (r.skipped.length > 50) lines.push(`  … and ${r.skipped.length - 50} more skipped in ${t}`);
  }
  for (const n of report.notes) lines.push(`  note: ${n}`);
  lines.push(`  abilities derived: ${report.abilities}`);
  const { before, after, ok } = report.balance;
  lines.push(
    `  balance check: users' quota ${before.users} -> ${after.users}, subscriptions' remaining quota ${before.subscriptions} -> ${after.subscriptions}: ${ok ? 'OK' : 'MISMATCH'}`,
  );
  if (report.failure)
    lines.push(
      `  FAILED in ${report.failure.table}: ${report.failure.message}. The batches before it are written; fix the cause and run the same command again.`,
    );
  return lines;
}

export async function runImport(argv: string[], usage: string): Promise<number> {
  const args = parseImportArgs(argv);
  if (!args) {
    console.error(
      `usage: ${usage} <one-api.db | mysql://… | postgres://… | ${quoteArg('user:pass@tcp(host:3306)/db')}> [--dry-run] [--logs] [--site-address https://…]`,
    );
    return 2;
  }
  const config = loadConfig();
  let source;
  try {
    source = await openImportSource(args.source);
  } catch (err) {
    console.error(`Cannot read the source: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  const handle = openDatabase(config);
  const progress = progressPrinter(Boolean(process.stdout.isTTY));
  try {
    await migrateToLatest(handle.db);
    const report = await runImportService(handle.db, {
      source,
      dryRun: args.dryRun,
      logs: args.logs,
      onProgress: (p) => progress.update(p),
      sessionSecret: config.sessionSecret,
      siteAddress: args.siteAddress,
    });
    for (const line of formatReport(report, source.label)) console.log(line);
    if (!report.dryRun && !report.failure)
      console.log('Restart running gateway instances so their caches load the imported data.');
    return report.balance.ok ? 0 : 1;
  } catch (err) {
    if (err instanceof ImportRefused) {
      console.error(`Refused, nothing was changed: ${err.message}`);
      return 2;
    }
    console.error(`Import failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await source.close();
    await handle.close();
  }
}
