import type { OptionReader } from '../../shared/options.ts';
import type { ProviderAdapter } from './providers/types.ts';

/**
 * Retry policy (relay.md §4). Only upstream failures are retried — errors the
 * gateway makes itself (auth, quota, bad input) are final — and never once a byte
 * reached the client (the caller stops retrying after the first write).
 */

/** Attempts for one request: 1 + RetryTimes, or 1 + global.auto_retry_count when auto retry is on. */
export function maxAttempts(opt: OptionReader): number {
  return 1 + (opt('global.auto_retry_enabled') ? opt('global.auto_retry_count') : opt('RetryTimes'));
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
 * Whether an upstream status may be retried on another channel. Auto retry uses
 * its own status list; the default rule is 429 and 5xx except 504/524 (a timeout
 * is likely to time out again and doubles the wait), plus the statuses the channel's
 * provider names (Anthropic's 400). A status that just disabled the channel (dead
 * key) is always worth another channel [beyond].
 */
export function isRetryableStatus(
  status: number,
  opt: OptionReader,
  adapter: Pick<ProviderAdapter, 'retryableStatuses'>,
  disabledChannel: boolean,
) {
  if (disabledChannel) return true;
  if (opt('global.auto_retry_enabled')) return statusMatcher(opt('global.auto_retry_status_codes'))(status);
  if (status === 429) return true;
  if (status >= 500) return status !== 504 && status !== 524;
  return adapter.retryableStatuses?.includes(status) ?? false;
}
