import { ChannelType } from '../../../shared/channel-types.ts';
import { AppError } from '../../errors.ts';
import { networkText, upstreamErrorText, upstreamJson } from './probe-http.ts';

/* Balance endpoints per provider (relay.md §4); all answer USD. */

const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN);

async function getJson(url: string, key: string): Promise<Record<string, unknown>> {
  let res;
  try {
    res = await upstreamJson(url, { authorization: `Bearer ${key}` });
  } catch (err) {
    throw new AppError('SERVICE_UNAVAILABLE', networkText(err));
  }
  if (res.status < 200 || res.status >= 300 || typeof res.body !== 'object' || res.body === null)
    throw new AppError('SERVICE_UNAVAILABLE', upstreamErrorText(res.status, res.body));
  return res.body as Record<string, unknown>;
}

/** OpenAI's legacy billing endpoints (also served by many OpenAI-style resellers). */
async function openAiBalance(base: string, key: string): Promise<number> {
  const sub = await getJson(`${base}/v1/dashboard/billing/subscription`, key);
  const now = new Date();
  const start = new Date(now.getTime() - 100 * 86_400_000).toISOString().slice(0, 10);
  const end = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
  const usage = await getJson(`${base}/v1/dashboard/billing/usage?start_date=${start}&end_date=${end}`, key);
  // total_usage is in cents.
  return num(sub.hard_limit_usd) - num(usage.total_usage) / 100;
}

async function deepSeekBalance(base: string, key: string): Promise<number> {
  const body = await getJson(`${base}/user/balance`, key);
  const infos = (body.balance_infos as { currency?: string; total_balance?: string }[] | undefined) ?? [];
  const info = infos.find((i) => i.currency === 'USD') ?? infos[0];
  return num(info?.total_balance);
}

async function siliconFlowBalance(base: string, key: string): Promise<number> {
  const body = await getJson(`${base}/v1/user/info`, key);
  return num((body.data as { totalBalance?: unknown } | undefined)?.totalBalance);
}

/** OpenRouter's default base URL already ends in /api. */
async function openRouterBalance(base: string, key: string): Promise<number> {
  const body = await getJson(`${base}/v1/credits`, key);
  const data = body.data as { total_credits?: unknown; total_usage?: unknown } | undefined;
  return num(data?.total_credits) - num(data?.total_usage);
}

const CUSTOM = 8;

export const balanceByType: Record<number, (base: string, key: string) => Promise<number>> = {
  [ChannelType.OpenAI]: openAiBalance,
  [CUSTOM]: openAiBalance,
  [ChannelType.DeepSeek]: deepSeekBalance,
  [ChannelType.SiliconFlow]: siliconFlowBalance,
  [ChannelType.OpenRouter]: openRouterBalance,
};
