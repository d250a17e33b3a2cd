import { PostgresAdapter, type SelectQueryBuilder, sql } from 'kysely';
import { inTransaction } from '../../db/in-transaction.ts';
import { preparedInsert } from '../../db/prepared.ts';
import type { Database, Db } from '../../db/types.ts';
import type { LogWhere } from './logs.repo.ts';

/*
 * `log_hourly`: log rows counted (and their quota summed) per hour and type, so the
 * log page's total and stat box add up a few thousand buckets instead of millions
 * of rows. One table, several levels of detail; a level keeps some filter columns
 * and stores 0 / '' in the others (every level keeps the group, a short list):
 *
 *   GROUP    group                                     no filter, type, time or group only
 *   USER     user_id, username, token_name, group      a user's own page, admin by user name
 *   MODEL    model_name, group                         admin by model
 *   CHANNEL  channel_id, group                         admin by channel
 *   FULL     every filter column                       any other combination
 *
 * Exact, never approximate: every insert or delete of a log row changes its buckets
 * in the same transaction (`insertLogs` in insert-logs.repo.ts, the log deletion), and the migration
 * summed the rows that existed before. Buckets only ever get increments (upserts),
 * so concurrent writers on PostgreSQL never lose one another's updates.
 */

export const Level = { GROUP: 0, USER: 1, MODEL: 2, CHANNEL: 3, FULL: 4 } as const;

const HOUR = 3600;

/** The hour a time falls in (rounded down, also below zero, as the migration does). */
export const hourOf = (t: number) => t - (((t % HOUR) + HOUR) % HOUR);

/** What a log row contributes to its buckets (a NewLog, or a row a delete returned). */
export interface RollupSource {
  type?: number;
  created_at: number;
  user_id?: number;
  username?: string;
  token_name?: string;
  model_name?: string;
  channel_id?: number;
  group?: string;
  quota?: number;
  prompt_tokens?: number;
  completion_tokens?: number;
  /** The row's `other` JSON: its cache_tokens are summed (cacheTokensOf). */
  other?: string | null;
}

const CACHE_MARK = '"cache_tokens":';

/**
 * A log row's cache-read tokens as the relay writes them into `other`: the digits right after the
 * first `"cache_tokens":` in the text (at most 18), 0 when none. A text rule rather than a JSON parse,
 * so SQL computes the same on both databases (cacheTokensSql, the 2026-11-27 migration) and a row
 * deleted later takes out of its buckets exactly what it added.
 */
export function cacheTokensOf(other: string | null | undefined): number {
  const at = other ? other.indexOf(CACHE_MARK) : -1;
  if (at < 0) return 0;
  const digits = /^[0-9]{0,18}/.exec(other!.slice(at + CACHE_MARK.length, at + CACHE_MARK.length + 18))![0];
  return digits === '' ? 0 : Number(digits);
}

/** cacheTokensOf in the database's SQL, over a row's `other` column. */
function cacheTokensSql(db: Db): string {
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    return `coalesce(nullif(substring(other from '"cache_tokens":([0-9]{0,18})'), '')::bigint, 0)`;
  return `case when instr(other, '"cache_tokens":') > 0
    and substr(other, instr(other, '"cache_tokens":') + 15, 1) between '0' and '9'
    then cast(substr(other, instr(other, '"cache_tokens":') + 15, 18) as integer) else 0 end`;
}

/** The filter columns a bucket can keep (a level keeps some, see KEPT). */
const DIMS = ['user_id', 'username', 'token_name', 'model_name', 'channel_id', 'group'] as const;
type Dim = (typeof DIMS)[number];

/** The columns `RollupSource` reads, for a RETURNING list. */
export const ROLLUP_SOURCE_COLUMNS = [
  'type',
  'created_at',
  ...DIMS,
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'other',
] as const;

const KEY_COLUMNS = ['level', 'hour', 'type', ...DIMS] as const;

interface Bucket {
  level: number;
  hour: number;
  type: number;
  user_id: number;
  username: string;
  token_name: string;
  model_name: string;
  channel_id: number;
  group: string;
  count: number;
  quota: number;
  tokens: number;
  prompt_tokens: number;
  cache_tokens: number;
}

/** Per level, the filter columns it keeps of a row (the others stay 0 / ''). */
const KEPT: Record<number, readonly Dim[]> = {
  [Level.GROUP]: ['group'],
  [Level.USER]: ['user_id', 'username', 'token_name', 'group'],
  [Level.MODEL]: ['model_name', 'group'],
  [Level.CHANNEL]: ['channel_id', 'group'],
  [Level.FULL]: DIMS,
};

