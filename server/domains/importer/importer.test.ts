import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { login, restHeaders } from '../../../test/users.ts';
import { importFromSpec as importDatabase } from './import.service.ts';
import { createNewApiDatabase } from '../../../test/new-api-database.ts';

describe('importer from new-api / one-api databases', () => {
  let t: TestApp;
  let newApiFile: string;
  let oneApiFile: string;
  beforeAll(async () => {
    t = await createTestApp();
    newApiFile = path.join(t.dataDir, 'one-api.db');
    oneApiFile = path.join(t.dataDir, 'legacy-one-api.db');
    createNewApiDatabase(newApiFile, 'new-api');
    createNewApiDatabase(oneApiFile, 'one-api');
  });
  afterAll(() => t.close());

  it('imports users, tokens, channels, options, codes and top-ups, and derives abilities', async () => {
    const report = await importDatabase(t.deps.db, newApiFile);
    expect(report.shape).toBe('new-api-2025');
    expect(report.tables.users).toMatchObject({ read: 2, imported: 2 });
    expect(report.tables.tokens).toMatchObject({ imported: 1 });
    expect(report.tables.channels).toMatchObject({ imported: 1 });
    expect(report.tables.redemptions).toMatchObject({ imported: 1 });
    expect(report.tables.top_ups).toMatchObject({ imported: 1 });
    expect(report.abilities).toBe(4); // 2 models x 2 groups

    const token = await t.deps.db.selectFrom('tokens').selectAll().where('id', '=', 3).executeTakeFirstOrThrow();
    expect(token.key).toBe('a'.repeat(24) + 'B'.repeat(24));
    expect(token.model_limits_enabled).toBe(1);
    const channel = await t.deps.db.selectFrom('channels').selectAll().where('id', '=', 11).executeTakeFirstOrThrow();
    expect(channel.type).toBe(43);
    expect(channel.weight).toBe(5);
  });

  it('keeps imported bcrypt passwords working, and the wizard does not run again', async () => {
    await t.deps.services.options.load();
    const session = await login(t, 'alice', 'OldPassword1');
    const self = await t.app.inject({ url: '/api/user/self', headers: restHeaders(session) });
    expect(self.json().data).toMatchObject({ username: 'alice', quota: 2500000, group: 'vip' });
    const setup = await t.app.inject({ url: '/api/setup' });
    expect(setup.json().data.status).toBe(true);
    expect(t.deps.services.options.get('SystemName')).toBe('Old Gateway');
    // Alice's vip group stays hers to use: the source's GroupRatio, and new-api's usable groups it never saved
    // (Switchyard ships "default" only, issue 39).
    expect(t.deps.services.options.get('GroupRatio')).toEqual({ default: 1, vip: 0.8 });
    const groups = await t.app.inject({ url: '/api/user/self/groups', headers: restHeaders(session) });
    expect(groups.json().data).toEqual({
      default: { ratio: 1, desc: '默认分组' },
      vip: { ratio: 0.8, desc: 'vip分组' },
    });
  });

  it('is idempotent: a second run updates the same rows and creates nothing', async () => {
    const before = await t.deps.db.selectFrom('users').select('id').execute();
    const report = await importDatabase(t.deps.db, newApiFile);
    expect(report.tables.users).toMatchObject({ read: 2, imported: 2 });
    expect(report.tables.tokens).toMatchObject({ read: 1, imported: 1 });
    expect(await t.deps.db.selectFrom('users').select('id').execute()).toHaveLength(before.length);
  });

  it('skips a row whose username belongs to another user here instead of overwriting it', async () => {
    await t.deps.db.updateTable('users').set({ username: 'alice-renamed' }).where('id', '=', 7).execute();
    await t.deps.db.insertInto('users').values({ id: 99, username: 'alice', password: 'x' }).execute();
    const report = await importDatabase(t.deps.db, newApiFile);
    expect(report.tables.users.skipped).toEqual([{ id: 7, reason: 'username already used by #99' }]);
  });

  it('remaps one-api channel types to Switchyard numbering', async () => {
    const other = await createTestApp();
    try {
      const report = await importDatabase(other.deps.db, oneApiFile);
      expect(report.shape).toBe('one-api');
      const channel = await other.deps.db
        .selectFrom('channels')
        .select('type')
        .where('id', '=', 11)
        .executeTakeFirstOrThrow();
      expect(channel.type).toBe(43); // one-api 36 (DeepSeek) is new-api 43
    } finally {
      await other.close();
    }
  });

  it('refuses a file that is not a gateway database, changing nothing', async () => {
    const bogus = path.join(t.dataDir, 'bogus.db');
    new SQLite(bogus).exec('CREATE TABLE x (id integer)');
    await expect(importDatabase(t.deps.db, bogus)).rejects.toThrow(
      /not a new-api or one-api database: table users, table tokens, table channels, table options are missing/,
    );
  });
});
