import { readPageSize } from '../../components/usePageSize.ts';
import type { FirstQuery } from '../../first-screen.ts';
import type { TokenFilter } from './SearchBar.tsx';

/** The list query's input: the page and the cold-start prefetch build it here, so both ask the same query. */
export const tokenListInput = (page: number, pageSize: number, filter: TokenFilter) => ({
  page,
  pageSize,
  keyword: filter.keyword || undefined,
  key: filter.key || undefined,
});

/** The page's first list on a cold start, asked for while its code loads (client/first-screen.ts). */
export const firstTokenList: FirstQuery = (utils) =>
  utils.tokens.list.prefetch(tokenListInput(1, readPageSize(), { keyword: '', key: '' }));
