import { isRoot, LogType } from '../../../shared/constants.ts';
import {
  type LogFilter,
  type LogListQuery,
  MAX_ADMIN_PAGE_SIZE,
  MAX_SELF_DATA_SPAN,
  MAX_SELF_PAGE_SIZE,
  type QuotaDataQuery,
  SEARCH_LIMIT,
} from '../../../shared/schemas/logs.ts';
import type { AuthUser } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Db } from '../../db/types.ts';
import { badRequest, forbidden, notFound } from '../../errors.ts';
import {
  channelNamesByIds,
  countRequestsAndTokens,
  findTokenIdByKey,
  findUserSummary,
  listLogs,
  listLogsByToken,
  type LogWhere,
  pageLogs,
  searchAllLogs,
  sumLogQuota,
} from './logs.repo.ts';
import { deleteLogsBeforeBatch } from './logs-delete.repo.ts';
import { adminLogView, type LogView, selfLogView } from './logs.view.ts';
import { errorRatesBy } from './error-rates.repo.ts';
import { cacheSharesBy } from './cache-share.repo.ts';
import { listAllQuotaData, listQuotaDataByUser, listUserQuotaData, type QuotaDataRow } from './quota-data.repo.ts';

export type LogsService = ReturnType<typeof createLogsService>;

/** Rows per delete statement: a few milliseconds of SQLite's writer each. */
const DELETE_BATCH = 1000;

export interface LogPage {
  items: LogView[];
  total: number;
  page: number;
  page_size: number;
}

/** The dashboard's error rates (issue 28): calls and failed attempts, and how many of them failed. */
export interface ErrorRates {
  models: { model_name: string; requests: number; errors: number }[];
  channels: { channel_id: number; channel_name: string; requests: number; errors: number }[];
}

/** The dashboard's prompt-cache figures (issue 29): answered calls' prompt tokens and those read from the cache. */
export interface PromptCacheShares {
  models: { model_name: string; requests: number; prompt_tokens: number; cache_tokens: number }[];
  channels: {
    channel_id: number;
    channel_name: string;
    requests: number;
    prompt_tokens: number;
    cache_tokens: number;
  }[];
}

export interface LogStat {
  quota: number;
  rpm: number;
  tpm: number;
}

/**
 * The usage log's RPM and TPM (api-contract §5: consume rows of the last 60 s, whatever range the
 * page shows); the dashboard shows the same figures, so both read them through `recentRates`.
 */
export const RATE_WINDOW_S = 60;

/** Requests and tokens of the consume rows in the last `window_s` seconds. */
export interface RecentRates {
  rpm: number;
  tpm: number;
  window_s: number;
}

/** Admin filters as given; a user's own view is pinned to their id and ignores username and channel. */
function toWhere(f: LogFilter, selfId?: number): LogWhere {
  const common: LogWhere = {
    type: f.type,
    tokenName: f.token_name,
    modelName: f.model_name,
    group: f.group,
    start: f.start_timestamp,
    end: f.end_timestamp,
  };
  if (selfId !== undefined) return { ...common, userId: selfId };
  return { ...common, username: f.username, channelId: f.channel };
}

