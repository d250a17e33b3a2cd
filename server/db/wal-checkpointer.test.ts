import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type DbHandle, migrateToLatest, openDatabase } from './index.ts';
import { startWalCheckpointer } from './wal-checkpointer.ts';

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
  it('the relay’s connection never checkpoints, yet a commit reaches the database file within a second', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-wal-'));
    const file = path.join(dir, 'switchyard.db');
    handle = openDatabase({ database: { dialect: 'sqlite', file } });
    await migrateToLatest(handle.db);
    const { rows } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(handle.db);
    expect(rows[0].wal_autocheckpoint).toBe(0);

    // A small commit stays in the WAL until something checkpoints it (SQLite's own
    // automatic checkpoint would wait for 1,000 pages); the marker shows up in the main file.
    const marker = `checkpointed-${Date.now()}`;
    await handle.db.insertInto('options').values({ key: marker, value: marker }).execute();
    expect(await waitFor(() => readFileSync(file).includes(marker), 1500)).toBe(true);
  });

  it('a checkpointer that cannot open the database reports itself lost, so the caller checkpoints again', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-wal-'));
    let lost = 0;
    const c = startWalCheckpointer(path.join(dir, 'missing.db'), () => lost++);
    expect(await waitFor(() => lost > 0, 3000)).toBe(true);
    await c.stop();
  });
});
