import type { Db } from '../../db/types.ts';

/* A user's own view of the messages sent to them: always filtered by the receipt's user_id. */

const inboxQuery = (db: Db, userId: number) =>
  db
    .selectFrom('message_recipients as r')
    .innerJoin('messages as m', 'm.id', 'r.message_id')
    .where('r.user_id', '=', userId);

const inboxColumns = ['m.id', 'm.title', 'm.content', 'm.format', 'm.created_at', 'r.read_at', 'm.notice'] as const;

export const listInbox = (db: Db, userId: number, offset: number, limit: number) =>
  inboxQuery(db, userId)
    .select(inboxColumns)
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();

export const countInbox = async (db: Db, userId: number) =>
  Number(
    (
      await inboxQuery(db, userId)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

export const countUnread = async (db: Db, userId: number) =>
  Number(
    (
      await db
        .selectFrom('message_recipients')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .executeTakeFirstOrThrow()
    ).n,
  );

export const findInboxItem = (db: Db, userId: number, messageId: number) =>
  inboxQuery(db, userId).select(inboxColumns).where('m.id', '=', messageId).executeTakeFirst();

/** Sets read_at only while unread, so the first read time is kept. */
export const markRead = (db: Db, userId: number, messageId: number, now: number) =>
  db
    .updateTable('message_recipients')
    .set({ read_at: now })
    .where('user_id', '=', userId)
    .where('message_id', '=', messageId)
    .where('read_at', 'is', null)
    .execute();
