import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RelayPrincipal } from '../principal.ts';
import type { RelayRuntime } from '../runtime.ts';

/** What an unlimited token reports as its limit, as new-api does (OpenAI's clients need a number). */
const UNLIMITED_AMOUNT = 100_000_000;

interface Balance {
  remain: number;
  used: number;
  /** Unix seconds; 0 when it never expires. */
  accessUntil: number;
  unlimited: boolean;
}

/**
 * The calling token's balance (DisplayTokenStatEnabled) or its user's, read fresh: these calls are
 * rare and a client shows the answer as the account's balance.
 */
async function balanceOf(rt: RelayRuntime, p: RelayPrincipal): Promise<Balance> {
  const { services } = rt.deps;
  if (p.token && services.options.get('DisplayTokenStatEnabled')) {
    const t = await services.tokens.get({ id: p.user.id, group: p.user.group }, p.token.id);
    return {
      remain: Number(t.remain_quota),
      used: Number(t.used_quota),
      accessUntil: Math.max(0, Number(t.expired_time)),
      unlimited: t.unlimited_quota,
    };
  }
  const u = await services.users.getSelf(p.user.id);
  return { remain: u.quota, used: u.used_quota, accessUntil: 0, unlimited: p.token?.unlimited ?? false };
}

/**
 * OpenAI's legacy billing calls (api-contract §14), which chat front ends use to show a key's balance:
 * `subscription` gives the limit (used + remaining), `usage` what was used, in cents. Amounts are in
 * dollars when DisplayInCurrencyEnabled, else in quota units, as new-api answers them.
 */
export function registerBillingRoutes(
  app: FastifyInstance,
  rt: RelayRuntime,
  auth: (req: FastifyRequest) => Promise<RelayPrincipal>,
): void {
  const amount = (quota: number) => {
    const opt = rt.deps.services.options.get;
    return opt('DisplayInCurrencyEnabled') ? quota / opt('QuotaPerUnit') : quota;
  };
  const subscription = async (req: FastifyRequest) => {
    const b = await balanceOf(rt, await auth(req));
    const limit = b.unlimited ? UNLIMITED_AMOUNT : amount(b.remain + b.used);
    return {
      object: 'billing_subscription',
      has_payment_method: true,
      soft_limit_usd: limit,
      hard_limit_usd: limit,
      system_hard_limit_usd: limit,
      access_until: b.accessUntil,
    };
  };
  const usage = async (req: FastifyRequest) => {
    const b = await balanceOf(rt, await auth(req));
    return { object: 'list', total_usage: amount(b.used) * 100 };
  };
  for (const prefix of ['', '/v1']) {
    app.get(`${prefix}/dashboard/billing/subscription`, subscription);
    app.get(`${prefix}/dashboard/billing/usage`, usage);
  }
}
