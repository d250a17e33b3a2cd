import SQLite from 'better-sqlite3';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { newApiDatabase, type NewApiDatabase } from '../../../test/newapi-db/index.ts';
import { runImport } from './import.service.ts';
import { openImportSource } from './sources/source.repo.ts';

/*
 * A new-api with years of logs (issue 42): 100,000 log rows stream in keyset batches, never more than one batch
 * in memory, and `--logs` imports them all with a count; the speed goes in the closing note.
 */
const LOGS = 100_000;

// What a batch leaves behind is read after a full collection: heapUsed alone also counts garbage not yet
// collected, and Node 24's larger young generation lets 60+ MB of it pile up between scavenges.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const retainedHeap = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

describe('usage logs of a busy site', () => {
  let src: NewApiDatabase;
  let t: TestApp;
  beforeAll(async () => {
    src = await newApiDatabase({ kind: 'new-api-2026', dialect: 'sqlite', rows: { logs: LOGS } });
    t = await createTestApp();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await src?.close();
  });

  it('stream in batches of the asked size whatever the table holds, with flat memory', async () => {
    const source = await openImportSource(src.spec);
    try {
      const start = retainedHeap();
      let peak = 0;
      let rows = 0;
      let batches = 0;
      let lastId = 0;
      const began = performance.now();
      for await (const batch of source.batches('logs', { size: 1000 })) {
        expect(batch.length).toBeLessThanOrEqual(1000);
        expect(Number(batch[0].id)).toBeGreaterThan(lastId);
        lastId = Number(batch[batch.length - 1].id);
        rows += batch.length;
        batches++;
        // Holding on to what it read, the stream would retain some MB more at every fifth batch.
        if (batches % 5 === 0) peak = Math.max(peak, retainedHeap() - start);
      }
      const seconds = (performance.now() - began) / 1000;
      expect(rows).toBe(LOGS);
      expect(batches).toBe(LOGS / 1000);
      // The 100,000 rows read at once take ~46 MB of heap (measured); a batch at a time retains under half of it.
      expect(peak).toBeLessThan(23 * 1024 * 1024);
      console.log(
        `read ${rows} log rows in ${seconds.toFixed(2)} s: ${Math.round(rows / seconds)} rows/s, heap peak +${Math.round(peak / 1048576)} MB`,
      );
    } finally {
      await source.close();
    }
  });

  it('--logs imports every row with a count and progress; without it they are left with a note', async () => {
    const source = await openImportSource(src.spec);
    try {
      const without = await runImport(t.deps.db, { source, dryRun: true });
      expect(without.tables.logs).toBeUndefined();
      expect(without.notes).toContain('logs: not copied (add --logs to copy them)');

      const progress: number[] = [];
      const began = performance.now();
      const report = await runImport(t.deps.db, {
        source,
        logs: true,
        onProgress: (p) => p.table === 'logs' && progress.push(p.done),
      });
      const seconds = (performance.now() - began) / 1000;
      expect(report.tables.logs).toMatchObject({ read: LOGS, imported: LOGS, skipped: [] });
      expect(progress.at(-1)).toBe(LOGS);
      expect(progress.length).toBeGreaterThan(10);
      const n = await t.deps.db
        .selectFrom('logs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(LOGS);
      console.log(
        `imported ${LOGS} log rows (whole import) in ${seconds.toFixed(1)} s: ${Math.round(LOGS / seconds)} rows/s`,
      );
    } finally {
      await source.close();
    }
  }, 300_000);

  it('imports 20,000 users with the balance holding (the closing note’s users speed)', async () => {
    const many = await newApiDatabase({ kind: 'new-api-2026', dialect: 'sqlite', rows: { logs: 0 } });
    const file = new SQLite(many.spec);
    const add = file.prepare(
      `INSERT INTO users (id, username, password, display_name, role, status, quota, "group", aff_code)
       VALUES (?, ?, '$2a$10$abcdefghijklmnopqrstuuGd2eZ9B2Q6wq4C7vJw3c7QeJ0fE2Kxa', ?, 1, 1, ?, 'default', ?)`,
    );
    const before = (file.prepare('SELECT sum(quota) AS q FROM users').get() as { q: number }).q;
    let added = 0;
    file.transaction(() => {
      for (let i = 0; i < 20_000; i++) {
        add.run(1000 + i, `user${i}`, `User ${i}`, 1000 + i, `aff${i}`);
        added += 1000 + i;
      }
    })();
    file.close();
    const other = await createTestApp();
    const source = await openImportSource(many.spec);
    try {
      const began = performance.now();
      const report = await runImport(other.deps.db, { source });
      const seconds = (performance.now() - began) / 1000;
      expect(report.tables.users).toMatchObject({
        read: many.counts.users + 20_000,
        imported: many.counts.users + 20_000,
      });
      expect(report.balance.ok).toBe(true);
      expect(report.balance.after.users).toBe(before + added);
      console.log(
        `imported 20000 users (whole import) in ${seconds.toFixed(1)} s: ${Math.round(20_000 / seconds)} rows/s`,
      );
    } finally {
      await source.close();
      await other.close();
      await many.close();
    }
  }, 300_000);
});
