import type { ChannelRow } from '../../db/types.ts';
import { AppError, badRequest } from '../../errors.ts';
import { balanceByType } from './probe-balance.ts';
import { baseUrlOf, firstKeyOf } from './probe-http.ts';

/**
 * The channel service's only way to talk to an upstream for tests and balances.
 * Tests run through the relay's provider adapters (relay.md §4), handed in by
 * services.ts as `test`; the service neither knows nor cares how.
 */
export interface ChannelProbe {
  /**
   * Sends one minimal request with `model`; never throws for an upstream failure (AppError when
   * untestable). `signal` (shutdown) abandons the request.
   */
  test(channel: ChannelRow, model: string, signal?: AbortSignal): Promise<ProbeResult>;
  /** The channel's remaining balance in USD; throws AppError when unsupported or failing. */
  balance(channel: ChannelRow): Promise<number>;
}

export interface ProbeResult {
  ok: boolean;
  timeMs: number;
  /** The upstream's error text on failure ("" on success); never contains the key. */
  message: string;
}

/** The probe: `test` as given; balances from the provider's billing endpoints over plain HTTP. */
export function createChannelProbe(test: ChannelProbe['test']): ChannelProbe {
  return {
    test,
    async balance(channel) {
      const fn = balanceByType[channel.type];
      if (!fn) throw badRequest('该渠道类型暂不支持查询余额');
      const value = await fn(baseUrlOf(channel), firstKeyOf(channel.key));
      if (!Number.isFinite(value)) throw new AppError('SERVICE_UNAVAILABLE', '上游返回的余额格式无法识别');
      return Math.round(value * 1e6) / 1e6;
    },
  };
}
