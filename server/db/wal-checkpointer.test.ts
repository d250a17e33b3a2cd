import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type DbHandle, migrateToLatest, openDatabase } from './index.ts';
import { manageWalCheckpoints, startWalCheckpointer } from './wal-checkpointer.ts';

let dir = '';
let handle: DbHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const waitFor = async (check: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return check();
};

describe('WAL checkpoints off the event loop (SQLite)', () => {
  it('while the database is written fast a thread checkpoints, not the writer; once quiet, SQLite does again', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-wal-'));
    const file = path.join(dir, 'switchyard.db');
    handle = openDatabase({ database: { dialect: 'sqlite', file } });
    await migrateToLatest(handle.db);
    const db = new Database(file);
    const autoCheckpoint = () => db.pragma('wal_autocheckpoint', { simple: true });
    const rowsWritten = () => db.prepare('SELECT total_changes()').pluck().get() as number;
    let thread = false;
    const checkpoints = manageWalCheckpoints(
      {
        file,
        rowsWritten,
        setAutoCheckpoint: (pages) => {
          thread = pages === 0;
          db.pragma(`wal_autocheckpoint = ${pages}`);
        },
      },
      { checkMs: 100, busyRowsPerSecond: 100, quietChecks: 3 },
    );
    try {
      expect(autoCheckpoint()).toBe(1000);
      // 50 rows every 50 ms: 1,000 a second, busy.
      const marker = `checkpointed-${Date.now()}`;
      const insert = db.prepare('INSERT INTO options (key, value) VALUES (?, ?)');
      let n = 0;
      const writer = setInterval(() => {
        for (let i = 0; i < 50; i++) insert.run(`${marker}-${n++}`, marker);
      }, 50);
      expect(await waitFor(() => thread, 1000)).toBe(true);
      expect(autoCheckpoint()).toBe(0);
      // Small commits stay in the WAL until something checkpoints them (SQLite's own
      // automatic checkpoint waits for 1,000 pages); the thread copies them into the main file.
      insert.run(`${marker}-probe`, marker);
      expect(await waitFor(() => readFileSync(file).includes(`${marker}-probe`), 1500)).toBe(true);
      clearInterval(writer);
      expect(await waitFor(() => !thread, 1500)).toBe(true);
      expect(autoCheckpoint()).toBe(1000);
    } finally {
      await checkpoints.stop();
      db.close();
    }
  });

  it('the gateway’s own connection starts with SQLite’s automatic checkpoints', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-wal-'));
    handle = openDatabase({ database: { dialect: 'sqlite', file: path.join(dir, 'switchyard.db') } });
    const { rows } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(handle.db);
    expect(rows[0].wal_autocheckpoint).toBe(1000);
  });

  it('a checkpointer that cannot open the database reports itself lost, so the caller checkpoints again', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-wal-'));
    let lost = 0;
    const c = startWalCheckpointer(path.join(dir, 'missing.db'), () => lost++);
    expect(await waitFor(() => lost > 0, 3000)).toBe(true);
    await c.stop();
  });
});
