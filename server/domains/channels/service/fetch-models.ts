import type { FetchModelsInput } from '../../../../shared/schemas/channels.ts';
import { badRequest } from '../../../errors.ts';
import { baseUrlOf, firstKeyOf } from '../probe-http.client.ts';
import { type ChannelsCtx, getChannelOrThrow } from './context.ts';

/* fetch_models: the upstream's model ids, asked through the probe with the channel's first key. */
export function createChannelModelFetch(ctx: ChannelsCtx) {
  return {
    /** GET /api/channel/fetch_models/:id, with the stored base URL and key. */
    async fetchModelsOf(id: number): Promise<string[]> {
      const c = await getChannelOrThrow(ctx, id);
      const key = firstKeyOf(c.key);
      if (!key) throw badRequest('channel.enter_key');
      return ctx.probe.models(c.type, baseUrlOf(c), key, c.other);
    },

    /** POST /api/channel/fetch_models: for a channel still being filled in. */
    async fetchModels(input: FetchModelsInput): Promise<string[]> {
      const key = firstKeyOf(input.key ?? '');
      if (!key) throw badRequest('channel.enter_key');
      const base = baseUrlOf({ type: input.type, base_url: input.base_url?.replace(/\/+$/, '') ?? null });
      if (!base) throw badRequest('channel.enter_base_url');
      return ctx.probe.models(input.type, base, key, input.other ?? '');
    },
  };
}
