import type { Kysely } from 'kysely';
import type { PageInput } from '../../../shared/schemas/messages.ts';
import { readStoredNotice } from '../../../shared/stored-message.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Database } from '../../db/types.ts';
import { notFound } from '../../errors.ts';
import * as repo from './inbox.repo.ts';
import { normalisePage } from './paging.rules.ts';

const toItem = (r: Awaited<ReturnType<typeof repo.listInbox>>[number]) => ({
  id: Number(r.id),
  title: r.title,
  content: r.content,
  format: r.format,
  created_at: r.created_at,
  read_at: r.read_at,
  is_read: r.read_at !== null,
  notice: readStoredNotice(r.notice),
});

export type InboxItem = ReturnType<typeof toItem>;

/**
 * A user's inbox. Every query is scoped to the caller's receipts, so another user's
 * message answers "消息不存在" exactly like a missing one (no existence leak).
 */
export function createInboxService(db: Kysely<Database>) {
  async function get(userId: number, id: number) {
    const row = await repo.findInboxItem(db, userId, id);
    if (!row) throw notFound('message.not_found');
    return toItem(row);
  }

  return {
    async list(userId: number, input: PageInput) {
      const { page, pageSize, offset } = normalisePage(input.page, input.pageSize);
      const [rows, total] = await Promise.all([
        repo.listInbox(db, userId, offset, pageSize),
        repo.countInbox(db, userId),
      ]);
      return { items: rows.map(toItem), total, page, page_size: pageSize };
    },

    get,

    async unreadCount(userId: number) {
      return { unread_count: await repo.countUnread(db, userId) };
    },

    /** Idempotent: a second call keeps the first read time. */
    async markRead(userId: number, id: number) {
      await repo.markRead(db, userId, id, nowSeconds());
      return get(userId, id);
    },
  };
}
