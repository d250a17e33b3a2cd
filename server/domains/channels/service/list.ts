import { CHANNEL_TYPES } from '../../../../shared/channel-types.ts';
import type { ListChannelsInput } from '../../../../shared/schemas/channels.ts';
import { splitList } from '../../../../shared/schemas/common.ts';
import type { LastCalls } from '../channel-calls.service.ts';
import type { ChannelRow } from '../channels.table.ts';
import {
  countChannels,
  countUntaggedChannels,
  listChannelModelLists,
  listChannelsByTags,
  listChannelsPage,
  listEnabledAbilityModels,
  listTags,
  listUntaggedChannels,
  searchChannels,
} from '../channels.repo.ts';
import { type ChannelsCtx, type ChannelView, getChannelOrThrow, toChannelView } from './context.ts';

export interface ChannelPageQuery {
  /** 0-based, as new-api's channel table sends it. */
  page: number;
  pageSize: number;
  idSort: boolean;
  tagMode: boolean;
}

export interface ChannelSearchQuery {
  keyword: string;
  model: string;
  group: string;
  idSort: boolean;
  tagMode: boolean;
}

/** A channel as the console lists it: the admin view plus how its latest relayed calls went (issue 45). */
export type ConsoleChannel = ChannelView & { last_calls: LastCalls };

const noCalls: LastCalls = { ok_at: 0, failed_at: 0, failure: null };

/** Creation date of the OpenAI model objects, as new-api sends it. */
const MODEL_CREATED = 1626777600;

export function createChannelQueries(ctx: ChannelsCtx) {
  /**
   * Tag mode pages over entries where a tag with all its channels is one entry and an
   * untagged channel is one entry (tags first). new-api left untagged channels out.
   */
  async function pageInTagMode(q: ChannelPageQuery): Promise<ChannelRow[]> {
    const tags = await listTags(ctx.db);
    const offset = q.page * q.pageSize;
    const pageTags = tags.slice(offset, offset + q.pageSize);
    const tagged = await listChannelsByTags(ctx.db, pageTags, q.idSort);
    const room = q.pageSize - pageTags.length;
    if (room <= 0) return tagged;
    const untagged = await listUntaggedChannels(ctx.db, Math.max(0, offset - tags.length), room, q.idSort);
    return [...tagged, ...untagged];
  }

  async function expandTags(rows: ChannelRow[], idSort: boolean): Promise<ChannelRow[]> {
    const tags = [...new Set(rows.map((r) => r.tag).filter((t): t is string => !!t))];
    const tagged = await listChannelsByTags(ctx.db, tags, idSort);
    return [...tagged, ...rows.filter((r) => !r.tag)];
  }

  async function page(q: ChannelPageQuery): Promise<ChannelView[]> {
    const rows = q.tagMode
      ? await pageInTagMode(q)
      : await listChannelsPage(ctx.db, q.page * q.pageSize, q.pageSize, q.idSort);
    return rows.map(toChannelView);
  }

  /** Entries `page` pages over: channels, or in tag mode tags plus untagged channels. */
  async function count(tagMode: boolean): Promise<number> {
    if (!tagMode) return countChannels(ctx.db);
    return (await listTags(ctx.db)).length + (await countUntaggedChannels(ctx.db));
  }

  /** Every match (new-api does not page searches); tag mode adds the other channels of matched tags. */
  async function search(q: ChannelSearchQuery): Promise<ChannelView[]> {
    const group = q.group === 'null' ? '' : q.group;
    const rows = await searchChannels(ctx.db, { keyword: q.keyword, model: q.model, group, idSort: q.idSort });
    return (q.tagMode ? await expandTags(rows, q.idSort) : rows).map(toChannelView);
  }

  async function consolePage(input: ListChannelsInput): Promise<{ items: ChannelView[]; total: number }> {
    const { idSort, tagMode } = input;
    if (input.keyword || input.group || input.model) {
      const all = await search({
        keyword: input.keyword ?? '',
        group: input.group ?? '',
        model: input.model ?? '',
        idSort,
        tagMode,
      });
      const start = (input.page - 1) * input.pageSize;
      return { items: all.slice(start, start + input.pageSize), total: all.length };
    }
    const [items, total] = await Promise.all([
      page({ page: input.page - 1, pageSize: input.pageSize, idSort, tagMode }),
      count(tagMode),
    ]);
    return { items, total };
  }

  return {
    page,

    count,

    search,

    async get(id: number): Promise<ChannelView> {
      return toChannelView(await getChannelOrThrow(ctx, id));
    },

    /**
     * The console's list: 1-based pages with a total; filters switch to a search. Each row carries how the
     * relay's latest calls on it went (issue 45), which new-api's /api/channel shape has no place for.
     */
    async consoleList(input: ListChannelsInput): Promise<{ items: ConsoleChannel[]; total: number }> {
      const { items, total } = await consolePage(input);
      const calls = await ctx.calls.read(items.map((c) => c.id));
      return { items: items.map((c) => ({ ...c, last_calls: calls.get(c.id) ?? noCalls })), total };
    },

    /** The console's edit form: the channel with its latest calls. */
    async consoleGet(id: number): Promise<ConsoleChannel> {
      const channel = toChannelView(await getChannelOrThrow(ctx, id));
      return { ...channel, last_calls: (await ctx.calls.read([id])).get(id) ?? noCalls };
    },

    /** Root only (tRPC revealKey): the edit form's "show key". */
    async revealKey(id: number): Promise<string> {
      return (await getChannelOrThrow(ctx, id)).key;
    },

    enabledModels: () => listEnabledAbilityModels(ctx.db),

    /** GET /api/models: channel type id -> default model names. */
    defaultModelsByType(): Record<string, string[]> {
      return Object.fromEntries(
        CHANNEL_TYPES.filter((t) => t.id !== 0).map((t) => [String(t.id), [...t.defaultModels]]),
      );
    },

    /** GET /api/channel/models: every known model as an OpenAI model object. */
    async knownModels() {
      const owner = new Map<string, string>();
      for (const t of CHANNEL_TYPES)
        for (const m of t.defaultModels) if (!owner.has(m)) owner.set(m, t.name.toLowerCase());
      for (const row of await listChannelModelLists(ctx.db))
        for (const m of splitList(row.models)) if (!owner.has(m)) owner.set(m, 'custom');
      return [...owner].map(([id, ownedBy]) => ({
        id,
        object: 'model' as const,
        created: MODEL_CREATED,
        owned_by: ownedBy,
        permission: [
          {
            id: `modelperm-${id}`,
            object: 'model_permission',
            created: MODEL_CREATED,
            allow_create_engine: true,
            allow_sampling: true,
            allow_logprobs: true,
            allow_search_indices: false,
            allow_view: true,
            allow_fine_tuning: false,
            organization: '*',
            group: null,
            is_blocking: false,
          },
        ],
        root: id,
        parent: null,
      }));
    },
  };
}
