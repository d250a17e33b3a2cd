import { ChannelStatus } from '../../../../shared/constants.ts';
import type { EditTagInput } from '../../../../shared/schemas/channels.ts';
import { badRequest, notFound } from '../../../errors.ts';
import { type ChannelPatch, listChannelIdsByTag, updateChannelsByIds } from '../channels.repo.ts';
import { syncAbilities } from './abilities.ts';
import { type ChannelsCtx, channelsChanged } from './context.ts';

/* Tag operations act on every channel carrying the tag, abilities included, in one transaction. */
export function createChannelTags(ctx: ChannelsCtx) {
  async function applyToTag(tag: string, patch: ChannelPatch): Promise<void> {
    await ctx.db.transaction().execute(async (trx) => {
      const ids = await listChannelIdsByTag(trx, tag);
      if (ids.length === 0) throw notFound('channel.tag_not_found');
      await updateChannelsByIds(trx, ids, patch);
      await syncAbilities(trx, ids);
    });
    channelsChanged(ctx);
  }

  return {
    /** POST /api/channel/batch/tag: a null or empty tag removes the tag. Answers the number of ids. */
    async batchTag(ids: number[], tag: string | null): Promise<number> {
      const unique = [...new Set(ids)];
      await ctx.db.transaction().execute(async (trx) => {
        await updateChannelsByIds(trx, unique, { tag });
        await syncAbilities(trx, unique);
      });
      channelsChanged(ctx);
      return ids.length;
    },

    /**
     * PUT /api/channel/tag: null, absent or empty fields stay unchanged (new-api's
     * rule); a request that changes nothing is refused with "no changes".
     */
    async editTag(input: EditTagInput): Promise<void> {
      const patch: ChannelPatch = {};
      if (input.new_tag) patch.tag = input.new_tag;
      if (input.priority !== null && input.priority !== undefined) patch.priority = input.priority;
      if (input.weight !== null && input.weight !== undefined) patch.weight = input.weight;
      if (input.model_mapping) patch.model_mapping = input.model_mapping;
      if (input.models) patch.models = input.models;
      if (input.groups) patch.group = input.groups;
      if (Object.keys(patch).length === 0) throw badRequest('channel.no_changes');
      await applyToTag(input.tag, patch);
    },

    setTagEnabled: (tag: string, enabled: boolean) =>
      applyToTag(tag, { status: enabled ? ChannelStatus.Enabled : ChannelStatus.ManuallyDisabled }),
  };
}
