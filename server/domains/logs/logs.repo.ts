import { type SelectQueryBuilder, sql } from 'kysely';
import type { Database, Db } from '../../db/types.ts';
import { hourlyCounts, hourlyTotals, type LogTotals, wholeHours } from './log-hourly.repo.ts';

/*
 * Read-side log queries (inserts go through `insertLogs` in insert-logs.repo.ts). Every
 * list is newest first on (created_at, id) so SQLite and PostgreSQL can walk
 * logs_created_idx, or the (column, created_at) index of the filter (user id, type,
 * user name, channel, token name), backwards and stop at LIMIT instead of sorting
 * the whole table. Totals and sums come from the hourly rollup (log-hourly.repo.ts).
 */

export interface LogWhere {
  userId?: number;
  type?: number;
  username?: string;
  tokenName?: string;
  /** SQL LIKE pattern as given (new-api adds no wildcards). */
  modelName?: string;
  channelId?: number;
  group?: string;
  /** Inclusive bounds, unix seconds. */
  start?: number;
  end?: number;
}

function where<O>(q: SelectQueryBuilder<Database, 'logs', O>, w: LogWhere): SelectQueryBuilder<Database, 'logs', O> {
  let r = q;
  if (w.userId !== undefined) r = r.where('user_id', '=', w.userId);
  // A user, user name, channel or token name picks out rows through its own index. SQLite keeps
  // no statistics here and would rather walk the type index (millions of consume rows) instead;
  // `type + 0` matches the same rows but is no index column. PostgreSQL reads it the same way.
  const narrow = w.userId !== undefined || !!w.username || !!w.channelId || !!w.tokenName;
  if (w.type) r = narrow ? r.where(sql`type + 0`, '=', w.type) : r.where('type', '=', w.type);
  if (w.username) r = r.where('username', '=', w.username);
  if (w.tokenName) r = r.where('token_name', '=', w.tokenName);
  if (w.modelName) r = r.where('model_name', 'like', w.modelName);
  if (w.channelId) r = r.where('channel_id', '=', w.channelId);
  if (w.group) r = r.where('group', '=', w.group);
  if (w.start) r = r.where('created_at', '>=', w.start);
  if (w.end) r = r.where('created_at', '<=', w.end);
  return r;
}

/** The page query, exposed as a builder so a test can check its plan uses the indexes. */
export const logsPageQuery = (db: Db, w: LogWhere, offset: number, limit: number) =>
  where(db.selectFrom('logs').selectAll(), w)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset);

export const listLogs = (db: Db, w: LogWhere, offset: number, limit: number) =>
  logsPageQuery(db, w, offset, limit).execute();

async function rawTotals(db: Db, w: LogWhere): Promise<LogTotals> {
  const row = await where(db.selectFrom('logs'), w)
    .select([(e) => e.fn.countAll().as('count'), sql<number | string | null>`sum(quota)`.as('quota')])
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), quota: Number(row.quota ?? 0) };
}

const noRows = Promise.resolve<LogTotals>({ count: 0, quota: 0 });
const edgeTotals = (db: Db, edge: LogWhere | undefined) => (edge ? rawTotals(db, edge) : noRows);

/**
 * The range of `w` cut into the whole hours [from, to), read from the `log_hourly`
 * rollup, and the partial hours at its ends, read from `logs` (few rows, on the time
 * indexes). Undefined when no whole hour fits, or when an edge would start at 0
 * (which `where` reads as "no bound"): then everything is read from `logs`.
 */
function splitRange(w: LogWhere) {
  const start = w.start || undefined;
  const end = w.end || undefined;
  const hours = wholeHours(start, end);
  if (!hours || hours.to === 0) return undefined;
  const { from, to } = hours;
  return {
    from,
    to,
    left: from !== undefined && start !== undefined && start < from ? { ...w, start, end: from - 1 } : undefined,
    right: to !== undefined && end !== undefined && to <= end ? { ...w, start: to, end } : undefined,
  };
}

