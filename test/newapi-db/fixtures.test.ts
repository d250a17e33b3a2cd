import SQLite from 'better-sqlite3';
import bcrypt from 'bcryptjs';
import pgLib from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NEWAPI_FACTS,
  needsMariaDb,
  needsPostgresSource,
  newApiDatabase,
  tablesOf,
  type FixtureDialect,
  type FixtureKind,
  type NewApiDatabase,
} from './index.ts';

/*
 * Each fixture holds, on each database, the tables of its shape with the columns GORM gives them and the rows it
 * says (read back through the database's own driver, not through the fixture's code): what the importer's
 * tests then rely on.
 */

type Reader = {
  all(sql: string): Promise<Record<string, unknown>[]>;
  tables(): Promise<Map<string, Set<string>>>;
  end(): Promise<void>;
};

async function readerOf(fx: NewApiDatabase): Promise<Reader> {
  if (fx.dialect === 'sqlite') {
    const db = new SQLite(fx.spec, { readonly: true });
    return {
      all: async (sql) => db.prepare(sql).all() as Record<string, unknown>[],
      tables: async () => {
        const names = db
          .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'sqlite_sequence'`)
          .all() as { name: string }[];
        return new Map(
          names.map(({ name }) => [
            name,
            new Set((db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[]).map((c) => c.name)),
          ]),
        );
      },
      end: async () => void db.close(),
    };
  }
  const query =
    fx.dialect === 'postgres' ? await pgQuery(fx.spec) : await (await import('./mariadb.ts')).mariaDbQuery(fx.spec);
  const schema = fx.dialect === 'postgres' ? `'public'` : 'DATABASE()';
  return {
    all: query.all,
    tables: async () => {
      const cols = await query.all(
        `SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = ${schema}`,
      );
      const map = new Map<string, Set<string>>();
      for (const { t, c } of cols as { t: string; c: string }[]) map.set(t, (map.get(t) ?? new Set()).add(c));
      return map;
    },
    end: query.end,
  };
}

async function pgQuery(spec: string) {
  const client = new pgLib.Client({ connectionString: spec });
  await client.connect();
  return { all: async (sql: string) => (await client.query(sql)).rows, end: () => client.end() };
}

const kinds: FixtureKind[] = ['new-api-2026', 'new-api-2025', 'one-api'];
const dialects: { dialect: FixtureDialect; need?: typeof needsMariaDb }[] = [
  { dialect: 'sqlite' },
  { dialect: 'mariadb', need: needsMariaDb },
  { dialect: 'postgres', need: needsPostgresSource },
];
/** A quoted name in a hand-written query. */
const q = (dialect: FixtureDialect, n: string) => (dialect === 'mariadb' ? `\`${n}\`` : `"${n}"`);

for (const { dialect, need } of dialects) {
  const title = `new-api fixtures on ${dialect}`;
  describe.skipIf(need !== undefined && !need.ok)(need ? need.name(title) : title, () => {
    for (const kind of kinds) {
      describe(kind, () => {
        let fx: NewApiDatabase;
        let db: Reader;
        beforeAll(async () => {
          fx = await newApiDatabase({ kind, dialect });
          db = await readerOf(fx);
        }, 60_000);
        afterAll(async () => {
          await db?.end();
          await fx?.close();
        });

        it('has exactly the tables and columns of its shape, and the rows it counts', async () => {
          const found = await db.tables();
          const expected = tablesOf(kind);
          expect([...found.keys()].sort()).toEqual(expected.map((t) => t.name).sort());
          for (const t of expected) {
            const columns = ['id', ...t.columns.map((c) => c.name)].filter(
              (c) => (t.name !== 'abilities' && t.name !== 'options') || c !== 'id',
            );
            expect([...found.get(t.name)!].sort(), t.name).toEqual([...new Set(columns)].sort());
            const [{ n }] = await db.all(`SELECT COUNT(*) AS n FROM ${q(dialect, t.name)}`);
            expect(Number(n), t.name).toBe(fx.counts[t.name]);
          }
          expect(fx.counts.users).toBe(4);
          expect(fx.counts.logs).toBe(5);
        });

        it('keeps passwords as bcrypt hashes, quota, the soft-deleted user and the affiliate history column', async () => {
          const users = await db.all(`SELECT * FROM users ORDER BY id`);
          const alice = users.find((u) => u.username === 'alice')!;
          expect(bcrypt.compareSync(NEWAPI_FACTS.password, String(alice.password))).toBe(true);
          expect(Number(alice.quota)).toBe(NEWAPI_FACTS.alice.quota);
          expect(alice.group).toBe('vip');
          if (kind === 'one-api') {
            expect(alice).not.toHaveProperty('aff_history');
            return;
          }
          expect(Number(alice.aff_history)).toBe(NEWAPI_FACTS.alice.affHistory);
          expect(alice).not.toHaveProperty('aff_history_quota');
          expect(users.find((u) => u.username === 'bob')!.deleted_at).not.toBeNull();
          expect(users.find((u) => u.username === 'carol')!.setting).toBeNull();
          const token = (await db.all(`SELECT ${q(dialect, 'key')} AS k FROM tokens WHERE id = 3`))[0];
          expect(token.k).toBe(NEWAPI_FACTS.tokenKey);
        });

        it('holds channels as new-api writes them: one key per line, Vertex JSON keys, string-indexed key states', async () => {
          const rows = await db.all(`SELECT * FROM channels ORDER BY id`);
          expect(rows.map((r) => Number(r.id))).toEqual([11, 12, 13, 14]);
          const pool = rows.find((r) => Number(r.id) === NEWAPI_FACTS.multiKeyChannel.id)!;
          if (kind !== 'new-api-2026') {
            expect(pool).not.toHaveProperty('channel_info');
            return;
          }
          expect(String(pool.key).split('\n')).toEqual(NEWAPI_FACTS.multiKeyChannel.keys);
          // MariaDB's json is longtext; PostgreSQL's json keeps the text as written (pg parses it).
          const info = typeof pool.channel_info === 'string' ? JSON.parse(pool.channel_info) : pool.channel_info;
          expect(info).toMatchObject({ is_multi_key: true, multi_key_size: 3, multi_key_status_list: { '1': 3 } });
          const vertex = rows.find((r) => Number(r.id) === 13)!;
          expect(JSON.parse(String(vertex.key)).map((k: { project_id: string }) => k.project_id)).toEqual([
            'proj-a',
            'proj-b',
          ]);
          const single = rows.find((r) => Number(r.id) === 11)!;
          expect(JSON.stringify(single.channel_info)).toContain('is_multi_key');
        });

        it.runIf(kind === 'new-api-2026')(
          'holds 2FA, passkeys, plans and subscriptions the way new-api keeps them',
          async () => {
            const [twoFa] = await db.all(`SELECT * FROM two_fas WHERE user_id = 7`);
            expect(twoFa.secret).toBe(NEWAPI_FACTS.totpSecret);
            expect(Boolean(Number(twoFa.is_enabled) || twoFa.is_enabled === true)).toBe(true);
            // Datetimes here, where the older tables keep unix seconds.
            const created =
              twoFa.created_at instanceof Date ? twoFa.created_at.toISOString() : String(twoFa.created_at);
            expect(created).toMatch(/^2025-06-15[ T]15:13:20/);
            const codes = await db.all(`SELECT * FROM two_fa_backup_codes WHERE user_id = 7 ORDER BY id`);
            expect(codes).toHaveLength(3);
            expect(bcrypt.compareSync(NEWAPI_FACTS.backupCodes[0], String(codes[0].code_hash))).toBe(true);
            expect(codes.map((c) => Number(c.is_used) || (c.is_used === true ? 1 : 0))).toEqual([0, 0, 1]);
            const [passkey] = await db.all(`SELECT * FROM passkey_credentials`);
            expect(passkey.credential_id).toBe('q83vEjRWeJA=');
            const [sub] = await db.all(`SELECT * FROM user_subscriptions WHERE id = 1`);
            const s = NEWAPI_FACTS.subscription;
            expect(Number(sub.amount_total) - Number(sub.amount_used)).toBe(s.total - s.used);
            const [plan] = await db.all(`SELECT price_amount, quota_reset_period FROM subscription_plans WHERE id = 1`);
            expect(String(plan.price_amount)).toMatch(/^9\.99/);
            expect(plan.quota_reset_period).toBe('monthly');
            const [{ n }] = await db.all(`SELECT COUNT(*) AS n FROM models WHERE deleted_at IS NULL`);
            expect(Number(n)).toBe(2);
          },
        );
      });
    }

    it('leaves out the tables and columns it is told to, for the shapes the importer must refuse', async () => {
      const fx = await newApiDatabase({
        kind: 'new-api-2026',
        dialect,
        rows: { without: ['two_fas', 'channels.key'] },
      });
      const db = await readerOf(fx);
      try {
        const found = await db.tables();
        expect(found.has('two_fas')).toBe(false);
        expect(found.get('channels')?.has('key')).toBe(false);
        expect(found.get('channels')?.has('channel_info')).toBe(true);
        const [{ n }] = await db.all(`SELECT COUNT(*) AS n FROM channels`);
        expect(Number(n)).toBe(4);
      } finally {
        await db.end();
        await fx.close();
      }
    });

    it('writes logs in quantity on demand, in batches', async () => {
      const fx = await newApiDatabase({ kind: 'new-api-2026', dialect, rows: { logs: 3_500 } });
      const db = await readerOf(fx);
      try {
        const [{ n, top }] = await db.all(`SELECT COUNT(*) AS n, MAX(id) AS top FROM logs`);
        expect([Number(n), Number(top)]).toEqual([3_500, 3_500]);
      } finally {
        await db.end();
        await fx.close();
      }
    }, 120_000);
  });
}
