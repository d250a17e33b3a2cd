import type { Infra } from '../../context.ts';
import type { MessagesService } from '../messages/messages.service.ts';
import type { OptionsService } from '../options/options.service.ts';
import type { ChannelProbe } from './channel-probe.client.ts';
import { rebuildAllAbilities } from './service/abilities.ts';
import { createChannelBalances } from './service/balance.ts';
import { createChannelCalls } from './channel-calls.service.ts';
import { type ChannelsCtx, channelsChanged } from './service/context.ts';
import { createChannelModelFetch } from './service/fetch-models.ts';
import { createFilteredChannelList } from './service/filtered-list.ts';
import { createMultiKeyManagement } from './service/manage-keys.ts';
import { createChannelQueries } from './service/list.ts';
import { createChannelTags } from './service/tags.ts';
import { createChannelTests } from './service/test-runs.ts';
import { createChannelWrites } from './service/write.ts';

export type ChannelsService = ReturnType<typeof createChannelsService>;

/**
 * Channel management (admin): queries, writes with their abilities, tags, tests,
 * balances, model fetches. `probe` is the port to the upstreams (services.ts
 * hands in one whose tests run through the relay's provider adapters).
 */
export function createChannelsService(
  infra: Infra,
  options: OptionsService,
  messages: MessagesService,
  probe: ChannelProbe,
) {
  const calls = createChannelCalls(infra);
  const ctx: ChannelsCtx = { db: infra.db, bus: infra.bus, options, probe, log: infra.log, messages, calls };
  return {
    /** The relay reports each call's outcome here; the console's list reads it (issue 45). */
    calls,
    ...createChannelQueries(ctx),
    ...createFilteredChannelList(ctx),
    ...createChannelWrites(ctx),
    ...createChannelTags(ctx),
    ...createChannelTests(ctx),
    ...createChannelBalances(ctx),
    ...createChannelModelFetch(ctx),
    ...createMultiKeyManagement(ctx),

    /** POST /api/channel/fix: rebuilds every ability; answers the number of channels. */
    async fixAbilities(): Promise<number> {
      const n = await ctx.db.transaction().execute((trx) => rebuildAllAbilities(trx));
      channelsChanged(ctx);
      return n;
    },
  };
}
