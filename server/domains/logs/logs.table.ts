import type { Insertable, Selectable } from 'kysely';
import type { Defaulted, Id } from '../../db/columns.ts';

/* The rows of `logs`, `log_hourly`, `quota_data` (joined into `Database` by server/db/types.ts). */

export interface LogsTable {
  id: Id;
  user_id: Defaulted<number>;
  created_at: number;
  type: Defaulted<number>;
  content: Defaulted<string>;
  username: Defaulted<string>;
  token_name: Defaulted<string>;
  model_name: Defaulted<string>;
  quota: Defaulted<number>;
  prompt_tokens: Defaulted<number>;
  completion_tokens: Defaulted<number>;
  use_time: Defaulted<number>;
  is_stream: Defaulted<number>;
  channel_id: Defaulted<number>;
  token_id: Defaulted<number>;
  group: Defaulted<string>;
  ip: Defaulted<string>;
  request_id: Defaulted<string>;
  other: Defaulted<string>;
}

/**
 * Log rows counted (and quota summed) per hour and type at a few levels of detail,
 * kept exact in the transactions that insert or delete logs
 * (server/domains/logs/log-hourly.repo.ts). Columns a level does not keep hold 0 / ''.
 */
export interface LogHourlyTable {
  level: number;
  /** Start of the hour, unix seconds. */
  hour: number;
  type: number;
  user_id: Defaulted<number>;
  username: Defaulted<string>;
  token_name: Defaulted<string>;
  model_name: Defaulted<string>;
  channel_id: Defaulted<number>;
  group: Defaulted<string>;
  count: Defaulted<number>;
  quota: Defaulted<number>;
  /** Prompt plus completion tokens. */
  tokens: Defaulted<number>;
  /** Prompt tokens alone, and the part of them read from upstream prompt caches (other.cache_tokens). */
  prompt_tokens: Defaulted<number>;
  cache_tokens: Defaulted<number>;
}

export interface QuotaDataTable {
  id: Id;
  user_id: Defaulted<number>;
  username: Defaulted<string>;
  model_name: Defaulted<string>;
  /** Hour bucket, unix seconds. */
  created_at: number;
  token_used: Defaulted<number>;
  count: Defaulted<number>;
  quota: Defaulted<number>;
}

export type LogRow = Selectable<LogsTable>;
export type NewLog = Insertable<LogsTable>;
