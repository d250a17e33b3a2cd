import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logFilterInput, logListInput } from '../../../shared/schemas/logs.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';
import type { Db } from '../../db/types.ts';
import type { NewLog } from './logs.table.ts';
import { createMigrator, migrateToLatest } from '../../db/index.ts';
import { insertLogs } from './insert-logs.repo.ts';
import { hourlyTotalsQuery, rebuildLogHourly } from './log-hourly.repo.ts';
import { deleteLogsBeforeBatch } from './logs-delete.repo.ts';

/*
 * The page total and the stat box add the hourly rollup (whole hours) to the raw rows
 * of the partial hours at the ends of the range. Whatever the filter and the range,
 * they must equal a plain COUNT / SUM over `logs`, after inserts, deletes, relayed
 * requests and the migration's backfill.
 */

const HOUR = 3600;
const T0 = 1_780_000_000 - (1_780_000_000 % HOUR); // an hour start
const SPAN_HOURS = 30;

const USERS = [
  { user_id: 1, username: 'ann' },
  { user_id: 2, username: 'bob' },
  { user_id: 3, username: 'cy' },
];
const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-3'];
const MODEL_PATTERNS = ['gpt-4o', 'gpt-4o%', '%mini', 'claude%', 'nothing'];
const TOKENS = ['tok-a', 'tok-b'];
const GROUPS = ['default', 'vip'];
const TYPES = [1, 2, 2, 2, 5, 6];

/** Log rows spread over SPAN_HOURS hours (a few before T0), several on the same second and hour edges. */
const rowArb = fc.record({
  at: fc.oneof(
    fc.integer({ min: -2 * HOUR, max: SPAN_HOURS * HOUR }),
    fc.integer({ min: -2, max: SPAN_HOURS }).map((h) => h * HOUR),
    fc.integer({ min: -2, max: SPAN_HOURS }).map((h) => h * HOUR - 1),
  ),
  user: fc.constantFrom(...USERS),
  type: fc.constantFrom(...TYPES),
  model: fc.constantFrom(...MODELS),
  token: fc.constantFrom(...TOKENS),
  channel: fc.constantFrom(0, 1, 2),
  group: fc.constantFrom(...GROUPS),
  quota: fc.integer({ min: 0, max: 100_000 }),
  prompt: fc.integer({ min: 0, max: 5000 }),
  // `other` as the relay writes it (cache_tokens among the ratios), empty, or text that only looks like it.
  other: fc.oneof(
    fc
      .integer({ min: 0, max: 4000 })
      .map((n) => JSON.stringify({ model_ratio: 1, cache_tokens: n, cache_ratio: 0.1, cache_creation_tokens: 3 })),
    fc.constant(''),
    fc.constant('{"cache_tokens":'),
    fc.constant(JSON.stringify({ error: 'upstream said "cache_tokens":55', cache_tokens: 0 })),
  ),
});

type Row = typeof rowArb extends fc.Arbitrary<infer T> ? T : never;

const toLog = (r: Row) =>
  ({
    ...r.user,
    created_at: T0 + r.at,
    type: r.type,
    model_name: r.model,
    token_name: r.token,
    channel_id: r.channel,
    group: r.group,
    quota: r.quota,
    prompt_tokens: r.prompt,
    completion_tokens: 7,
    content: 'x',
    other: r.other,
  }) satisfies NewLog;

/** A time bound: on an hour start, one second either side of it, or anywhere. */
const boundArb = fc.oneof(
  fc.integer({ min: -3, max: SPAN_HOURS + 1 }).chain((h) => fc.constantFrom(h * HOUR - 1, h * HOUR, h * HOUR + 1)),
  fc.integer({ min: -3 * HOUR, max: (SPAN_HOURS + 1) * HOUR }),
);

