import { createTableSql, quoteName, type FixtureDialect, type Table } from './gorm-ddl.ts';
import { logRow, seedRows } from './seed-rows-more.ts';
import type { FixtureKind, Row } from './seed-rows.ts';
import { newApi2026Only } from './schema-new-api-2026.ts';
import { newApiTables } from './schema-new-api.ts';
import { oneApiTables } from './schema-one-api.ts';

/** One connection to the fixture's database: runs a statement with positional parameters. */
export interface Executor {
  run(sql: string, params: unknown[]): Promise<void>;
  /** Runs fn in one transaction (fast bulk loads on SQLite, atomic on the servers). */
  transaction(fn: () => Promise<void>): Promise<void>;
}

export function tablesOf(kind: FixtureKind): Table[] {
  if (kind === 'new-api-2026') return newApiTables(2026, newApi2026Only);
  if (kind === 'new-api-2025') return newApiTables(2025);
  return oneApiTables;
}

/** The shape less some tables ('two_fas') or columns ('channels.key'): a database the importer must refuse. */
function withoutParts(tables: Table[], without: string[]): Table[] {
  return tables
    .filter((t) => !without.includes(t.name))
    .map((t) => ({ ...t, columns: t.columns.filter((c) => !without.includes(`${t.name}.${c.name}`)) }));
}

/** GORM's SQLite driver stores a time as text in Go's layout "2006-01-02 15:04:05.999999999-07:00". */
function sqliteTime(d: Date): string {
  return d.toISOString().replace('T', ' ').replace('Z', '+00:00');
}

/** A value as each driver takes it: booleans are 1/0 on SQLite and MySQL, times are text on SQLite. */
function sqlValue(dialect: FixtureDialect, v: unknown): unknown {
  if (typeof v === 'boolean') return dialect === 'postgres' ? v : v ? 1 : 0;
  if (v instanceof Date && dialect === 'sqlite') return sqliteTime(v);
  return v;
}

async function insertRows(db: Executor, dialect: FixtureDialect, table: Table, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const known = new Set(['id', ...table.columns.map((x) => x.name)]);
  // A key a row names that no column of this shape has is that shape's absence (dropped); an undefined value is
  // a column new-api's insert leaves to its default.
  const names = Object.keys(rows[0]).filter((k) => known.has(k) && rows[0][k] !== undefined);
  const q = (n: string) => quoteName(dialect, n);
  let n = 0;
  const ph = () => (dialect === 'postgres' ? `$${++n}` : '?');
  const tuples = rows.map(() => `(${names.map(ph).join(',')})`);
  const params = rows.flatMap((r) => names.map((k) => sqlValue(dialect, r[k] ?? null)));
  await db.run(`INSERT INTO ${q(table.name)} (${names.map(q).join(',')}) VALUES ${tuples.join(',')}`, params);
}

/** Rows with the same columns go in one statement; a row leaving other columns to their defaults starts another. */
function sameShapeRuns(rows: Row[]): Row[][] {
  const runs: Row[][] = [];
  let sig = '';
  for (const r of rows) {
    const s = Object.keys(r)
      .filter((k) => r[k] !== undefined)
      .join(',');
    if (s !== sig || runs.length === 0) runs.push([]);
    sig = s;
    runs[runs.length - 1].push(r);
  }
  return runs;
}

/** On PostgreSQL an explicit id leaves the sequence behind; new-api's next insert would collide without this. */
async function bumpSequences(db: Executor, tables: Table[]): Promise<void> {
  for (const t of tables) {
    if (t.autoId === false || t.columns.some((x) => x.primaryKey)) continue;
    await db.run(
      `SELECT setval(pg_get_serial_sequence('"${t.name}"', 'id'), GREATEST((SELECT COALESCE(MAX(id), 0) FROM "${t.name}"), 1))`,
      [],
    );
  }
}

/** Creates the shape's tables and writes its rows, then `logs` log rows in batches. Returns rows per table. */
export async function loadFixture(
  db: Executor,
  dialect: FixtureDialect,
  kind: FixtureKind,
  opts: { logs?: number; seed?: Record<string, Row[]>; without?: string[] } = {},
): Promise<Record<string, number>> {
  const tables = withoutParts(tablesOf(kind), opts.without ?? []);
  const rows = { ...seedRows(kind), ...opts.seed };
  const counts: Record<string, number> = {};
  await db.transaction(async () => {
    for (const t of tables) for (const sql of createTableSql(dialect, t)) await db.run(sql, []);
    for (const t of tables) {
      const tableRows = rows[t.name] ?? [];
      for (const run of sameShapeRuns(tableRows)) await insertRows(db, dialect, t, run);
      counts[t.name] = tableRows.length;
    }
  });
  const logs = tables.find((t) => t.name === 'logs');
  const total = opts.logs ?? 5;
  const batch = 1000;
  for (let from = 1; logs && from <= total; from += batch) {
    const chunk = Array.from({ length: Math.min(batch, total - from + 1) }, (_, i) => logRow(kind, from + i));
    await db.transaction(() => insertRows(db, dialect, logs, chunk));
  }
  if (logs) counts.logs = total;
  if (dialect === 'postgres') await bumpSequences(db, tables);
  return counts;
}