const lp = (s: string) => `${s.length}:${s}`;
/** KEPT as flags, so the per-row loop below allocates nothing but new buckets. */
const MASKS = Object.entries(KEPT).map(([level, kept]) => ({
  level: Number(level),
  user: kept.includes('user_id'),
  username: kept.includes('username'),
  token: kept.includes('token_name'),
  model: kept.includes('model_name'),
  channel: kept.includes('channel_id'),
  group: kept.includes('group'),
}));

/** Sums rows into one bucket per level and key; `sign` -1 takes them out. */
function buckets(rows: readonly RollupSource[], sign: 1 | -1): Bucket[] {
  const map = new Map<string, Bucket>();
  for (const r of rows) {
    const hour = hourOf(Number(r.created_at));
    const type = Number(r.type ?? 0);
    const quota = sign * Number(r.quota ?? 0);
    const prompt = sign * Number(r.prompt_tokens ?? 0);
    const tokens = prompt + sign * Number(r.completion_tokens ?? 0);
    const cached = sign * cacheTokensOf(r.other);
    for (const m of MASKS) {
      const user_id = m.user ? Number(r.user_id ?? 0) : 0;
      const username = m.username ? (r.username ?? '') : '';
      const token_name = m.token ? (r.token_name ?? '') : '';
      const model_name = m.model ? (r.model_name ?? '') : '';
      const channel_id = m.channel ? Number(r.channel_id ?? 0) : 0;
      const group = m.group ? (r.group ?? '') : '';
      // A plain joined key (length-prefixed strings keep it unambiguous): this runs for every
      // log row at every level, inside the settlement.
      const id = `${m.level}|${hour}|${type}|${user_id}|${channel_id}|${lp(username)}${lp(token_name)}${lp(model_name)}${lp(group)}`;
      let b = map.get(id);
      if (!b) {
        b = {
          level: m.level,
          hour,
          type,
          user_id,
          username,
          token_name,
          model_name,
          channel_id,
          group,
          count: 0,
          quota: 0,
          tokens: 0,
          prompt_tokens: 0,
          cache_tokens: 0,
        };
        map.set(id, b);
      }
      b.count += sign;
      b.quota += quota;
      b.tokens += tokens;
      b.prompt_tokens += prompt;
      b.cache_tokens += cached;
    }
  }
  // One order for every writer, so two transactions never lock the same buckets in opposite orders.
  return [...map.values()].sort(compareKeys);
}

function compareKeys(a: Bucket, b: Bucket): number {
  for (const c of KEY_COLUMNS) if (a[c] !== b[c]) return a[c] < b[c] ? -1 : 1;
  return 0;
}

/** Rows per upsert statement: 14 parameters each stays under SQLite's old 999-parameter limit. */
const CHUNK = 70;

const BUCKET_COLUMNS = [...KEY_COLUMNS, 'count', 'quota', 'tokens', 'prompt_tokens', 'cache_tokens'] as const;
const upsertBuckets = preparedInsert<Bucket>(
  (db, rows) =>
    db
      .insertInto('log_hourly')
      .values(rows)
      .onConflict((oc) =>
        oc.columns([...KEY_COLUMNS]).doUpdateSet({
          count: sql`log_hourly.count + excluded.count`,
          quota: sql`log_hourly.quota + excluded.quota`,
          tokens: sql`log_hourly.tokens + excluded.tokens`,
          prompt_tokens: sql`log_hourly.prompt_tokens + excluded.prompt_tokens`,
          cache_tokens: sql`log_hourly.cache_tokens + excluded.cache_tokens`,
        }),
      ),
  BUCKET_COLUMNS,
);

async function upsert(db: Db, rows: Bucket[]) {
  for (let i = 0; i < rows.length; i += CHUNK) await upsertBuckets(db, rows.slice(i, i + CHUNK));
}

/** Adds log rows just inserted (in this transaction) to their buckets. */
export async function addToLogHourly(db: Db, rows: readonly RollupSource[]): Promise<void> {
  const b = buckets(rows, 1);
  if (b.length > 0) await upsert(db, b);
}

/** Takes log rows just deleted (in this transaction) out of their buckets, and drops the buckets left empty. */
export async function subtractFromLogHourly(db: Db, rows: readonly RollupSource[]): Promise<void> {
  const b = buckets(rows, -1);
  if (b.length === 0) return;
  await upsert(db, b);
  const hours = b.map((x) => x.hour);
  const [from, to] = [Math.min(...hours), Math.max(...hours)];
  for (const level of Object.values(Level))
    await db
      .deleteFrom('log_hourly')
      .where('level', '=', level)
      .where('hour', '>=', from)
      .where('hour', '<=', to)
      .where('count', '<=', 0)
      .execute();
}

