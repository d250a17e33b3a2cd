import SQLite from 'better-sqlite3';
import type { ParsedSource } from './dsn.rules.ts';
import { normaliseRow } from './normalise.rules.ts';
import type { ImportSource, Row } from './source.repo.ts';

/*
 * A new-api SQLite file, opened read-only (a running new-api may hold it). better-sqlite3 directly rather than
 * Kysely: the reads are plain keyset pages over tables known only at run time.
 */
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function openSqliteSource(spec: Extract<ParsedSource, { dialect: 'sqlite' }>): ImportSource {
  let db: SQLite.Database;
  try {
    db = new SQLite(spec.file, { readonly: true, fileMustExist: true });
    db.prepare('select 1 from sqlite_master limit 1').get();
  } catch (err) {
    throw new Error(
      `cannot open ${spec.label} as a SQLite database: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  return {
    dialect: 'sqlite',
    label: spec.label,
    async describe() {
      const names = db.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[];
      const map = new Map<string, Set<string>>();
      for (const { name } of names)
        map.set(
          name,
          new Set((db.prepare(`pragma table_info(${quote(name)})`).all() as { name: string }[]).map((c) => c.name)),
        );
      return map;
    },
    async count(table) {
      return Number((db.prepare(`select count(*) as n from ${quote(table)}`).get() as { n: number }).n);
    },
    async *batches(table, { size, orderBy = 'id' }) {
      const first = db.prepare(`select * from ${quote(table)} order by ${quote(orderBy)} limit ?`);
      const next = db.prepare(
        `select * from ${quote(table)} where ${quote(orderBy)} > ? order by ${quote(orderBy)} limit ?`,
      );
      let last: unknown = undefined;
      for (;;) {
        const rows = (last === undefined ? first.all(size) : next.all(last, size)) as Row[];
        if (!rows.length) return;
        last = rows[rows.length - 1][orderBy];
        yield rows.map((r) => normaliseRow(r));
        if (rows.length < size) return;
      }
    },
    async close() {
      db.close();
    },
  };
}
