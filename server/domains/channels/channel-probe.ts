import { request } from 'undici';
import { ChannelType, channelTypeInfo } from '../../../shared/channel-types.ts';
import type { ChannelRow } from '../../db/types.ts';
import { AppError, badRequest } from '../../errors.ts';

/**
 * The channel service's only way to talk to an upstream for tests and balances.
 * Kept small on purpose: the relay may later provide a `test` that runs through
 * its provider adapters; the service neither knows nor cares.
 */
export interface ChannelProbe {
  /** Sends one minimal request with `model`; never throws for an upstream failure. */
  test(channel: ChannelRow, model: string): Promise<ProbeResult>;
  /** The channel's remaining balance in USD; throws AppError when unsupported or failing. */
  balance(channel: ChannelRow): Promise<number>;
}

export interface ProbeResult {
  ok: boolean;
  timeMs: number;
  /** The upstream's error text on failure ("" on success); never contains the key. */
  message: string;
}

const TIMEOUT_MS = 30_000;

export const baseUrlOf = (c: Pick<ChannelRow, 'base_url' | 'type'>) =>
  (c.base_url || channelTypeInfo(c.type)?.baseUrl || '').replace(/\/+$/, '');

export const firstKeyOf = (key: string) =>
  key
    .split('\n')
    .map((k) => k.trim())
    .find(Boolean) ?? '';

/** Embedding models answer only the embeddings endpoint. */
const isEmbeddingModel = (model: string) => /embed|bge-|m3e/i.test(model);

/** GET or POST JSON; resolves with the status and parsed body (null when not JSON). */
export async function upstreamJson(
  url: string,
  init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; body: unknown }> {
  const res = await request(url, {
    method: init.method ?? 'GET',
    headers: {
      accept: 'application/json',
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  const text = await res.body.text();
  try {
    return { status: res.statusCode, body: JSON.parse(text) as unknown };
  } catch {
    // Not JSON (an HTML error page, a proxy's text): keep a short excerpt for the message.
    return { status: res.statusCode, body: text.slice(0, 300) };
  }
}

/** The upstream's own error text, from OpenAI, Anthropic or plain shapes. */
export function upstreamErrorText(status: number, body: unknown): string {
  const b = body as { error?: { message?: string } | string; message?: string } | string | null;
  let text = '';
  if (typeof b === 'string') text = b;
  else if (b && typeof b.error === 'object' && b.error?.message) text = b.error.message;
  else if (b && typeof b.error === 'string') text = b.error;
  else if (b && typeof b.message === 'string') text = b.message;
  return `上游返回 HTTP ${status}${text ? `：${text}` : ''}`;
}

const networkText = (err: unknown) => `请求上游失败：${err instanceof Error ? err.message : String(err)}`;

async function testOpenAiStyle(channel: ChannelRow, model: string): Promise<ProbeResult> {
  const base = baseUrlOf(channel);
  const embedding = isEmbeddingModel(model);
  const url = `${base}/v1/${embedding ? 'embeddings' : 'chat/completions'}`;
  const body = embedding
    ? { model, input: 'hi' }
    : { model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 1, stream: false };
  const headers: Record<string, string> = { authorization: `Bearer ${firstKeyOf(channel.key)}` };
  if (channel.openai_organization) headers['openai-organization'] = channel.openai_organization;
  const started = performance.now();
  try {
    const res = await upstreamJson(url, { method: 'POST', headers, body });
    const timeMs = Math.round(performance.now() - started);
    const hasError = typeof res.body === 'object' && res.body !== null && 'error' in res.body;
    if (res.status >= 200 && res.status < 300 && !hasError) return { ok: true, timeMs, message: '' };
    return { ok: false, timeMs, message: upstreamErrorText(res.status, res.body) };
  } catch (err) {
    return { ok: false, timeMs: Math.round(performance.now() - started), message: networkText(err) };
  }
}

const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN);

async function getJson(url: string, key: string): Promise<Record<string, unknown>> {
  let res;
  try {
    res = await upstreamJson(url, { headers: { authorization: `Bearer ${key}` } });
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

async function openRouterBalance(base: string, key: string): Promise<number> {
  const body = await getJson(`${base}/v1/credits`, key);
  const data = body.data as { total_credits?: unknown; total_usage?: unknown } | undefined;
  return num(data?.total_credits) - num(data?.total_usage);
}

const balanceByType: Record<number, (base: string, key: string) => Promise<number>> = {
  [ChannelType.OpenAI]: openAiBalance,
  8: openAiBalance,
  [ChannelType.DeepSeek]: deepSeekBalance,
  [ChannelType.SiliconFlow]: siliconFlowBalance,
  [ChannelType.OpenRouter]: openRouterBalance,
};

/** The default probe: plain HTTP with undici against the channel's base URL. */
export function createHttpChannelProbe(): ChannelProbe {
  return {
    test: testOpenAiStyle,
    async balance(channel) {
      const fn = balanceByType[channel.type];
      if (!fn) throw badRequest('该渠道类型暂不支持查询余额');
      const value = await fn(baseUrlOf(channel), firstKeyOf(channel.key));
      if (!Number.isFinite(value)) throw new AppError('SERVICE_UNAVAILABLE', '上游返回的余额格式无法识别');
      return Math.round(value * 1e6) / 1e6;
    },
  };
}
