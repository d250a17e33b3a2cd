import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from '../constants.ts';

/*
 * Inputs of the log, usage-data and dashboard calls (api-contract §5). One schema
 * serves the console (numbers) and new-api clients (query strings, often empty),
 * so numbers accept both and an empty value means "not given".
 */

export const LOG_MESSAGES = {
  notNumber: '参数必须是整数',
  targetRequired: '请指定目标时间戳',
  spanTooLong: '时间跨度不能超过 1 个月',
  rangeInverted: '开始时间不能晚于结束时间',
  tokenNotFound: '令牌不存在',
  userNotFound: '用户不存在',
} as const;

/** Self views and the admin list cap the page size so one call stays cheap. */
export const MAX_SELF_PAGE_SIZE = 100;
export const MAX_ADMIN_PAGE_SIZE = 1000;
/** Searches answer the newest rows only (new-api's behaviour). */
export const SEARCH_LIMIT = 100;
/** Self usage-data calls may span at most this many seconds (30 days). */
export const MAX_SELF_DATA_SPAN = 30 * 24 * 3600;

const num = (fallback: number) =>
  z
    .union([z.number(), z.string()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || (typeof v === 'string' && v.trim() === '')) return fallback;
      const n = Number(v);
      if (!Number.isSafeInteger(n)) {
        ctx.addIssue({ code: 'custom', message: LOG_MESSAGES.notNumber });
        return z.NEVER;
      }
      return n;
    });

const text = () =>
  z
    .string()
    .max(200)
    .optional()
    .transform((v) => (v ?? '').trim());

/** Filters shared by the list and the stat calls; 0 and '' mean "any". */
export const logFilterFields = {
  type: num(0),
  username: text(),
  token_name: text(),
  model_name: text(),
  start_timestamp: num(0),
  end_timestamp: num(0),
  channel: num(0),
  group: text(),
};

export const logFilterInput = z.object(logFilterFields);
export type LogFilterInput = z.input<typeof logFilterInput>;
export type LogFilter = z.output<typeof logFilterInput>;

export const logListInput = z.object({
  ...logFilterFields,
  p: num(1),
  page_size: num(DEFAULT_PAGE_SIZE),
});
export type LogListInput = z.input<typeof logListInput>;
export type LogListQuery = z.output<typeof logListInput>;

export const logSearchInput = z.object({ keyword: text() });

export const logByKeyInput = z.object({ key: text() });

export const logDeleteInput = z.object({ target_timestamp: num(0) });

export const quotaDataInput = z.object({
  start_timestamp: num(0),
  end_timestamp: num(0),
  username: text(),
});
export type QuotaDataInput = z.input<typeof quotaDataInput>;
export type QuotaDataQuery = z.output<typeof quotaDataInput>;

/** The dashboard's last-minute rates: admins may name one user ('' is everyone). */
export const dashboardRatesInput = z.object({ username: text() });

export const userInfoInput = z.object({ id: num(0).pipe(z.number().positive(LOG_MESSAGES.userNotFound)) });
