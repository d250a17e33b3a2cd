import { type SelectQueryBuilder, sql } from 'kysely';
import type { Database, Db } from '../../db/types.ts';

/*
 * Read-side log queries (the relay's log-writer owns the inserts). Every list is
 * newest first on (created_at, id) so SQLite and PostgreSQL can walk
 * logs_created_idx / logs_user_created_idx / logs_type_created_idx backwards and
 * stop at LIMIT instead of sorting the whole table.
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
  if (w.type) r = r.where('type', '=', w.type);
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

export async function countLogs(db: Db, w: LogWhere): Promise<number> {
  const row = await where(db.selectFrom('logs'), w)
    .select((e) => e.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Sum of `quota` over the matching rows (0 when none). */
export async function sumLogQuota(db: Db, w: LogWhere): Promise<number> {
  const row = await where(db.selectFrom('logs'), w)
    .select(sql<number | string | null>`sum(quota)`.as('quota'))
    .executeTakeFirstOrThrow();
  return Number(row.quota ?? 0);
}

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

export async function deleteLogsBefore(db: Db, target: number): Promise<number> {
  const r = await db.deleteFrom('logs').where('created_at', '<', target).executeTakeFirst();
  return Number(r.numDeletedRows);
}

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
