import SQLite from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEWAPI_FACTS, newApiDatabase, type NewApiDatabase } from '../test/newapi-db/index.ts';

/*
 * `npm run import` as an operator runs it (issue 42): a real process, a fresh Switchyard data directory, new-api's
 * 2026 database. What it prints and how it exits is what scripts and the migration guide rely on.
 */
const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

async function importCmd(dataDir: string, ...args: string[]) {
  try {
    const r = await run(process.execPath, ['--import', 'tsx', 'scripts/import.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, SQL_DSN: '', SESSION_SECRET: 'cli-test-secret-0123456789abcdef' },
    });
    return { code: 0, out: r.stdout, err: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout, err: err.stderr };
  }
}

describe('npm run import', () => {
  let src: NewApiDatabase;
  let dataDir: string;
  beforeAll(async () => {
    src = await newApiDatabase({ kind: 'new-api-2026', dialect: 'sqlite' });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'import-cli-'));
  });
  afterAll(async () => {
    await src.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a dry run prints the report and writes no user; the import then exits 0 with the balance OK', async () => {
    const dry = await importCmd(dataDir, src.spec, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('Dry run (nothing written)');
    expect(dry.out).toMatch(/balance check: .*: OK/);
    const db = new SQLite(path.join(dataDir, 'switchyard.db'), { readonly: true });
    expect(db.prepare('select count(*) as n from users').get()).toEqual({ n: 0 });
    db.close();

    const real = await importCmd(dataDir, src.spec);
    expect(real.code).toBe(0);
    expect(real.out).toMatch(/Imported .* \(new-api-2026, sqlite\)/);
    expect(real.out).toMatch(/users +\d+ +\d+ +0/);
  }, 120_000);

  it('exits 1 saying MISMATCH when a user’s quota does not arrive', async () => {
    const db = new SQLite(path.join(dataDir, 'switchyard.db'));
    db.prepare("update users set username = 'alice-old' where id = ?").run(NEWAPI_FACTS.alice.id);
    db.prepare("insert into users (id, username, password) values (99, 'alice', 'x')").run();
    db.close();
    const r = await importCmd(dataDir, src.spec);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`skipped users #${NEWAPI_FACTS.alice.id}: username already used by #99`);
    expect(r.out).toMatch(/balance check: .*: MISMATCH/);
  }, 120_000);

  it('exits 2 for a source it cannot read, and names it without its password', async () => {
    const r = await importCmd(dataDir, 'newapi:hunter2@tcp(127.0.0.1:1)/newapi?parseTime=true');
    expect(r.code).toBe(2);
    expect(r.err).toContain('newapi:***@tcp(127.0.0.1:1)/newapi');
    expect(r.err).not.toContain('hunter2');
  }, 60_000);
});
