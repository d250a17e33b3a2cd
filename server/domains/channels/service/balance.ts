import { ChannelStatus } from '../../../../shared/constants.ts';
import { nowSeconds } from '../../../db/time.ts';
import { isAppError } from '../../../errors.ts';
import { listAllChannels, updateChannel } from '../channels.repo.ts';
import { type ChannelsCtx, channelsChanged, getChannelOrThrow } from './context.ts';

/* Balances (relay.md §4): asked of the upstream through the probe, stored on the channel. */
export function createChannelBalances(ctx: ChannelsCtx) {
  return {
    /** GET /api/channel/update_balance/:id: the new balance in USD. */
    async updateBalance(id: number): Promise<number> {
      const channel = await getChannelOrThrow(ctx, id);
      const balance = await ctx.probe.balance(channel);
      await updateChannel(ctx.db, id, { balance, balance_updated_time: nowSeconds() });
      channelsChanged(ctx);
      return balance;
    },

    /**
     * GET /api/channel/update_balance, and the background job every
     * ChannelBalanceRefreshIntervalMinutes: every enabled channel, one after the
     * other; failures are skipped. `signal` (shutdown) stops between channels.
     */
    async updateAllBalances(signal?: AbortSignal): Promise<void> {
      for (const channel of await listAllChannels(ctx.db)) {
        if (signal?.aborted) break;
        if (channel.status !== ChannelStatus.Enabled) continue;
        try {
          const balance = await ctx.probe.balance(channel);
          await updateChannel(ctx.db, channel.id, { balance, balance_updated_time: nowSeconds() });
        } catch (err) {
          if (!isAppError(err)) ctx.log.warn({ channelId: channel.id, err: (err as Error).message }, 'balance failed');
        }
      }
      channelsChanged(ctx);
    },
  };
}
