import { type ExpressionBuilder, sql } from 'kysely';
import { Role } from '../../../shared/constants.ts';
import type { Database, Db } from '../../db/types.ts';

/*
 * Admin-side queries for messages and their receipts (message_recipients).
 * Plain Kysely, portable between SQLite and PostgreSQL; no rules here.
 */

// Bound-parameter lists stay well under SQLite's variable limit whatever the recipient count.
const CHUNK = 500;
const chunks = <T>(items: T[]) =>
  Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) => items.slice(i * CHUNK, (i + 1) * CHUNK));

const messageColumns = [
  'id',
  'title',
  'content',
  'format',
  'created_by',
  'created_at',
  'updated_at',
  'notice',
] as const;

export interface MessageFilter {
  keyword?: string;
  /** Unix seconds, both inclusive. */
  from?: number;
  to?: number;
}

/**
 * Escapes LIKE wildcards so a keyword such as "100%" matches literally. Lower-cased on both
 * sides because PostgreSQL's LIKE is case-sensitive and SQLite's is not.
 */
const likePattern = (keyword: string) => `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function applyFilter(eb: ExpressionBuilder<Database, 'messages'>, f: MessageFilter) {
  const conds = [];
  if (f.keyword) {
    const p = likePattern(f.keyword);
    conds.push(
      eb.or([
        sql<boolean>`lower(${sql.ref('title')}) like ${p} escape '\\'`,
        sql<boolean>`lower(${sql.ref('content')}) like ${p} escape '\\'`,
      ]),
    );
  }
  if (f.from !== undefined) conds.push(eb('created_at', '>=', f.from));
  if (f.to !== undefined) conds.push(eb('created_at', '<=', f.to));
  return eb.and(conds);
}

export const listMessages = (db: Db, f: MessageFilter, offset: number, limit: number) =>
  db
    .selectFrom('messages')
    .select(messageColumns)
    .where((eb) => applyFilter(eb, f))
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();

export const countMessages = async (db: Db, f: MessageFilter) =>
  Number(
    (
      await db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .where((eb) => applyFilter(eb, f))
        .executeTakeFirstOrThrow()
    ).n,
  );

export const findMessage = (db: Db, id: number) =>
  db.selectFrom('messages').select(messageColumns).where('id', '=', id).executeTakeFirst();

export interface RecipientStats {
  total_recipients: number;
  read_count: number;
}

/** Recipient and read counts for several messages in one grouped query. */
export async function recipientStats(db: Db, messageIds: number[]): Promise<Map<number, RecipientStats>> {
  const stats = new Map<number, RecipientStats>();
  for (const ids of chunks(messageIds)) {
    const rows = await db
      .selectFrom('message_recipients')
      .select((eb) => ['message_id', eb.fn.countAll().as('total'), eb.fn.count('read_at').as('read')])
      .where('message_id', 'in', ids)
      .groupBy('message_id')
      .execute();
    for (const r of rows)
      stats.set(Number(r.message_id), { total_recipients: Number(r.total), read_count: Number(r.read) });
  }
  return stats;
}

/** Every root user not deleted (system notices go to them). */
export async function rootUserIds(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('role', '>=', Role.Root)
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map((r) => Number(r.id));
}

/** Whether a message with exactly this title was ever sent. */
export async function titleSent(db: Db, title: string): Promise<boolean> {
  return (await db.selectFrom('messages').select('id').where('title', '=', title).executeTakeFirst()) !== undefined;
}

/** Which of these ids belong to live (not soft-deleted) users. */
export async function existingUserIds(db: Db, userIds: number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (const ids of chunks(userIds)) {
    const rows = await db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
    for (const r of rows) found.add(Number(r.id));
  }
  return found;
}

export interface NewMessage {
  title: string;
  content: string;
  format: string;
  created_by: number;
  created_at: number;
  /** JSON of the notice's registry messages, for a notice the server wrote. */
  notice?: string;
}

export async function insertMessage(db: Db, m: NewMessage): Promise<number> {
  const row = await db
    .insertInto('messages')
    .values({ ...m, updated_at: m.created_at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function insertRecipients(db: Db, messageId: number, userIds: number[], now: number) {
  for (const ids of chunks(userIds)) {
    await db
      .insertInto('message_recipients')
      .values(ids.map((user_id) => ({ message_id: messageId, user_id, read_at: null, created_at: now })))
      .execute();
  }
}

export const listRecipients = (db: Db, messageId: number) =>
  db
    .selectFrom('message_recipients as r')
    // A left join: a receipt stays listed even if its user row is gone.
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.user_id', 'u.username', 'u.display_name', 'r.read_at'])
    .where('r.message_id', '=', messageId)
    .orderBy('r.user_id', 'asc')
    .execute();

export async function updateMessage(
  db: Db,
  id: number,
  patch: { title: string; content: string; format: string; updated_at: number; notice: string },
): Promise<boolean> {
  const res = await db.updateTable('messages').set(patch).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export const deleteRecipientsOf = (db: Db, messageId: number) =>
  db.deleteFrom('message_recipients').where('message_id', '=', messageId).execute();

export async function deleteMessage(db: Db, id: number): Promise<boolean> {
  const res = await db.deleteFrom('messages').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
