import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { NEWAPI_FACTS, newApiDatabase, type NewApiDatabase } from '../../../test/newapi-db/index.ts';
import { parseImportArgs } from '../../../scripts/import-cli.ts';
import { importFromSpec, runImport } from './import.service.ts';
import { parseSourceSpec } from './sources/dsn.rules.ts';
import { openImportSource } from './sources/source.repo.ts';
import { tableImporters } from './tables/index.ts';
import { usersImporter } from './tables/users.repo.ts';
import type { TableImporter } from './tables/types.ts';

/*
 * The import runner (issue 42) against new-api's 2026 database as a SQLite file: what an operator pastes is read,
 * running twice changes nothing, a dry run writes nothing, a failure leaves whole batches and a second run finishes,
 * and the balance check says when the money does not add up.
 */

const snapshot = async (t: TestApp) => ({
  users: await t.deps.db.selectFrom('users').selectAll().orderBy('id').execute(),
  tokens: await t.deps.db.selectFrom('tokens').selectAll().orderBy('id').execute(),
  channels: await t.deps.db.selectFrom('channels').selectAll().orderBy('id').execute(),
  options: await t.deps.db.selectFrom('options').selectAll().orderBy('key').execute(),
});

describe('what an operator pastes as the source', () => {
  it("reads new-api's SQL_DSN as its .env holds it, with a password holding @ and :", () => {
    expect(
      parseSourceSpec('root:p@ss:w0rd@tcp(db.internal:3307)/new-api?charset=utf8mb4&parseTime=True&loc=Local'),
    ).toEqual({
      dialect: 'mysql',
      host: 'db.internal',
      port: 3307,
      user: 'root',
      password: 'p@ss:w0rd',
      database: 'new-api',
      label: 'root:***@tcp(db.internal:3307)/new-api?charset=utf8mb4&parseTime=True&loc=Local',
    });
    expect(parseSourceSpec('oneapi:secret@unix(/run/mysqld/mysqld.sock)/oneapi')).toMatchObject({
      dialect: 'mysql',
      socketPath: '/run/mysqld/mysqld.sock',
      database: 'oneapi',
    });
    expect(parseSourceSpec('mysql://u:s%40cret@127.0.0.1/newapi')).toMatchObject({
      port: 3306,
      password: 's@cret',
      label: 'mysql://u:***@127.0.0.1/newapi',
    });
    expect(parseSourceSpec('postgresql://root:123456@localhost:5432/new-api')).toMatchObject({
      dialect: 'postgres',
      label: 'postgresql://root:***@localhost:5432/new-api',
    });
    expect(parseSourceSpec('/data/one-api.db?_busy_timeout=5000')).toMatchObject({
      dialect: 'sqlite',
      file: '/data/one-api.db',
    });
    expect(() => parseSourceSpec('redis://localhost')).toThrow(/unknown database kind/);
  });

  it('the command takes the flags, and --from of old scripts still parses', () => {
    expect(parseImportArgs(['u:p@tcp(h:3306)/db', '--dry-run', '--logs'])).toEqual({
      source: 'u:p@tcp(h:3306)/db',
      dryRun: true,
      logs: true,
      siteAddress: undefined,
    });
    expect(parseImportArgs(['a.db', '--from', 'one-api'])).toMatchObject({ source: 'a.db', dryRun: false });
    expect(parseImportArgs(['--bogus', 'a.db'])).toBeUndefined();
  });
});

