import type { Browser } from 'playwright-core';
import { type RestAuth, signedInSession } from './harness.ts';

/*
 * Measures a cold first screen the way an operator meets it: a fresh browser context (empty cache, the
 * sign-in cookie and stored user already there) opens a console page, and the page's own clock says how many
 * script files it fetched, when it asked for the route's data and when the first row carrying `marker`
 * showed. Times are milliseconds from the navigation's start (the Performance timeline), not the test's clock.
 */

export interface FirstScreen {
  path: string;
  /** Script files fetched until the rows showed. */
  scripts: number;
  /** Their compressed size on the wire, in KiB. */
  scriptKiB: number;
  /** When the first request for the route's data (the procedure named by `dataProcedure`) started. */
  dataAskedMs: number;
  /** When the last of those script files had arrived. */
  scriptsDoneMs: number;
  /** When the answer carrying the route's data had arrived. */
  dataAnsweredMs: number;
  /** When the page's own chunk was asked for, and when the entry script had arrived (before: preloaded). */
  pageChunkAskedMs: number;
  entryArrivedMs: number;
  /** When a table row containing the marker text was in the page. */
  rowsMs: number;
}

declare global {
  interface Window {
    __firstRowAt?: number;
  }
}

export async function measureFirstScreen(
  browser: Browser,
  baseUrl: string,
  auth: RestAuth,
  opts: { path: string; dataProcedure: string; marker: string; pageChunk: string; lang?: 'en' | 'zh' },
): Promise<FirstScreen> {
  const s = await signedInSession(browser, baseUrl, auth, { lang: opts.lang ?? 'zh' });
  try {
    // Watches the DOM from the first byte: the moment a row with the marker appears is the moment it shows.
    await s.context.addInitScript((marker) => {
      const seen = () => {
        if (window.__firstRowAt !== undefined) return;
        for (const row of document.querySelectorAll('tbody tr'))
          if (row.textContent?.includes(marker)) {
            window.__firstRowAt = performance.now();
            observer.disconnect();
            return;
          }
      };
      const observer = new MutationObserver(seen);
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    }, opts.marker);
    await s.page.goto(opts.path, { waitUntil: 'commit' });
    await s.page.waitForFunction(() => window.__firstRowAt !== undefined, undefined, { timeout: 30_000 });
    if (s.errors.length) throw new Error(`page errors: ${s.errors.join('; ')}`);
    return await s.page.evaluate(
      ({ path, procedure, pageChunk }) => {
        const rowsMs = window.__firstRowAt!;
        const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        const scripts = entries.filter((e) => /\.m?js(\?|$)/.test(new URL(e.name).pathname) && e.startTime <= rowsMs);
        const asset = (prefix: string) =>
          entries.find((e) => new RegExp(`^/assets/${prefix}-[^/]*\\.js$`).test(new URL(e.name).pathname)) ?? null;
        const data = entries.filter((e) => new URL(e.name).pathname.startsWith('/trpc/') && e.name.includes(procedure));
        return {
          path,
          scripts: scripts.length,
          scriptKiB: Math.round(scripts.reduce((n, e) => n + e.encodedBodySize, 0) / 1024),
          dataAskedMs: Math.round(data.length ? Math.min(...data.map((e) => e.startTime)) : Number.NaN),
          scriptsDoneMs: Math.round(Math.max(...scripts.map((e) => e.responseEnd))),
          dataAnsweredMs: Math.round(data.length ? Math.min(...data.map((e) => e.responseEnd)) : Number.NaN),
          pageChunkAskedMs: Math.round(asset(pageChunk)?.startTime ?? Number.NaN),
          entryArrivedMs: Math.round(asset('index')?.responseEnd ?? Number.NaN),
          rowsMs: Math.round(rowsMs),
        };
      },
      { path: opts.path, procedure: opts.dataProcedure, pageChunk: opts.pageChunk },
    );
  } finally {
    await s.context.close();
  }
}

/** The run with the earliest rows: what the code allows once the busy machine's noise is set aside. */
export function best(runs: FirstScreen[]): FirstScreen {
  return runs.reduce((a, b) => (b.rowsMs < a.rowsMs ? b : a));
}

export const describeFigures = (f: FirstScreen) =>
  `${f.path} ${f.scripts} scripts (${f.scriptKiB} KiB) in by ${f.scriptsDoneMs} ms, data asked at ${f.dataAskedMs} ms, ` +
  `answered at ${f.dataAnsweredMs} ms, rows at ${f.rowsMs} ms`;
