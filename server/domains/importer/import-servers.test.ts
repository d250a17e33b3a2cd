import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import {
  NEWAPI_FACTS,
  needsMariaDb,
  needsPostgresSource,
  newApiDatabase,
  type FixtureKind,
  type NewApiDatabase,
} from '../../../test/newapi-db/index.ts';
import { importFromSpec } from './import.service.ts';

/*
 * new-api on its production databases (issue 42): MariaDB through the SQL_DSN exactly as new-api's .env holds it,
 * and PostgreSQL by URL. The drivers hand back decimals as text, datetimes as Date, JSON as text or parsed, and
 * bigints as text; the import must land the same rows as from SQLite and the balance must hold.
 */

async function importedFrom(t: TestApp, spec: string) {
  const report = await importFromSpec(t.deps.db, spec);
  const alice = await t.deps.db.selectFrom('users').selectAll().where('id', '=', 7).executeTakeFirstOrThrow();
  const pool = await t.deps.db.selectFrom('channels').selectAll().where('id', '=', 12).executeTakeFirst();
  return { report, alice, pool };
}

const kinds: FixtureKind[] = ['new-api-2026', 'new-api-2025', 'one-api'];

const servers = [
  { title: 'importing from MariaDB (new-api SQL_DSN)', dialect: 'mariadb' as const, need: needsMariaDb },
  { title: 'importing from PostgreSQL', dialect: 'postgres' as const, need: needsPostgresSource },
];

for (const { title, dialect, need } of servers) {
  describe.skipIf(!need.ok)(need.name(title), () => {
    describe.each(kinds)('%s', (kind) => {
      let src: NewApiDatabase;
      let t: TestApp;
      beforeAll(async () => {
        src = await newApiDatabase({ kind, dialect });
        t = await createTestApp();
      }, 60_000);
      afterAll(async () => {
        await t?.close();
        await src?.close();
      });

      it('imports every user with the quota and the balance holds, twice', async () => {
        const spec = dialect === 'mariadb' ? src.sqlDsn : src.spec;
        const first = await importedFrom(t, spec);
        expect(first.report).toMatchObject({ shape: kind, dialect: dialect === 'mariadb' ? 'mysql' : 'postgres' });
        expect(first.report.failure).toBeUndefined();
        expect(first.report.tables.users).toMatchObject({ read: src.counts.users, imported: src.counts.users });
        expect(first.report.balance.ok).toBe(true);
        expect(first.alice).toMatchObject({ username: 'alice', quota: NEWAPI_FACTS.alice.quota, group: 'vip' });
        if (kind === 'new-api-2026') {
          expect(first.alice.aff_history_quota).toBe(NEWAPI_FACTS.alice.affHistory);
          expect(JSON.parse(first.pool!.channel_info).multi_key_status_list).toEqual({ '1': 3 });
          expect(first.report.balance.before.subscriptions).toBeGreaterThan(0);
        }
        const second = await importedFrom(t, spec);
        expect(second.report.balance.ok).toBe(true);
        expect(second.alice).toEqual(first.alice);
        expect(second.pool).toEqual(first.pool);
      });
    });
  });
}