const filterArb = fc.record(
  {
    type: fc.constantFrom(0, 1, 2, 5, 6),
    username: fc.constantFrom('ann', 'bob', 'cy', 'nobody'),
    token_name: fc.constantFrom(...TOKENS),
    model_name: fc.constantFrom(...MODEL_PATTERNS),
    channel: fc.constantFrom(1, 2, 9),
    group: fc.constantFrom(...GROUPS),
    start: boundArb,
    end: boundArb,
    p: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 4, max: 60 })),
    page_size: fc.integer({ min: 1, max: 25 }),
  },
  { requiredKeys: ['p', 'page_size'] },
);
type Filter = typeof filterArb extends fc.Arbitrary<infer T> ? T : never;

/** The reference: rows, COUNT and SUM straight over `logs`, written here independently of the repository. */
function rawQuery(db: Db, f: Partial<Filter>, selfId?: number, forceType?: number) {
  let q = db.selectFrom('logs');
  const type = forceType ?? f.type;
  if (type) q = q.where('type', '=', type);
  if (selfId !== undefined) q = q.where('user_id', '=', selfId);
  else {
    if (f.username) q = q.where('username', '=', f.username);
    if (f.channel) q = q.where('channel_id', '=', f.channel);
  }
  if (f.token_name) q = q.where('token_name', '=', f.token_name);
  if (f.model_name) q = q.where('model_name', 'like', f.model_name);
  if (f.group) q = q.where('group', '=', f.group);
  if (f.start !== undefined) q = q.where('created_at', '>=', T0 + f.start);
  if (f.end !== undefined) q = q.where('created_at', '<=', T0 + f.end);
  return q;
}

async function rawTotals(db: Db, f: Partial<Filter>, selfId?: number, forceType?: number) {
  const r = await rawQuery(db, f, selfId, forceType)
    .select([(e) => e.fn.countAll().as('n'), sql<number | null>`sum(quota)`.as('q')])
    .executeTakeFirstOrThrow();
  return { count: Number(r.n), quota: Number(r.q ?? 0) };
}

async function rawPageIds(db: Db, f: Filter, selfId?: number) {
  const rows = await rawQuery(db, f, selfId)
    .select('id')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(f.page_size)
    .offset((f.p - 1) * f.page_size)
    .execute();
  return rows.map((r) => (selfId === undefined ? Number(r.id) : Number(r.id) % 1024));
}

const query = (f: Filter) => ({
  ...f,
  start_timestamp: f.start === undefined ? undefined : T0 + f.start,
  end_timestamp: f.end === undefined ? undefined : T0 + f.end,
});

/** Checks a page (rows and total) and the stat box, admin and self views, against the reference. */
async function expectExact(t: TestApp, f: Filter, selfId: number) {
  const logs = t.deps.services.logs;
  const q = query(f);
  const [page, stat, selfPage, selfStat] = await Promise.all([
    logs.listAll(logListInput.parse(q)),
    logs.statAll(logFilterInput.parse(q)),
    logs.listSelf(selfId, logListInput.parse(q)),
    logs.statSelf(selfId, logFilterInput.parse(q)),
  ]);
  const db = t.deps.db;
  const [all, consumed, mine, mineConsumed, ids, selfIds] = await Promise.all([
    rawTotals(db, f),
    rawTotals(db, f, undefined, 2),
    rawTotals(db, f, selfId),
    rawTotals(db, f, selfId, 2),
    rawPageIds(db, f),
    rawPageIds(db, f, selfId),
  ]);
  expect({
    total: page.total,
    stat: stat.quota,
    selfTotal: selfPage.total,
    selfStat: selfStat.quota,
    ids: page.items.map((i) => i.id),
    selfIds: selfPage.items.map((i) => i.id),
  }).toEqual({
    total: all.count,
    stat: consumed.quota,
    selfTotal: mine.count,
    selfStat: mineConsumed.quota,
    ids,
    selfIds,
  });
}

/** The rollup equals what the SQL rebuild (the migration's backfill) makes from `logs`. */
async function expectRollupMatchesLogs(db: Db) {
  const snapshot = () =>
    db
      .selectFrom('log_hourly')
      .selectAll()
      .orderBy(sql`level, hour, type, user_id, username, token_name, model_name, channel_id, "group"`)
      .execute()
      .then((rows) =>
        rows.map((r) => ({ ...r, hour: Number(r.hour), count: Number(r.count), quota: Number(r.quota) })),
      );
  const kept = await snapshot();
  await rebuildLogHourly(db);
  expect(kept).toEqual(await snapshot());
}

