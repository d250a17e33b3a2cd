import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { insertUser } from '../../test/relay-fixtures.ts';
import { prepared, preparedInsert } from './prepared.ts';
import type { Db } from './types.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const addQuota = prepared<[number, number]>((db, [amount, id]) =>
  db
    .updateTable('users')
    .set({ quota: sql`quota + ${amount}` })
    .where('id', '=', id)
    .returning('quota'),
);
const quotaOf = prepared<number[], { id: number; quota: number }>((db, ids, count) =>
  db
    .selectFrom('users')
    .select(['id', 'quota'])
    .where(
      'id',
      'in',
      Array.from({ length: count }, (_, i) => ids[i]),
    )
    .orderBy('id'),
);

describe('prepared queries (compiled once, run with new arguments)', () => {
  it('runs the same statement with each call’s own arguments, in and out of a transaction', async () => {
    const a = await insertUser(t.deps, { quota: 100 });
    const b = await insertUser(t.deps, { quota: 500 });
    const first = await addQuota(t.deps.db, [5, a.id]);
    expect(first.rows).toEqual([{ quota: 105 }]);
    await t.deps.db.transaction().execute(async (trx) => {
      await addQuota(trx, [-20, b.id]);
      await addQuota(trx, [1, a.id]);
    });
    const rows = (await quotaOf(t.deps.db, [a.id, b.id], 2)).rows.map((r) => [Number(r.id), Number(r.quota)]);
    expect(rows).toEqual([
      [a.id, 106],
      [b.id, 480],
    ]);
    // Another count is another shape, compiled on its own.
    expect((await quotaOf(t.deps.db, [b.id], 1)).rows.map((r) => Number(r.quota))).toEqual([480]);
  });

  it('inserts any number of rows with their own values', async () => {
    const insert = preparedInsert<{ key: string; value: string }>(
      (db, rows) => db.insertInto('options').values(rows),
      ['key', 'value'],
    );
    const rows = (n: number, tag: string) =>
      Array.from({ length: n }, (_, i) => ({ key: `prep.${tag}${i}`, value: `${tag}-${i}` }));
    await insert(t.deps.db, rows(3, 'x'));
    await insert(t.deps.db, rows(1, 'y'));
    await insert(t.deps.db, rows(2, 'z'));
    const got = await t.deps.db
      .selectFrom('options')
      .select(['key', 'value'])
      .where('key', 'like', 'prep.%')
      .orderBy('key')
      .execute();
    expect(got.map((r) => `${r.key}=${r.value}`)).toEqual([
      'prep.x0=x-0',
      'prep.x1=x-1',
      'prep.x2=x-2',
      'prep.y0=y-0',
      'prep.z0=z-0',
      'prep.z1=z-1',
    ]);
  });

  it('keeps a few statements per table whatever the batch sizes, and every row still lands', async () => {
    const insert = preparedInsert<{ key: string; value: string }>(
      (db, rows) => db.insertInto('options').values(rows),
      ['key', 'value'],
    );
    const statements = new Set<string>();
    // The database as the insert sees it, noting each statement it runs.
    const noting = (db: Db): Db =>
      new Proxy(db, {
        get(target, key) {
          if (key === 'executeQuery') return (q: CompiledQuery) => (statements.add(q.sql), target.executeQuery(q));
          const v = Reflect.get(target, key) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
    let total = 0;
    for (let n = 1; n <= 100; n++) {
      await t.deps.db.transaction().execute(async (trx) => {
        await insert(
          noting(trx),
          Array.from({ length: n }, (_, i) => ({ key: `batch.${n}.${i}`, value: String(i) })),
        );
      });
      total += n;
    }
    const stored = await t.deps.db
      .selectFrom('options')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('key', 'like', 'batch.%')
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(total);
    // Counts 1..100 as 1-, 2-, 4-, ..., 64-row statements: seven, not a hundred.
    expect(statements.size).toBe(7);
  });
});
