import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Db } from './types.ts';

/** Stands for the i-th argument while a prepared query is compiled. */
class Slot {
  constructor(readonly index: number) {}
}

/** Placeholders to build a prepared query with, typed as the values they stand for. */
type Slots<A extends readonly unknown[]> = { readonly [K in keyof A]: A[K] };

/**
 * A query built and compiled once per SQL dialect, then run with new arguments: no
 * query builder, no compilation per call. For the statements every relayed request
 * runs (reservation, settlement, log rows), where Kysely's building cost more than
 * SQLite's execution. `build` gets placeholders for the arguments and must use each
 * as a plain value (never in `if`s: the query's shape is fixed at the first call).
 * Queries whose shape depends on a count (multi-row inserts, `in` lists) pass the
 * count as `shape` and get one compiled query per count.
 */
export function prepared<A extends readonly unknown[], R = unknown>(
  build: (db: Db, args: Slots<A>, shape: number) => Compilable<R>,
) {
  // Per dialect adapter (SQLite and PostgreSQL compile differently; a transaction shares its database's adapter).
  const compiled = new WeakMap<object, Map<number, CompiledQuery<R>>>();
  // Any index reads as its placeholder, and array destructuring (`[a, b]`) takes them in turn.
  const slots = new Proxy([], {
    get(t, k) {
      if (k === Symbol.iterator)
        return function* () {
          for (let i = 0; ; i++) yield new Slot(i);
        };
      return typeof k === 'string' && /^\d+$/.test(k) ? new Slot(Number(k)) : Reflect.get(t, k);
    },
  });

  return (db: Db, args: A, shape = 0): Promise<QueryResult<R>> => {
    const adapter = db.getExecutor().adapter;
    let byShape = compiled.get(adapter);
    if (!byShape) compiled.set(adapter, (byShape = new Map()));
    let query = byShape.get(shape);
    if (!query) {
      query = build(db, slots as unknown as Slots<A>, shape).compile();
      byShape.set(shape, query);
    }
    const parameters = query.parameters.map((p) => (p instanceof Slot ? args[p.index] : p));
    return db.executeQuery({ ...query, parameters });
  };
}

/**
 * A multi-row insert of `columns`: `run(db, rows)` with rows of exactly these columns.
 * The rows go in power-of-two chunks (50 rows: 32 + 16 + 2), so a table gets at most a
 * handful of compiled statements: one per row count would keep up to one per count ever
 * seen, in our cache and in SQLite's (a 50-row insert into a table with seven indexes is
 * a large program), for a saving of a few statements per batch. Run it inside a
 * transaction when the rows must land together; keep batches under the parameter limit.
 */
export function preparedInsert<Row extends object>(
  into: (db: Db, rows: Row[]) => Compilable<unknown>,
  columns: readonly (keyof Row & string)[],
) {
  const q = prepared<unknown[]>((db, args, count) =>
    into(
      db,
      Array.from({ length: count }, (_, r) =>
        Object.fromEntries(columns.map((c, i) => [c, args[r * columns.length + i]])),
      ) as Row[],
    ),
  );
  return async (db: Db, rows: readonly Row[]): Promise<void> => {
    for (let start = 0; start < rows.length;) {
      const count = 2 ** Math.floor(Math.log2(rows.length - start));
      const values: unknown[] = [];
      for (let r = start; r < start + count; r++) for (const c of columns) values.push(rows[r][c]);
      await q(db, values, count);
      start += count;
    }
  };
}
