import { bearerGet, type ChannelQuery, numberOf } from '../../shared/channel-query.ts';

/** OpenRouter's `GET /v1/credits` (its default base URL already ends in /api): credits bought minus used. */
export const openRouterBalance: ChannelQuery<number> = {
  requests: (base, key) => [bearerGet(`${base}/v1/credits`, key)],
  read([body]) {
    const data = (body as { data?: { total_credits?: unknown; total_usage?: unknown } } | null)?.data;
    return numberOf(data?.total_credits) - numberOf(data?.total_usage);
  },
};
