import { readPageSize } from '../../components/usePageSize.ts';
import type { FirstQuery } from '../../first-screen.ts';
import type { ChannelFilter } from './SearchBar.tsx';
import { storedListOptions } from './useListOptions.ts';

export interface ChannelListState {
  page: number;
  pageSize: number;
  idSort: boolean;
  tagMode: boolean;
  filter: ChannelFilter;
}

/** The list query's input: the page and the cold-start prefetch build it here, so both ask the same query. */
export const channelListInput = (s: ChannelListState) => ({
  page: s.page,
  pageSize: s.pageSize,
  idSort: s.idSort,
  tagMode: s.tagMode,
  ...s.filter,
});

/** The page's first list on a cold start, asked for while its code loads (client/first-screen.ts). */
export const firstChannelList: FirstQuery = (utils) =>
  utils.channels.list.prefetch(
    channelListInput({
      page: 1,
      pageSize: readPageSize(),
      ...storedListOptions(),
      filter: { keyword: '', model: '', group: '' },
    }),
  );
