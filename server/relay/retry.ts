import { DEFAULT_RETRY_STATUS_CODES, type OptionReader } from '../../shared/options.ts';
import type { ProviderAdapter } from './providers/types.ts';

/**
 * Retry policy (relay.md §4). Only upstream failures are retried — errors the
 * gateway makes itself (auth, quota, bad input) are final — and never once a byte
 * reached the client (the caller stops retrying after the first write).
 */

/**
 * Attempts for one request: the first channel plus `RetryTimes` others (default 3). The legacy key
 * `global.auto_retry_count` is the same number under another name (the options service keeps both equal).
 */
export function maxAttempts(opt: OptionReader): number {
  return 1 + opt('RetryTimes');
}

const listCache = new Map<string, (status: number) => boolean>();

/** Parses `5xx,4xx,429,500-503` into a predicate; empty means every status. */
export function statusMatcher(list: string): (status: number) => boolean {
  let m = listCache.get(list);
  if (m) return m;
  const parts = list
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  const tests = parts.map((p): ((s: number) => boolean) => {
    if (/^[1-5]xx$/.test(p)) return (s) => Math.floor(s / 100) === Number(p[0]);
    const [a, b] = p.split('-').map(Number);
    return b === undefined ? (s) => s === a : (s) => s >= a && s <= b;
  });
  m = parts.length === 0 ? () => true : (s) => tests.some((t) => t(s));
  if (listCache.size < 100) listCache.set(list, m);
  return m;
}

/**
 * Whether an upstream status may be retried on another channel. The built-in rule
 * (DEFAULT_RETRY_STATUS_CODES) is 429 and 5xx except 504/524 (a timeout is likely to
 * time out again, doubles the client's wait, and the upstream may still be working and
 * billing), plus the statuses the channel's provider names (Anthropic's 400). With
 * `global.auto_retry_enabled` the operator's status list replaces it. A status that just
 * disabled the channel (dead key) is always worth another channel [beyond]. Connection
 * failures are always retried (attempts.ts): nothing reached the upstream.
 */
export function isRetryableStatus(
  status: number,
  opt: OptionReader,
  adapter: Pick<ProviderAdapter, 'retryableStatuses'>,
  disabledChannel: boolean,
) {
  if (disabledChannel) return true;
  if (opt('global.auto_retry_enabled')) return statusMatcher(opt('global.auto_retry_status_codes'))(status);
  if (statusMatcher(DEFAULT_RETRY_STATUS_CODES)(status)) return true;
  return adapter.retryableStatuses?.includes(status) ?? false;
}
