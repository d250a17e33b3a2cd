import { type Kysely, sql } from 'kysely';
import { type ColumnKinds, normaliseRow } from './normalise.rules.ts';
import type { ImportSource, Row, SourceDialect } from './source.repo.ts';

/*
 * A source read through Kysely (MySQL/MariaDB and PostgreSQL): tables and columns from its introspection, rows
 * in keyset pages (`where id > last order by id limit n`), so a table of millions streams in constant memory.
 */

// The source's tables are known only at run time: an untyped Kysely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyKysely = Kysely<any>;

/** Column types a driver answers as text though they are integers (PostgreSQL's int8; MySQL bigint past 2^53). */
const INTEGER_TYPES = /^(int8|bigint|int4|int2|integer|smallint)$/i;
const JSON_TYPES = /^(json|jsonb)$/i;

export function kyselySource(db: AnyKysely, dialect: SourceDialect, label: string, schema?: string): ImportSource {
  let kinds: Map<string, ColumnKinds> | undefined;
  const describe = async () => {
    const all = await db.introspection.getTables();
    const wanted = schema ?? (all.some((t) => t.schema === 'public') ? 'public' : undefined);
    const map = new Map<string, Set<string>>();
    kinds = new Map();
    for (const t of all) {
      if (t.isView || (wanted && t.schema !== undefined && t.schema !== wanted)) continue;
      map.set(t.name, new Set(t.columns.map((c) => c.name)));
      kinds.set(t.name, {
        integers: new Set(t.columns.filter((c) => INTEGER_TYPES.test(c.dataType)).map((c) => c.name)),
        json: new Set(t.columns.filter((c) => JSON_TYPES.test(c.dataType)).map((c) => c.name)),
      });
    }
    return map;
  };
  return {
    dialect,
    label,
    describe,
    async count(table) {
      const r = await db
        .selectFrom(table)
        .select(sql<string | number>`count(*)`.as('n'))
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    async *batches(table, { size, orderBy = 'id' }) {
      if (!kinds) await describe();
      const columnKinds = kinds?.get(table);
      let last: unknown = undefined;
      for (;;) {
        let q = db.selectFrom(table).selectAll().orderBy(orderBy).limit(size);
        if (last !== undefined) q = q.where(orderBy, '>', last);
        const rows = (await q.execute()) as Row[];
        if (!rows.length) return;
        last = rows[rows.length - 1][orderBy];
        yield rows.map((r) => normaliseRow(r, columnKinds));
        if (rows.length < size) return;
      }
    },
    async close() {
      await db.destroy();
    },
  };
}
