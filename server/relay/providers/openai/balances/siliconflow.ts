import { bearerGet, type ChannelQuery, numberOf } from '../../shared/channel-query.ts';

/** SiliconFlow's `GET /v1/user/info`: `data.totalBalance`. */
export const siliconFlowBalance: ChannelQuery<number> = {
  requests: (base, key) => [bearerGet(`${base}/v1/user/info`, key)],
  read: ([body]) => numberOf((body as { data?: { totalBalance?: unknown } } | null)?.data?.totalBalance),
};
