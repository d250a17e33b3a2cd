import type { Browser, Locator, Page } from 'playwright-core';
import { type Gateway, openSession, type RestAuth, restSignIn, signedInSession } from './harness.ts';

/*
 * Layout assertions by measurement, and the walk over languages, widths and themes that both the suite's
 * layout sweeps (measuring, no pictures) and scripts/screenshots.ts's scenes (pictures for review) take.
 */

export interface Offender {
  tag: string;
  testId: string | null;
  text: string;
  left: number;
  right: number;
}

/**
 * Visible elements reaching past the right edge of the viewport that no ancestor clips
 * (a deliberate scroll area, marked `data-scroll-area`, may scroll inside itself), plus any
 * scroll container that scrolls sideways without being marked.
 */
export function overflowing(page: Page): Promise<Offender[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const out: Offender[] = [];
    const describe = (el: Element, r: DOMRect): Offender => ({
      tag: el.tagName.toLowerCase(),
      testId: el.getAttribute('data-testid'),
      text: (el.textContent ?? '').trim().slice(0, 60),
      left: Math.round(r.left),
      right: Math.round(r.right),
    });
    const clipped = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== 'visible') return true;
      }
      return false;
    };
    for (const el of document.querySelectorAll('body *')) {
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.right <= 0) continue;
      if (r.right > vw + 1 && !clipped(el)) out.push(describe(el, r));
      const ox = style.overflowX;
      if (
        (ox === 'auto' || ox === 'scroll') &&
        el.scrollWidth > el.clientWidth + 1 &&
        !el.closest('[data-scroll-area]')
      )
        out.push({ ...describe(el, r), tag: `${el.tagName.toLowerCase()} (scrolls sideways)` });
    }
    if (document.documentElement.scrollWidth > vw + 1)
      out.push({ tag: 'document', testId: null, text: '', left: 0, right: document.documentElement.scrollWidth });
    return out;
  });
}

/** One page of a scene: the suite measures it (layoutSweep), scripts/screenshots.ts pictures it. */
export interface SceneRoute {
  route: string;
  /** The file name of its pictures, and its label in a sweep's findings. */
  name: string;
  /** Waits for the content that makes the page worth looking at (seeded rows, a warning). */
  ready: (page: Page) => Promise<unknown>;
  /** Opens something (a row, a modal) for a second stop, named `<name>_open`. */
  after?: (page: Page) => Promise<unknown>;
  /** The part to picture instead of the whole page (one settings card). */
  part?: (page: Page) => Locator;
  /** Offenders the page has by design, e.g. a table that scrolls inside itself on a phone. */
  allow?: (o: Offender) => boolean;
}

/**
 * A named scene of scripts/screenshots.ts (`--scene <name>`): the data its pages need, written into a fresh
 * gateway whose root is set up (test/users.ts), by the same seeding function its test file uses.
 */
export interface Scene {
  /** What the pictures show (printed by `--list`). */
  about: string;
  setUp(gateway: Gateway): Promise<{ routes: SceneRoute[]; close?: () => Promise<unknown> }>;
  /** Pictured signed out (a public page). */
  anonymous?: boolean;
}

export interface Grid {
  themes: readonly ('light' | 'dark')[];
  langs: readonly ('zh' | 'en')[];
  widths: readonly number[];
}

/**
 * What the suite walks: both languages and both widths (they change what fits and what is said), in
 * light only (the theme changes colours, not sizes; the dark pictures are scripts/screenshots.ts's).
 */
export const LAYOUT_GRID: Grid = { themes: ['light'], langs: ['zh', 'en'], widths: [1366, 390] };

export interface Stop {
  page: Page;
  route: SceneRoute;
  /** `name`, or `name_open` after `after`. */
  name: string;
  theme: 'light' | 'dark';
  lang: 'zh' | 'en';
  width: number;
}

/**
 * Visits `routes` in every theme, language and width of `grid`, signed in with `auth` (anonymous when null),
 * calling `at` once each page is ready and again after its `after`. Returns the pages' uncaught errors.
 */
export async function walkRoutes(
  browser: Browser,
  baseUrl: string,
  auth: RestAuth | null,
  routes: SceneRoute[],
  grid: Grid,
  at: (stop: Stop) => Promise<void>,
): Promise<string[]> {
  const errors: string[] = [];
  for (const theme of grid.themes)
    for (const lang of grid.langs)
      for (const width of grid.widths) {
        const opts = { theme, lang, width, height: width < 600 ? 844 : 900 };
        const s = auth
          ? await signedInSession(browser, baseUrl, auth, opts)
          : await openSession(browser, baseUrl, opts);
        for (const r of routes) {
          await s.page.goto(r.route);
          await r.ready(s.page);
          // Drawers, modals and charts animate in.
          await s.page.waitForTimeout(300);
          await at({ page: s.page, route: r, name: r.name, theme, lang, width });
          if (r.after) {
            await r.after(s.page);
            await s.page.waitForTimeout(300);
            await at({ page: s.page, route: r, name: `${r.name}_open`, theme, lang, width });
          }
        }
        errors.push(...s.errors.map((e) => `${theme} ${lang} ${width}: ${e}`));
        await s.context.close();
      }
  return errors;
}

/**
 * The suite's check of a scene, without pictures: in zh and en at 1366 and 390 px each page becomes
 * ready (its texts show), nothing reaches past the screen (`overflowing`, less the route's `allow`),
 * opened or not, and no page throws. Assert `toEqual({ errors: [], overflow: {} })`.
 */
export async function layoutSweep(
  browser: Browser,
  baseUrl: string,
  who: { username: string; password: string } | null,
  routes: SceneRoute[],
): Promise<{ errors: string[]; overflow: Record<string, Offender[]> }> {
  const overflow: Record<string, Offender[]> = {};
  const auth = who && (await restSignIn(baseUrl, who));
  const errors = await walkRoutes(browser, baseUrl, auth, routes, LAYOUT_GRID, async (stop) => {
    const past = (await overflowing(stop.page)).filter((o) => !stop.route.allow?.(o));
    if (past.length) overflow[`${stop.name} ${stop.lang} ${stop.width}`] = past;
  });
  return { errors, overflow };
}