/** The level with the fewest buckets that still has every column the filter uses. */
export function levelFor(w: LogWhere): number {
  const user = w.userId !== undefined || !!w.username || !!w.tokenName;
  const model = !!w.modelName;
  const channel = !!w.channelId;
  if (!user && !model && !channel) return Level.GROUP;
  if (!user && !model) return Level.CHANNEL;
  if (!user && !channel) return Level.MODEL;
  if (!model && !channel) return Level.USER;
  return Level.FULL;
}

type HourlyQuery<O> = SelectQueryBuilder<Database, 'log_hourly', O>;

/** The log filters (all but time) on the bucket columns, with the same semantics as on `logs`. */
function filtered<O>(q: HourlyQuery<O>, w: LogWhere): HourlyQuery<O> {
  let r = q.where('level', '=', levelFor(w));
  if (w.userId !== undefined) r = r.where('user_id', '=', w.userId);
  if (w.type) r = r.where('type', '=', w.type);
  if (w.username) r = r.where('username', '=', w.username);
  if (w.tokenName) r = r.where('token_name', '=', w.tokenName);
  if (w.modelName) r = r.where('model_name', 'like', w.modelName);
  if (w.channelId) r = r.where('channel_id', '=', w.channelId);
  if (w.group) r = r.where('group', '=', w.group);
  return r;
}

/**
 * The whole hours inside the inclusive range [start, end] (either may be absent):
 * hours h with start <= h and h + 3599 <= end, as [from, to) on the hour starts.
 * Undefined when no whole hour fits.
 */
export function wholeHours(start?: number, end?: number): { from?: number; to?: number } | undefined {
  const from = start === undefined ? undefined : hourOf(start + HOUR - 1);
  const to = end === undefined ? undefined : hourOf(end + 1);
  if (from !== undefined && to !== undefined && from >= to) return undefined;
  return { from, to };
}

export interface LogTotals {
  count: number;
  quota: number;
}

/** The bucket query behind `hourlyTotals`, exposed so a test can check its plan uses the indexes. */
export function hourlyTotalsQuery(db: Db, w: LogWhere, from?: number, to?: number) {
  let q = filtered(
    db
      .selectFrom('log_hourly')
      .select([
        sql<number | string | null>`sum(count)`.as('count'),
        sql<number | string | null>`sum(quota)`.as('quota'),
      ]),
    w,
  );
  if (from !== undefined) q = q.where('hour', '>=', from);
  if (to !== undefined) q = q.where('hour', '<', to);
  return q;
}

/** Row count and quota sum of the rows matching `w` (time ignored) in the whole hours [from, to). */
export async function hourlyTotals(db: Db, w: LogWhere, from?: number, to?: number): Promise<LogTotals> {
  const row = await hourlyTotalsQuery(db, w, from, to).executeTakeFirstOrThrow();
  return { count: Number(row.count ?? 0), quota: Number(row.quota ?? 0) };
}

/** Rows matching `w` (time ignored) per whole hour in [from, to), newest hour first; hours without any left out. */
export async function hourlyCounts(
  db: Db,
  w: LogWhere,
  from?: number,
  to?: number,
): Promise<{ hour: number; count: number }[]> {
  let q = filtered(db.selectFrom('log_hourly').select(['hour', sql<number | string>`sum(count)`.as('count')]), w);
  if (from !== undefined) q = q.where('hour', '>=', from);
  if (to !== undefined) q = q.where('hour', '<', to);
  const rows = await q.groupBy('hour').orderBy('hour', 'desc').execute();
  return rows.map((r) => ({ hour: Number(r.hour), count: Number(r.count) })).filter((r) => r.count > 0);
}

/**
 * Counts every row of `logs` into `log_hourly` again, in SQL (what the migration did):
 * for tools that load rows into `logs` directly, bypassing `insertLogs`.
 */
export async function rebuildLogHourly(db: Db): Promise<void> {
  const q = (c: string) => `"${c}"`;
  const cache = cacheTokensSql(db);
  await inTransaction(db, async (trx) => {
    await trx.deleteFrom('log_hourly').execute();
    for (const [level, kept] of Object.entries(KEPT)) {
      const select = DIMS.map((c) => (kept.includes(c) ? q(c) : c.endsWith('_id') ? '0' : "''")).join(', ');
      const groupBy = ['h', 'type', ...kept.map(q)].join(', ');
      await sql`
        insert into log_hourly (level, hour, type, user_id, username, token_name, model_name, channel_id, "group",
          count, quota, tokens, prompt_tokens, cache_tokens)
        select ${sql.raw(level)}, h, type, ${sql.raw(select)}, count(*), sum(quota),
          sum(prompt_tokens + completion_tokens), sum(prompt_tokens), sum(ct)
        from (select created_at - (((created_at % 3600) + 3600) % 3600) as h, ${sql.raw(cache)} as ct, logs.*
          from logs) l
        group by ${sql.raw(groupBy)}`.execute(trx);
    }
  });
}