/** Row count and quota sum of the matching rows: exact, and a few thousand buckets over months of logs. */
async function logTotals(db: Db, w: LogWhere): Promise<LogTotals> {
  const split = splitRange(w);
  if (!split) return rawTotals(db, w);
  const parts = await Promise.all([
    hourlyTotals(db, w, split.from, split.to),
    edgeTotals(db, split.left),
    edgeTotals(db, split.right),
  ]);
  return { count: parts.reduce((n, t) => n + t.count, 0), quota: parts.reduce((n, t) => n + t.quota, 0) };
}

/**
 * One page of rows, newest first, and the total (rollup hours plus raw edges). The
 * same per-hour counts tell from which hour on the newest `offset + limit` rows lie,
 * so the rows query reads only that stretch of time however rare the filter's rows
 * are (a user name with a type, a model seen once, none at all). Exact: at least
 * `offset + limit` matching rows are at or after that hour, so they are the same rows.
 */
export async function pageLogs(db: Db, w: LogWhere, offset: number, limit: number) {
  const split = splitRange(w);
  if (!split) {
    const [rows, totals] = await Promise.all([listLogs(db, w, offset, limit), rawTotals(db, w)]);
    return { rows, total: totals.count };
  }
  const [perHour, left, right] = await Promise.all([
    hourlyCounts(db, w, split.from, split.to),
    edgeTotals(db, split.left),
    edgeTotals(db, split.right),
  ]);
  const total = perHour.reduce((n, h) => n + h.count, left.count + right.count);
  if (total <= offset) return { rows: [], total };
  // Newest first: the partial hour at the end, then the whole hours (the left edge is bounded already).
  const need = offset + limit;
  let seen = right.count;
  let since = seen >= need ? split.to : undefined;
  for (const h of perHour) {
    if (since !== undefined) break;
    seen += h.count;
    if (seen >= need) since = h.hour;
  }
  const narrower = since !== undefined && since !== 0 && (w.start === undefined || since > w.start);
  const rows = await listLogs(db, narrower ? { ...w, start: since } : w, offset, limit);
  return { rows, total };
}

/** Sum of `quota` over the matching rows (0 when none). */
export const sumLogQuota = async (db: Db, w: LogWhere): Promise<number> => (await logTotals(db, w)).quota;

/** Request and token counts of the matching rows (used for the last 60 s). */
export async function countRequestsAndTokens(db: Db, w: LogWhere): Promise<{ requests: number; tokens: number }> {
  const row = await where(db.selectFrom('logs'), w)
    .select([
      (e) => e.fn.countAll().as('requests'),
      sql<number | string | null>`sum(prompt_tokens + completion_tokens)`.as('tokens'),
    ])
    .executeTakeFirstOrThrow();
  return { requests: Number(row.requests), tokens: Number(row.tokens ?? 0) };
}

/** Admin search: the type equals the keyword, or the content starts with it. */
export function searchAllLogs(db: Db, keyword: string, limit: number) {
  const asType = /^\d+$/.test(keyword) ? Number(keyword) : -1;
  const prefix = `${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db
    .selectFrom('logs')
    .selectAll()
    .where((e) => e.or([e('type', '=', asType), sql<boolean>`content like ${prefix} escape '\\'`]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export const listLogsByToken = (db: Db, tokenId: number, limit: number) =>
  db
    .selectFrom('logs')
    .selectAll()
    .where('token_id', '=', tokenId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();

export async function channelNamesByIds(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('channels').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}

/** A deleted token's key no longer opens its logs. */
export const findTokenIdByKey = (db: Db, key: string) =>
  db.selectFrom('tokens').select('id').where('key', '=', key).where('deleted_at', 'is', null).executeTakeFirst();

export const findUserSummary = (db: Db, id: number) =>
  db
    .selectFrom('users')
    .select(['id', 'username', 'role', 'quota', 'used_quota', 'request_count', 'group'])
    .where('id', '=', id)
    .executeTakeFirst();
