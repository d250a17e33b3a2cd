import { DEFAULT_PAGE_SIZE } from '../../../shared/constants.ts';

export const MAX_PAGE_SIZE = 100;

/** Style A paging (1-based): pages below 1 become 1; sizes below 1 fall back to the default, above 100 are capped. */
export function normalisePage(page: number, pageSize: number) {
  const p = Number.isFinite(page) && page >= 1 ? Math.floor(page) : 1;
  const size = pageSize >= 1 ? Math.min(Math.floor(pageSize), MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
  return { page: p, pageSize: size, offset: (p - 1) * size };
}

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The admin search's created-date range as unix seconds, both ends inclusive, or nothing
 * unless both ends are given. A bare day covers that whole UTC day; a full timestamp is
 * taken as is (the console sends its local start and end of day).
 */
export function dateRange(start?: string, end?: string): { from?: number; to?: number } {
  if (!start || !end) return {};
  const from = Math.floor(Date.parse(start) / 1000);
  const endS = Math.floor(Date.parse(end) / 1000);
  return { from, to: DAY_ONLY.test(end) ? endS + 86_399 : endS };
}