describe('importing new-api 2026 from SQLite', () => {
  let src: NewApiDatabase;
  let t: TestApp;
  beforeAll(async () => {
    src = await newApiDatabase({ kind: 'new-api-2026', dialect: 'sqlite' });
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    await src.close();
  });

  it('a dry run reads everything, counts what it would do and writes nothing', async () => {
    const before = await snapshot(t);
    const report = await importFromSpec(t.deps.db, src.spec, { dryRun: true });
    expect(report).toMatchObject({ shape: 'new-api-2026', dialect: 'sqlite', dryRun: true });
    expect(report.tables.users).toMatchObject({ read: src.counts.users, imported: src.counts.users });
    expect(report.balance.ok).toBe(true);
    expect(report.balance.before.users).toBeGreaterThan(0);
    expect(await snapshot(t)).toEqual(before);
  });

  it('imports users with their affiliate history and the multi-key channel with its disabled key', async () => {
    const report = await importFromSpec(t.deps.db, src.spec);
    expect(report.failure).toBeUndefined();
    expect(report.balance).toMatchObject({ ok: true });
    expect(report.balance.after.users).toBe(report.balance.before.users);
    const alice = await t.deps.db.selectFrom('users').selectAll().where('id', '=', 7).executeTakeFirstOrThrow();
    expect(alice).toMatchObject({ quota: NEWAPI_FACTS.alice.quota, aff_history_quota: NEWAPI_FACTS.alice.affHistory });
    const pool = await t.deps.db.selectFrom('channels').selectAll().where('id', '=', 12).executeTakeFirstOrThrow();
    expect(pool.key.split('\n')).toEqual(NEWAPI_FACTS.multiKeyChannel.keys);
    expect(JSON.parse(pool.channel_info)).toMatchObject({
      multi_key_size: 3,
      multi_key_status_list: { '1': 3 },
      multi_key_disabled_reason: { '1': 'invalid api key' },
      multi_key_mode: 'polling',
    });
    // Vertex AI's JSON array of service accounts: one account per line, the first disabled by hand.
    const vertex = await t.deps.db.selectFrom('channels').selectAll().where('id', '=', 13).executeTakeFirstOrThrow();
    expect(vertex.key.split('\n').map((k) => JSON.parse(k).project_id)).toEqual(['proj-a', 'proj-b']);
    expect(JSON.parse(vertex.channel_info)).toMatchObject({ multi_key_size: 2, multi_key_status_list: { '0': 2 } });
  });

  it('running it twice changes nothing', async () => {
    const before = await snapshot(t);
    const report = await importFromSpec(t.deps.db, src.spec);
    expect(report.balance.ok).toBe(true);
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('a failure, a mismatch', () => {
  let src: NewApiDatabase;
  beforeAll(async () => {
    src = await newApiDatabase({ kind: 'new-api-2026', dialect: 'sqlite' });
  });
  afterAll(() => src.close());

  it('a failure mid-table keeps the batches before it, reports it, and a second run completes', async () => {
    const t = await createTestApp();
    try {
      let batches = 0;
      // One user per batch; the third batch fails after writing, as a lost connection would.
      const failing: TableImporter = {
        ...usersImporter,
        batchSize: 1,
        async importBatch(trx, rows, ctx) {
          const r = await usersImporter.importBatch(trx, rows, ctx);
          if (++batches === 3) throw new Error('connection lost');
          return r;
        },
      };
      const source = await openImportSource(src.spec);
      const importers = tableImporters.map((i) => (i === usersImporter ? failing : i));
      const report = await runImport(t.deps.db, { source, importers }).finally(() => source.close());
      expect(report.failure).toEqual({ table: 'users', message: 'connection lost' });
      expect(report.tables.users).toMatchObject({ read: 2, imported: 2 });
      expect(report.balance.ok).toBe(false);
      expect(report.tables.tokens).toBeUndefined();
      const written = await t.deps.db.selectFrom('users').select('id').orderBy('id').execute();
      expect(written).toHaveLength(2);

      const again = await importFromSpec(t.deps.db, src.spec);
      expect(again.failure).toBeUndefined();
      expect(again.balance.ok).toBe(true);
      expect(await t.deps.db.selectFrom('users').select('id').execute()).toHaveLength(src.counts.users);
    } finally {
      await t.close();
    }
  });

  it('the balance check fails when a user cannot be imported, and says by how much', async () => {
    const t = await createTestApp();
    try {
      // Somebody here already has alice's name: her row is skipped, her quota is not here.
      await t.deps.db.insertInto('users').values({ id: 99, username: 'alice', password: 'x', quota: 1 }).execute();
      const report = await importFromSpec(t.deps.db, src.spec);
      expect(report.tables.users.skipped).toEqual([{ id: 7, reason: 'username already used by #99' }]);
      expect(report.balance.ok).toBe(false);
      expect(report.balance.before.users - report.balance.after.users).toBe(NEWAPI_FACTS.alice.quota);
    } finally {
      await t.close();
    }
  });

  it('refuses a database that is not new-api, naming what is missing, and writes nothing', async () => {
    const t = await createTestApp();
    try {
      const odd = await newApiDatabase({
        kind: 'new-api-2026',
        dialect: 'sqlite',
      });
      const SQLite = (await import('better-sqlite3')).default;
      const db = new SQLite(odd.spec);
      db.exec('DROP TABLE tokens');
      db.close();
      await expect(importFromSpec(t.deps.db, odd.spec)).rejects.toThrow(
        'not a new-api or one-api database: table tokens is missing',
      );
      expect(await t.deps.db.selectFrom('users').select('id').execute()).toEqual([]);
      await odd.close();
    } finally {
      await t.close();
    }
  });
});

describe('options', () => {
  it('copies the settings Switchyard has, and lists the ones it has not or would refuse', async () => {
    const src = await newApiDatabase({ kind: 'new-api-2026', dialect: 'sqlite' });
    const t = await createTestApp();
    try {
      const SQLite = (await import('better-sqlite3')).default;
      const file = new SQLite(src.spec);
      file.prepare("insert or replace into options (key, value) values ('FancyUpstreamOnlySetting', 'on')").run();
      file.prepare("insert or replace into options (key, value) values ('QuotaPerUnit', 'lots')").run();
      file.prepare("insert or replace into options (key, value) values ('SystemName', 'Old Gateway 2026')").run();
      file.close();
      const report = await importFromSpec(t.deps.db, src.spec);
      expect(report.notes.join('\n')).toMatch(/options Switchyard does not have, left out: .*FancyUpstreamOnlySetting/);
      expect(report.tables.options.skipped).toContainEqual({
        id: 'FancyUpstreamOnlySetting',
        reason: 'Switchyard has no such setting',
      });
      expect(report.tables.options.skipped.find((s) => s.id === 'QuotaPerUnit')?.reason).toMatch(/^value refused/);
      await t.deps.services.options.load();
      expect(t.deps.services.options.get('SystemName')).toBe('Old Gateway 2026');
      expect(t.deps.services.options.get('QuotaPerUnit')).toBe(500000);
    } finally {
      await t.close();
      await src.close();
    }
  });
});