describe('page totals and the stat box over the hourly rollup', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    const rows = fc.sample(rowArb, { numRuns: 700, seed: 9 }).map(toLog);
    // In batches, as the settlement queue and the log writer write them.
    for (let i = 0; i < rows.length; i += 70) await insertLogs(t.deps.db, rows.slice(i, i + 70));
  });
  afterAll(() => t.close());

  it('equal the rows, COUNT and SUM over `logs` for any filter, range and page, partial hours included', async () => {
    await expectRollupMatchesLogs(t.deps.db);
    await fc.assert(
      fc.asyncProperty(filterArb, fc.constantFrom(1, 2, 3), (f, self) => expectExact(t, f, self)),
      { numRuns: 300 },
    );
  });

  it('stay exact after deleting before a time in the middle of an hour', async () => {
    const target = T0 + 5 * HOUR + 1234;
    const before = await rawTotals(t.deps.db, {});
    const below = await rawTotals(t.deps.db, { end: 5 * HOUR + 1233 });
    expect(below.count).toBeGreaterThan(0);
    expect(await t.deps.services.logs.deleteBefore(target)).toBe(below.count);
    expect((await rawTotals(t.deps.db, {})).count).toBe(before.count - below.count);
    await expectRollupMatchesLogs(t.deps.db);
    // Small batches split hours, and even rows of one second, between transactions.
    const next = T0 + 9 * HOUR + 17;
    while ((await deleteLogsBeforeBatch(t.deps.db, next, 7)) > 0);
    expect((await rawTotals(t.deps.db, { end: 9 * HOUR + 16 })).count).toBe(0);
    await expectRollupMatchesLogs(t.deps.db);
    await fc.assert(
      fc.asyncProperty(filterArb, fc.constantFrom(1, 2, 3), (f, self) => expectExact(t, f, self)),
      { numRuns: 100 },
    );
  });

  it("sum prompt and cache-read tokens (the rows' other.cache_tokens) per model and per channel", async () => {
    const rows = await t.deps.db.selectFrom('logs').select(['model_name', 'prompt_tokens', 'other']).execute();
    const cached = (o: string) =>
      o.startsWith('{"model_ratio"') ? (JSON.parse(o) as { cache_tokens: number }).cache_tokens : 0;
    const byModel = await t.deps.db
      .selectFrom('log_hourly')
      .select(['model_name', sql<number>`sum(prompt_tokens)`.as('p'), sql<number>`sum(cache_tokens)`.as('c')])
      .where('level', '=', 2)
      .groupBy('model_name')
      .execute();
    for (const m of MODELS) {
      const mine = rows.filter((r) => r.model_name === m);
      const bucket = byModel.find((b) => b.model_name === m);
      expect([Number(bucket?.p), Number(bucket?.c)]).toEqual([
        mine.reduce((n, r) => n + Number(r.prompt_tokens), 0),
        mine.reduce((n, r) => n + cached(r.other), 0),
      ]);
    }
    expect(byModel.reduce((n, b) => n + Number(b.c), 0)).toBeGreaterThan(0);
  });

  it('find the buckets on the rollup indexes (SQLite)', async () => {
    if (t.deps.dbType !== 'sqlite') return;
    const plan = async (w: Parameters<typeof hourlyTotalsQuery>[1]) => {
      const q = hourlyTotalsQuery(t.deps.db, w, T0, T0 + 24 * HOUR).compile();
      const rows = await sql
        .raw<{ detail: string }>(`explain query plan ${inline(q.sql, q.parameters)}`)
        .execute(t.deps.db);
      return rows.rows.map((r) => r.detail).join(' | ');
    };
    expect(await plan({})).toMatch(/log_hourly_key_uq \(level=\? AND hour>\? AND hour<\?\)/);
    expect(await plan({ type: 2, modelName: 'gpt%' })).toMatch(/log_hourly_key_uq \(level=\? AND hour>\?/);
    expect(await plan({ userId: 1, type: 2 })).toMatch(/log_hourly_(user_idx|key_uq)/);
    expect(await plan({ username: 'ann' })).toMatch(/log_hourly_(username_idx|key_uq)/);
    expect(await plan({ channelId: 1 })).toMatch(/log_hourly_(channel_idx|key_uq)/);
    for (const w of [{}, { userId: 1 }, { username: 'ann', modelName: 'x' }, { channelId: 2, group: 'vip' }])
      expect(await plan(w)).not.toMatch(/SCAN log_hourly/);
  });
});

