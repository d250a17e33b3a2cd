import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from '../constants.ts';

/*
 * Inputs of the message and inbox calls, shared by the REST adapter, tRPC and the console.
 * Shapes only: the "required after trimming" and "at least one recipient" rules live in the
 * service so both transports answer with the spec's exact text ("请输入消息标题", ...),
 * without zod's path prefix.
 */

export const MESSAGE_FORMATS = ['markdown', 'html'] as const;
export const messageFormat = z.enum(MESSAGE_FORMATS, { message: '消息格式只能是 markdown 或 html' });
export type MessageFormat = z.infer<typeof messageFormat>;

/** Missing text becomes '' so the service can say which field is required. */
const text = z.string({ message: '参数必须是字符串' }).trim().default('');

export const messageFields = z.object({
  title: text,
  content: text,
  format: messageFormat.default('markdown'),
});
export type MessageFields = z.infer<typeof messageFields>;

const userId = z.coerce.number({ message: 'id 必须是数字' }).int('id 必须是整数').positive('id 无效');

/** tRPC (camelCase) create input. */
export const createMessageInput = messageFields.extend({ userIds: z.array(userId).default([]) });
export type CreateMessageInput = z.infer<typeof createMessageInput>;

/** REST body of POST /api/admin/messages, as new-api consoles send it. */
export const createMessageBody = messageFields
  .extend({ user_ids: z.array(userId).default([]) })
  .transform(({ user_ids, ...rest }) => ({ ...rest, userIds: user_ids }));

export const messageId = z.object({ id: userId });

export const updateMessageInput = messageFields.extend({ id: userId });

export const pageInput = z.object({
  page: z.number().int().default(1),
  pageSize: z.number().int().default(DEFAULT_PAGE_SIZE),
});
export type PageInput = z.infer<typeof pageInput>;

/**
 * Admin list and search. Dates are ISO strings: a bare day (YYYY-MM-DD, read as a UTC day)
 * or a full timestamp (the console sends local start and end of day). Used only when both are given.
 */
const isoDate = z
  .string()
  .trim()
  .refine((v) => v === '' || !Number.isNaN(Date.parse(v)), '日期格式无效')
  .optional();

export const listMessagesInput = pageInput.extend({
  keyword: z.string().trim().optional(),
  startDate: isoDate,
  endDate: isoDate,
});
export type ListMessagesInput = z.infer<typeof listMessagesInput>;

/** The console's plain-text preview rule: 100 characters at most, 97 plus '...' when cut. */
export const PREVIEW_LENGTH = 100;
export const MESSAGE_PAGE_SIZE_KEY = 'message-page-size';
export const RECIPIENT_PICKER_PAGE_SIZE = 20;
export const RECIPIENTS_PAGE_SIZE = 10;
export const UNREAD_POLL_MS = 30_000;
