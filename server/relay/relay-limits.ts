import type { FastifyReply } from 'fastify';
import type { AppDeps } from '../context.ts';
import { refusal, RelayError } from './errors.ts';
import type { RelayPrincipal } from './principal.ts';

const tooMany = (en: string, zh: string, retryAfterMs: number) =>
  Object.assign(refusal(429, en, zh, 'rate_limit_exceeded'), { retryAfterMs });

/**
 * A rate limit's 429 tells the client when to retry (`Retry-After`, whole seconds): every door's
 * error mapper calls it before answering in its own shape.
 */
export function setRetryAfter(reply: FastifyReply, err: unknown): void {
  const retryAfterMs = (err as { retryAfterMs?: number } | null)?.retryAfterMs;
  if (err instanceof RelayError && err.status === 429 && retryAfterMs)
    reply.header('retry-after', String(Math.ceil(retryAfterMs / 1000)));
}

/**
 * Relay rate limits (relay.md §6) on the shared store: the per-user model request
 * limit (Count = all requests, 0 unlimited; SuccessCount = successes; exempt groups)
 * and the per-token limit (token fields rate_limit_*). Returns the hook to count a
 * success once the request has succeeded.
 */
export async function checkRelayLimits(deps: AppDeps, p: RelayPrincipal): Promise<() => void> {
  const opt = deps.services.options.get;
  const onSuccess: (() => Promise<void>)[] = [];
  const store = deps.rateLimits;

  const minutes = opt('ModelRequestRateLimitDurationMinutes');
  if (opt('ModelRequestRateLimitEnabled') && minutes > 0 && !isExempt(deps, p.group)) {
    const windowMs = minutes * 60_000;
    const count = opt('ModelRequestRateLimitCount');
    if (count > 0) {
      const d = await store.take(`mrl:all:${p.user.id}`, count, windowMs);
      if (!d.allowed)
        throw tooMany(
          `You have reached the request limit: at most ${count} requests in ${minutes} minutes`,
          `您已达到请求数限制：${minutes} 分钟内最多请求 ${count} 次`,
          d.retryAfterMs,
        );
    }
    const success = opt('ModelRequestRateLimitSuccessCount');
    const okKey = `mrl:ok:${p.user.id}`;
    if ((await store.peek(okKey, windowMs)) >= success)
      throw tooMany(
        `You have reached the request limit: at most ${success} successful requests in ${minutes} minutes`,
        `您已达到请求数限制：${minutes} 分钟内最多成功请求 ${success} 次`,
        windowMs,
      );
    onSuccess.push(() => store.add(okKey, windowMs));
  }

  const t = p.token?.rateLimit;
  if (t && t.period > 0) {
    const windowMs = t.period * 1000;
    if (t.count > 0) {
      const d = await store.take(`trl:all:${p.token!.id}`, t.count, windowMs);
      if (!d.allowed)
        throw tooMany(
          `Too many requests with this token: at most ${t.count} in ${t.period} seconds`,
          `令牌请求过于频繁：${t.period} 秒内最多请求 ${t.count} 次`,
          d.retryAfterMs,
        );
    }
    if (t.success > 0) {
      const okKey = `trl:ok:${p.token!.id}`;
      if ((await store.peek(okKey, windowMs)) >= t.success)
        throw tooMany(
          `Too many requests with this token: at most ${t.success} successful ones in ${t.period} seconds`,
          `令牌请求过于频繁：${t.period} 秒内最多成功请求 ${t.success} 次`,
          windowMs,
        );
      onSuccess.push(() => store.add(okKey, windowMs));
    }
  }

  return () => {
    for (const f of onSuccess) f().catch((err) => deps.log.error({ err }, 'rate-limit count failed'));
  };
}

function isExempt(deps: AppDeps, group: string): boolean {
  const opt = deps.services.options.get;
  if (!opt('global.rate_limit_exempt_enabled')) return false;
  return opt('global.rate_limit_exempt_group')
    .split(',')
    .map((g) => g.trim())
    .includes(group);
}
