import { bearerGet, type ChannelQuery, numberOf } from '../../shared/channel-query.ts';

interface BalanceInfo {
  currency?: string;
  total_balance?: string;
}

/** DeepSeek's `GET /user/balance`: the USD balance, else the first currency's. */
export const deepSeekBalance: ChannelQuery<number> = {
  requests: (base, key) => [bearerGet(`${base}/user/balance`, key)],
  read([body]) {
    const infos = (body as { balance_infos?: BalanceInfo[] } | null)?.balance_infos ?? [];
    const info = infos.find((i) => i.currency === 'USD') ?? infos[0];
    return numberOf(info?.total_balance);
  },
};