/** new-api's style A paging: p below 1 is 1; a size below 1 is the default; sizes are capped. */
function paging(q: LogListQuery, max: number) {
  const page = Math.max(1, q.p);
  const pageSize = q.page_size < 1 ? 10 : Math.min(q.page_size, max);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export function createLogsService(db: Db) {
  async function page(q: LogListQuery, selfId: number | undefined): Promise<LogPage> {
    const { page: p, pageSize, offset } = paging(q, selfId === undefined ? MAX_ADMIN_PAGE_SIZE : MAX_SELF_PAGE_SIZE);
    const where = toWhere(q, selfId);
    const { rows, total } = await pageLogs(db, where, offset, pageSize);
    let items: LogView[];
    if (selfId === undefined) {
      const names = await channelNamesByIds(db, [...new Set(rows.map((r) => Number(r.channel_id)).filter(Boolean))]);
      items = rows.map((r) => adminLogView(r, names));
    } else {
      items = rows.map(selfLogView);
    }
    return { items, total, page: p, page_size: pageSize };
  }

  /** The rates of the consume rows matching `where` (its time range ignored) in the last RATE_WINDOW_S. */
  async function recentRates(where: LogWhere): Promise<RecentRates> {
    const recent = { ...where, type: LogType.Consume, start: nowSeconds() - RATE_WINDOW_S, end: undefined };
    const rate = await countRequestsAndTokens(db, recent);
    return { rpm: rate.requests, tpm: rate.tokens, window_s: RATE_WINDOW_S };
  }

  async function stat(f: LogFilter, selfId: number | undefined): Promise<LogStat> {
    // Consumed quota is about consume rows whatever type the page filters on.
    const where = { ...toWhere(f, selfId), type: LogType.Consume };
    const [quota, rate] = await Promise.all([sumLogQuota(db, where), recentRates(where)]);
    return { quota, rpm: rate.rpm, tpm: rate.tpm };
  }

  function dataRange(q: QuotaDataQuery, self: boolean) {
    const end = q.end_timestamp > 0 ? q.end_timestamp : nowSeconds();
    const start = q.start_timestamp > 0 ? q.start_timestamp : self ? Math.max(0, end - MAX_SELF_DATA_SPAN) : 0;
    if (start > end) throw badRequest('log.range_inverted');
    if (self && end - start > MAX_SELF_DATA_SPAN) throw badRequest('log.span_too_long');
    return { start, end };
  }

  return {
    /** Every user's logs (admins), channel names filled in. */
    listAll: (q: LogListQuery) => page(q, undefined),

    /** One user's own logs in the self view. */
    listSelf: (userId: number, q: LogListQuery) => page(q, userId),

    statAll: (f: LogFilter) => stat(f, undefined),

    statSelf: (userId: number, f: LogFilter) => stat(f, userId),

    /** The dashboard's RPM/TPM: the usage log's, for every user or one by name (admins). */
    ratesAll: (username: string) => recentRates({ username }),

    /** The dashboard's RPM/TPM for one user's own calls. */
    ratesSelf: (userId: number) => recentRates({ userId }),

    async searchAll(keyword: string): Promise<LogView[]> {
      const rows = await searchAllLogs(db, keyword, SEARCH_LIMIT);
      const names = await channelNamesByIds(db, [...new Set(rows.map((r) => Number(r.channel_id)).filter(Boolean))]);
      return rows.map((r) => adminLogView(r, names));
    },

    /** new-api matches a user's search keyword against the log type only. */
    async searchSelf(userId: number, keyword: string): Promise<LogView[]> {
      const type = Number(keyword);
      if (keyword === '' || !Number.isInteger(type)) return [];
      const rows = await listLogs(db, { userId, type }, 0, SEARCH_LIMIT);
      return rows.map(selfLogView);
    },

    /** Public "query my key" lookup: the token's newest logs in the self view. */
    async byTokenKey(key: string): Promise<LogView[]> {
      const bare = key.replace(/^sk-/, '');
      if (bare === '') throw badRequest('token.not_found');
      const token = await findTokenIdByKey(db, bare);
      if (!token) throw notFound('token.not_found');
      const rows = await listLogsByToken(db, Number(token.id), SEARCH_LIMIT);
      return rows.map(selfLogView);
    },

    /**
     * Log cleanup (the admin's "delete before", and retention's hourly run): removes
     * rows older than the target in batches, yielding between them so the relay's
     * writes get in; answers how many went. `signal` (shutdown) stops between batches.
     */
    async deleteBefore(target: number, signal?: AbortSignal): Promise<number> {
      if (target <= 0) throw badRequest('log.target_required');
      let deleted = 0;
      for (;;) {
        const n = await deleteLogsBeforeBatch(db, target, DELETE_BATCH);
        deleted += n;
        if (n < DELETE_BATCH || signal?.aborted) return deleted;
        await new Promise((resolve) => setImmediate(resolve));
      }
    },

    /** Usage buckets for the dashboard; without a username all users are summed per model and hour. */
    quotaDataAll(q: QuotaDataQuery): Promise<QuotaDataRow[]> {
      const { start, end } = dataRange(q, false);
      return q.username
        ? listUserQuotaData(db, { username: q.username }, start, end)
        : listAllQuotaData(db, start, end);
    },

    /** The dashboard's user ranking (GET /api/data/users): every user's usage per hour in the range. */
    quotaDataByUser(q: QuotaDataQuery): Promise<QuotaDataRow[]> {
      const { start, end } = dataRange(q, false);
      return listQuotaDataByUser(db, start, end);
    },

    /**
     * Every user's requests and errors per model and per channel in the range (admins). Requests are
     * the answered calls plus the failed ones and the failed attempts retried elsewhere.
     */
    async errorRates(q: QuotaDataQuery): Promise<ErrorRates> {
      const { start, end } = dataRange(q, false);
      const [models, channels] = await Promise.all([
        errorRatesBy(db, 'model', start, end),
        errorRatesBy(db, 'channel', start, end),
      ]);
      const names = await channelNamesByIds(db, channels.map((c) => Number(c.key)).filter(Boolean));
      return {
        models: models.map((m) => ({ model_name: String(m.key), requests: m.successes + m.errors, errors: m.errors })),
        channels: channels.map((c) => ({
          channel_id: Number(c.key),
          channel_name: names.get(Number(c.key)) ?? '',
          requests: c.successes + c.errors,
          errors: c.errors,
        })),
      };
    },

    /** Every user's prompt tokens and cache-read tokens per model and per channel in the range (admins). */
    async promptCache(q: QuotaDataQuery): Promise<PromptCacheShares> {
      const { start, end } = dataRange(q, false);
      const [models, channels] = await Promise.all([
        cacheSharesBy(db, 'model', start, end),
        cacheSharesBy(db, 'channel', start, end),
      ]);
      const names = await channelNamesByIds(db, channels.map((c) => Number(c.key)).filter(Boolean));
      const figures = (r: (typeof models)[number]) => ({
        requests: r.requests,
        prompt_tokens: r.promptTokens,
        cache_tokens: r.cacheTokens,
      });
      return {
        models: models.map((m) => ({ model_name: String(m.key), ...figures(m) })),
        channels: channels.map((c) => ({
          channel_id: Number(c.key),
          channel_name: names.get(Number(c.key)) ?? '',
          ...figures(c),
        })),
      };
    },

    quotaDataSelf(userId: number, q: QuotaDataQuery): Promise<QuotaDataRow[]> {
      const { start, end } = dataRange(q, true);
      return listUserQuotaData(db, { userId }, start, end);
    },

    /** The admin popup on a log's username; like GET /api/user/:id, only for users of a lower role. */
    async userInfo(actor: AuthUser, id: number) {
      const user = await findUserSummary(db, id);
      if (!user) throw notFound('user.not_found');
      if (user.role >= actor.role && !isRoot(actor.role) && user.id !== actor.id) throw forbidden();
      return {
        id: Number(user.id),
        username: user.username,
        quota: Number(user.quota),
        used_quota: Number(user.used_quota),
        request_count: Number(user.request_count),
        group: user.group,
      };
    },
  };
}
