import type { CreateMessageInput, ListMessagesInput, MessageFields } from '../../../shared/schemas/messages.ts';
import type { Kysely } from 'kysely';
import { readStoredNotice, type StoredNotice, storedMessageText } from '../../../shared/stored-message.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Database } from '../../db/types.ts';
import { badRequest, notFound } from '../../errors.ts';
import { createInboxService } from './inbox.service.ts';
import * as repo from './messages.repo.ts';
import { dateRange, normalisePage } from './paging.rules.ts';

export const MESSAGE_NOT_FOUND = '消息不存在';

/** The spec's create/edit rules; the schemas have already trimmed the text. */
function checkFields(f: MessageFields) {
  if (!f.title) throw badRequest('message.enter_title');
  if (!f.content) throw badRequest('message.enter_content');
}

/*
 * HTML content is stored exactly as the admin wrote it. It is never trusted on display:
 * the console renders html (and markdown, which may embed html) only through DOMPurify.
 * A server-side blocklist (e.g. refusing "<script") would be both incomplete and a false
 * comfort, so there is none; any other client of /api/user/messages must sanitise too.
 */
export function createMessagesService(db: Kysely<Database>) {
  async function withStats<T extends { id: number; notice: string }>(rows: T[]) {
    const stats = await repo.recipientStats(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({
      ...r,
      notice: readStoredNotice(r.notice),
      stats: stats.get(r.id) ?? { total_recipients: 0, read_count: 0 },
    }));
  }

  async function get(id: number) {
    const row = await repo.findMessage(db, id);
    if (!row) throw notFound('message.not_found');
    return (await withStats([row]))[0];
  }

  /** `notice`: the registry messages of a notice the server wrote (JSON), stored beside its words. */
  async function create(input: CreateMessageInput, createdBy: number, notice = '') {
    checkFields(input);
    const userIds = [...new Set(input.userIds)];
    if (userIds.length === 0) throw badRequest('message.select_recipient');
    const found = await repo.existingUserIds(db, userIds);
    const missing = userIds.filter((id) => !found.has(id));
    if (missing.length > 0) throw badRequest('message.recipients_missing', { ids: missing.slice(0, 10).join(', ') });
    const id = await db.transaction().execute(async (tx) => {
      const t = nowSeconds();
      const messageId = await repo.insertMessage(tx, {
        title: input.title,
        content: input.content,
        format: input.format,
        created_by: createdBy,
        created_at: t,
        notice,
      });
      await repo.insertRecipients(tx, messageId, userIds, t);
      return messageId;
    });
    return get(id);
  }

  /** The notice's Chinese words (what other clients read); the console renders the stored messages. */
  const noticeTitle = (n: StoredNotice) => storedMessageText(n.title);

  async function toRoot(notice: StoredNotice): Promise<boolean> {
    const roots = await repo.rootUserIds(db);
    if (roots.length === 0) return false;
    const fields = {
      title: noticeTitle(notice),
      content: storedMessageText(notice.content),
      format: 'markdown' as const,
    };
    await create({ ...fields, userIds: roots }, 0, JSON.stringify(notice));
    return true;
  }

  return {
    create: (input: CreateMessageInput, createdBy: number) => create(input, createdBy),
    /** A system notice (author 0, markdown) to every root user; false when there is none. */
    toRoot,
    /**
     * `toRoot` unless a message with this title was already sent: the inbox is the memory, so a
     * restart or a second instance does not tell root again. True when it was sent now.
     */
    async toRootOnce(notice: StoredNotice): Promise<boolean> {
      if (await repo.titleSent(db, noticeTitle(notice))) return false;
      return toRoot(notice);
    },

    async list(input: ListMessagesInput) {
      const { page, pageSize, offset } = normalisePage(input.page, input.pageSize);
      const filter = { keyword: input.keyword || undefined, ...dateRange(input.startDate, input.endDate) };
      const [rows, total] = await Promise.all([
        repo.listMessages(db, filter, offset, pageSize),
        repo.countMessages(db, filter),
      ]);
      return { items: await withStats(rows), page, page_size: pageSize, total };
    },

    get,

    async recipients(id: number) {
      await get(id);
      const rows = await repo.listRecipients(db, id);
      return rows.map((r) => ({
        user_id: Number(r.user_id),
        username: r.username ?? '',
        display_name: r.display_name ?? '',
        read_at: r.read_at,
      }));
    },

    /** Title, format and content only: recipients never change after sending. Edited words are the editor's own. */
    async update(id: number, fields: MessageFields) {
      checkFields(fields);
      const ok = await repo.updateMessage(db, id, { ...fields, updated_at: nowSeconds(), notice: '' });
      if (!ok) throw notFound('message.not_found');
      return get(id);
    },

    async remove(id: number) {
      const ok = await db.transaction().execute(async (tx) => {
        await repo.deleteRecipientsOf(tx, id);
        return repo.deleteMessage(tx, id);
      });
      // Nothing was deleted, so the transaction changed nothing either.
      if (!ok) throw notFound('message.not_found');
    },

    inbox: createInboxService(db),
  };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
