import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from './global-setup.ts';
import { openSession } from './harness.ts';

/*
 * Layout assertions by measurement, and the screenshot sweep (zh/en, 1366/390) of the usage screens.
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

export const shotsDir = path.join(repoRoot, 'test-artifacts/screenshots');

/**
 * The themes a sweep renders: light only unless SWEEP_THEMES=light,dark. Language and width change
 * what fits and what is said; the theme changes colours only, so the suite's sweeps (what CI times)
 * stay in light and the dark shots are taken for review (`SWEEP_THEMES=light,dark`, or
 * scripts/screenshots.ts).
 */
export const sweepThemes = (): ('light' | 'dark')[] =>
  (process.env.SWEEP_THEMES ?? 'light').split(',').filter((t): t is 'light' | 'dark' => t === 'light' || t === 'dark');

/**
 * Screenshots of `routes` for each sweep theme, every language and width, signed in as `who`;
 * `ready` waits for the page's content, `after` may open something (e.g. a row) for a second shot.
 */
export async function screenshotSweep(
  browser: Browser,
  baseUrl: string,
  who: { username: string; password: string },
  routes: {
    route: string;
    name: string;
    ready: (page: Page) => Promise<unknown>;
    after?: (page: Page) => Promise<unknown>;
  }[],
): Promise<string[]> {
  mkdirSync(shotsDir, { recursive: true });
  const errors: string[] = [];
  // Signed in once over REST (as scripts/screenshots.ts does): sixteen form logins are slow on a busy machine.
  const res = await fetch(`${baseUrl}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  const body = (await res.json()) as { success: boolean; data: unknown };
  if (!body.success) throw new Error(`login failed for ${who.username}`);
  const host = new URL(baseUrl).hostname;
  const cookies = res.headers.getSetCookie().map((c) => {
    const [pair] = c.split(';');
    const [name, ...rest] = pair.split('=');
    return { name, value: rest.join('='), domain: host, path: '/' };
  });
  for (const theme of sweepThemes())
    for (const lang of ['zh', 'en'] as const)
      for (const width of [1366, 390]) {
        const s = await openSession(browser, baseUrl, { theme, lang, width, height: width < 600 ? 844 : 900 });
        await s.context.addCookies(cookies);
        await s.context.addInitScript((u) => localStorage.setItem('user', JSON.stringify(u)), body.data);
        for (const r of routes) {
          await s.page.goto(r.route);
          await r.ready(s.page);
          await s.page.waitForTimeout(400);
          const file = (suffix: string) => path.join(shotsDir, `${r.name}${suffix}-${theme}-${lang}-${width}.png`);
          await s.page.screenshot({ path: file(''), fullPage: true });
          if (r.after) {
            await r.after(s.page);
            await s.page.waitForTimeout(300);
            await s.page.screenshot({ path: file('_open'), fullPage: true });
          }
        }
        errors.push(...s.errors);
        await s.context.close();
      }
  return errors;
}
