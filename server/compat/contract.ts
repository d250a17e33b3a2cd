import { z } from 'zod';
import type { AppDeps } from '../context.ts';

/*
 * new-api's /api contract changed shape between the console of April 2025 and today's (2026):
 * lists moved from bare 0-based arrays to 1-based page objects, token keys are masked in lists
 * and revealed by POST /api/token/:id/key. One operator option (ApiCompatContract) picks the
 * contract the REST adapter answers in; the services are the same for both.
 * See docs/new-api-contract.md (2026) and ../shared/docs/api-contract.md (April 2025).
 */

export type ApiContract = '2026' | '2025-04';

export const contractOf = (deps: AppDeps): ApiContract => deps.services.options.get('ApiCompatContract');

/** new-api's page object: `{items, total, page, page_size}` (common.PageInfo). */
export interface PageObject<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

export const pageObject = <T>(items: T[], total: number, page: Paging): PageObject<T> => ({
  items,
  total,
  page: page.page,
  page_size: page.pageSize,
});

export interface Paging {
  /** 1-based page number. */
  page: number;
  pageSize: number;
  /** Rows to skip. */
  offset: number;
}

const lenientInt = () =>
  z.preprocess((v) => {
    const n = typeof v === 'string' ? Number.parseInt(v, 10) : typeof v === 'number' ? v : Number.NaN;
    return Number.isFinite(n) ? Math.trunc(n) : 0;
  }, z.number().int());

const pagingShape = { p: lenientInt(), page_size: lenientInt(), ps: lenientInt(), size: lenientInt() };

/**
 * The 2026 paging query (new-api's GetPageQuery): `p` is 1-based and anything below 1 means page 1;
 * the size comes from `page_size`, then `ps`, then `size`, defaulting to 10 and capped at 100.
 * Blank, null and NaN values (sent by consoles with unset fields) count as not sent.
 */
export function toPaging(v: { p: number; page_size: number; ps: number; size: number }): Paging {
  const page = Math.max(1, v.p);
  const asked = v.page_size || v.ps || v.size;
  const pageSize = asked <= 0 ? 10 : Math.min(asked, 100);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

/** A query with 2026 paging plus the endpoint's own fields: `{...fields, paging}`. */
export const pagedQuery = <S extends z.ZodRawShape>(fields: S) =>
  z
    .object({ ...fields, ...pagingShape })
    .loose()
    .transform((v) => ({ ...v, paging: toPaging(v as Parameters<typeof toPaging>[0]) }));

export const pagingQuery = pagedQuery({});
