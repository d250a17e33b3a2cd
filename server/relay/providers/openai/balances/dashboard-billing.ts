import { bearerGet, type ChannelQuery, numberOf } from '../../shared/channel-query.ts';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * OpenAI's legacy billing endpoints (also served by many OpenAI-style resellers): the
 * subscription's hard limit minus the usage of the last 100 days, in USD.
 */
export const dashboardBilling: ChannelQuery<number> = {
  requests(base, key) {
    const now = Date.now();
    const usage = `start_date=${day(now - 100 * 86_400_000)}&end_date=${day(now + 86_400_000)}`;
    return [
      bearerGet(`${base}/v1/dashboard/billing/subscription`, key),
      bearerGet(`${base}/v1/dashboard/billing/usage?${usage}`, key),
    ];
  },
  read([sub, usage]) {
    // total_usage is in cents.
    const limit = (sub as { hard_limit_usd?: unknown } | null)?.hard_limit_usd;
    return numberOf(limit) - numberOf((usage as { total_usage?: unknown } | null)?.total_usage) / 100;
  },
};
