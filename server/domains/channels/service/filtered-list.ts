import { splitList } from '../../../../shared/schemas/common.ts';
import type { ChannelRow } from '../channels.table.ts';
import { badRequest } from '../../../errors.ts';
import {
  type ChannelFilter,
  countChannelTypes,
  countFilteredChannels,
  countFilteredUntagged,
  listFilteredChannelsOfTags,
  listFilteredTags,
  listTagModelLists,
  pageFilteredChannels,
  pageFilteredUntagged,
} from '../channel-list.repo.ts';
import { type ChannelsCtx, type ChannelView, toChannelView } from './context.ts';

export type { ChannelFilter };

export interface FilteredPageQuery {
  filter: ChannelFilter;
  offset: number;
  limit: number;
  idSort: boolean;
  tagMode: boolean;
}

export interface FilteredPage {
  items: ChannelView[];
  /** Entries matched: channels, or in tag mode tags plus untagged channels. */
  total: number;
  /** Channel type -> matching channels, whatever the type filter (the console's type tabs). */
  type_counts: Record<number, number>;
}

/*
 * The channel lists of new-api's 2026 console: a page of the channels matching a filter, with
 * the total and the per-type counts. In tag mode a tag with all its matching channels is one
 * entry and an untagged channel is one entry (tags first), as in the April 2025 list.
 */
export function createFilteredChannelList(ctx: ChannelsCtx) {
  async function inTagMode(q: FilteredPageQuery): Promise<{ rows: ChannelRow[]; total: number }> {
    const [tags, untaggedTotal] = await Promise.all([
      listFilteredTags(ctx.db, q.filter),
      countFilteredUntagged(ctx.db, q.filter),
    ]);
    const pageTags = tags.slice(q.offset, q.offset + q.limit);
    const tagged = await listFilteredChannelsOfTags(ctx.db, q.filter, pageTags, q.idSort);
    const room = q.limit - pageTags.length;
    const rest =
      room > 0 ? await pageFilteredUntagged(ctx.db, q.filter, Math.max(0, q.offset - tags.length), room, q.idSort) : [];
    return { rows: [...tagged, ...rest], total: tags.length + untaggedTotal };
  }

  return {
    async filteredPage(q: FilteredPageQuery): Promise<FilteredPage> {
      const { type: _type, ...allTypes } = q.filter;
      const [page, typeCounts] = await Promise.all([
        q.tagMode
          ? inTagMode(q)
          : Promise.all([
              pageFilteredChannels(ctx.db, q.filter, q.offset, q.limit, q.idSort),
              countFilteredChannels(ctx.db, q.filter),
            ]).then(([rows, total]) => ({ rows, total })),
        countChannelTypes(ctx.db, allTypes),
      ]);
      return { items: page.rows.map(toChannelView), total: page.total, type_counts: typeCounts };
    },

    /** GET /api/channel/tag/models: the longest model list (by count) among the tag's channels. */
    async tagModels(tag: string): Promise<string> {
      if (tag.trim() === '') throw badRequest('channel.enter_tag');
      let longest = '';
      for (const models of await listTagModelLists(ctx.db, tag))
        if (splitList(models).length > splitList(longest).length) longest = models;
      return longest;
    },
  };
}
