import type { ChannelRow } from '../../db/types.ts';
import { AppError, badRequest } from '../../errors.ts';
import { balanceByType } from './probe-balance.ts';
import { baseUrlOf, firstKeyOf, networkText, upstreamErrorText, upstreamJson } from './probe-http.ts';
import { probeRequestFor } from './probe-requests.ts';

/**
 * The channel service's only way to talk to an upstream for tests and balances.
 * Kept small on purpose: the relay may later provide a `test` that runs through
 * its provider adapters; the service neither knows nor cares.
 */
export interface ChannelProbe {
  /** Sends one minimal request with `model`; never throws for an upstream failure (AppError when untestable). */
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

async function testOverHttp(channel: ChannelRow, model: string): Promise<ProbeResult> {
  const req = probeRequestFor(channel, model);
  const started = performance.now();
  try {
    const res = await upstreamJson(req.url, { method: 'POST', headers: req.headers, body: req.body });
    const timeMs = Math.round(performance.now() - started);
    // Some OpenAI-style resellers answer errors with HTTP 200 and an `error` object.
    const hasError = typeof res.body === 'object' && res.body !== null && 'error' in res.body;
    if (res.status >= 200 && res.status < 300 && !hasError) return { ok: true, timeMs, message: '' };
    return { ok: false, timeMs, message: upstreamErrorText(res.status, res.body) };
  } catch (err) {
    return { ok: false, timeMs: Math.round(performance.now() - started), message: networkText(err) };
  }
}

/** The default probe: plain HTTP with undici against the channel's base URL. */
export function createHttpChannelProbe(): ChannelProbe {
  return {
    test: testOverHttp,
    async balance(channel) {
      const fn = balanceByType[channel.type];
      if (!fn) throw badRequest('该渠道类型暂不支持查询余额');
      const value = await fn(baseUrlOf(channel), firstKeyOf(channel.key));
      if (!Number.isFinite(value)) throw new AppError('SERVICE_UNAVAILABLE', '上游返回的余额格式无法识别');
      return Math.round(value * 1e6) / 1e6;
    },
  };
}