describe('the hourly rollup', () => {
  it('is filled from the existing logs by the migration', async () => {
    const t = await createTestApp();
    try {
      const db = t.deps.db;
      const migrator = await createMigrator(db);
      const { error } = await migrator.migrateTo('2026-11-23T0000-job-leases');
      expect(error).toBeUndefined();
      // Rows as an older version (or an import) left them: no rollup yet.
      const rows = fc.sample(rowArb, { numRuns: 300, seed: 4 }).map(toLog);
      for (let i = 0; i < rows.length; i += 50)
        await db
          .insertInto('logs')
          .values(rows.slice(i, i + 50))
          .execute();
      await migrateToLatest(db);
      await expectRollupMatchesLogs(db);
      const total = await db
        .selectFrom('log_hourly')
        .select(sql<number>`sum(count)`.as('n'))
        .where('level', '=', 0);
      expect(Number((await total.executeTakeFirstOrThrow()).n)).toBe(300);
      for (const f of fc.sample(filterArb, { numRuns: 40, seed: 5 })) await expectExact(t, f, 2);
    } finally {
      await t.close();
    }
  });

  describe('with relayed requests', () => {
    let h: RelayHarness;
    beforeAll(async () => {
      h = await startRelayHarness();
      await setOptions(h.deps, { ModelRatio: JSON.stringify({ 'rollup-model': 2 }) });
      await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['rollup-model'] });
    });
    afterAll(() => h.close());

    it('counts each request in the transaction that settles it', async () => {
      const user = await insertUser(h.deps);
      const token = await insertToken(h.deps, user.id, { name: 'relay-token' });
      const client = h.client(token.key);
      await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          client.chat.completions.create({ model: 'rollup-model', messages: [{ role: 'user', content: `hi ${i}` }] }),
        ),
      );
      const stream = await client.chat.completions.create({
        model: 'rollup-model',
        stream: true,
        messages: [{ role: 'user', content: 'stream' }],
      });
      for await (const _ of stream);
      await h.drain();
      const logs = h.deps.services.logs;
      const raw = await h.deps.db
        .selectFrom('logs')
        .select([(e) => e.fn.countAll().as('n'), sql<number>`sum(quota)`.as('q')])
        .where('user_id', '=', user.id)
        .where('type', '=', 2)
        .executeTakeFirstOrThrow();
      expect(Number(raw.n)).toBe(7);
      expect(Number(raw.q)).toBeGreaterThan(0);
      const stat = await logs.statSelf(user.id, logFilterInput.parse({ token_name: 'relay-token' }));
      expect(stat.quota).toBe(Number(raw.q));
      const page = await logs.listAll(logListInput.parse({ username: user.username, model_name: 'rollup%' }));
      expect(page.total).toBe(7);
      const hourly = await h.deps.db
        .selectFrom('log_hourly')
        .select(sql<number>`sum(count)`.as('n'))
        .where('level', '=', 4)
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(Number(hourly.n)).toBe(7);
      await expectRollupMatchesLogs(h.deps.db);
    });
  });
});

/** EXPLAIN needs literal SQL: numbers as they are, strings quoted. */
function inline(text: string, params: readonly unknown[]) {
  let i = 0;
  return text.replace(/\?/g, () => {
    const p = params[i++];
    return typeof p === 'string' ? `'${p.replace(/'/g, "''")}'` : String(p);
  });
}
