import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import {
  type Gateway,
  launchChromium,
  type RestAuth,
  restSignIn,
  type Session,
  signedInSession,
  startGateway,
} from './harness.ts';
import { findNeedle, LIST_PAGES as PAGES, type ListPage, type Needle, seedPhoneLists } from './scenes/phone-lists.ts';

/*
 * Issue 31: every list page readable on a phone. Each list is seeded with one row, opened at
 * 390x844 in Chinese and English, and measured in Chromium: its key fields (found by their text)
 * lie inside the screen, unclipped and not covered (a pinned actions column over a quota is a
 * failure), the page does not scroll sideways, and no badge (status, role) is cut. At 1366 px
 * no column header is cut. The pictures: `node --import tsx scripts/screenshots.ts --scene phone-lists`.
 */

type Lang = 'en' | 'zh';

const ENABLED = { en: 'Enabled', zh: '已启用' } as const;

interface Problem {
  what: string;
  text: string;
  left?: number;
  right?: number;
}

/**
 * Measures the page: each needle has an element showing it whole inside the viewport, not clipped
 * by a scrolling ancestor and not covered by another element; no badge is cut; no sideways scroll.
 */
function measurePhone(page: Page, needles: Needle[]): Promise<Problem[]> {
  const serial = needles.map((n) =>
    typeof n === 'string' ? { text: n } : n instanceof RegExp ? { re: n.source, flags: n.flags } : { testId: n.testId },
  );
  return page.evaluate((list) => {
    const out: Problem[] = [];
    const vw = window.innerWidth;
    const main = document.querySelector('main') ?? document.body;
    const visible = (el: Element) => {
      const s = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      return s.display !== 'none' && s.visibility !== 'hidden' && r.width > 0 && r.height > 0;
    };
    /** Whether the element is shown whole: in the viewport, unclipped, and on top at its centre. */
    const whole = (el: Element) => {
      const r = el.getBoundingClientRect();
      if (r.left < -1 || r.right > vw + 1) return false;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX === 'visible') continue;
        const ar = a.getBoundingClientRect();
        if (r.left < ar.left - 1 || r.right > ar.right + 1) return false;
      }
      if (
        el instanceof HTMLElement &&
        el.scrollWidth > el.clientWidth + 1 &&
        getComputedStyle(el).overflow !== 'visible'
      )
        return false;
      el.scrollIntoView({ block: 'center', inline: 'nearest' });
      const r2 = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r2.left + r2.width / 2, r2.top + r2.height / 2);
      return !!hit && (el.contains(hit) || hit.contains(el));
    };
    for (const n of list) {
      let found: Element[];
      if ('testId' in n) found = [...main.querySelectorAll(`[data-testid="${n.testId}"]`)];
      else {
        const match = (s: string) => ('text' in n ? s === n.text : new RegExp(n.re!, n.flags).test(s));
        // The innermost elements whose own text shows the value.
        found = [...main.querySelectorAll('*')].filter(
          (el) =>
            match((el.textContent ?? '').trim()) && ![...el.children].some((c) => match((c.textContent ?? '').trim())),
        );
      }
      const label = 'testId' in n ? `#${n.testId}` : 'text' in n ? n.text! : `/${n.re}/`;
      const shown = found.filter(visible);
      if (!shown.length) out.push({ what: 'key field not shown', text: label });
      else if (!shown.some(whole)) {
        const r = shown[0].getBoundingClientRect();
        out.push({ what: 'key field off-screen, clipped or covered', text: label, left: r.left, right: r.right });
      }
    }
    for (const b of main.querySelectorAll('.mantine-Badge-root')) {
      if (!visible(b)) continue;
      const label = b.querySelector('.mantine-Badge-label') ?? b;
      const r = b.getBoundingClientRect();
      if (label.scrollWidth > label.clientWidth + 1 || b.scrollWidth > b.clientWidth + 1)
        out.push({ what: 'badge cut', text: (b.textContent ?? '').trim() });
      else if (r.left < -1 || r.right > vw + 1)
        out.push({ what: 'badge off-screen', text: (b.textContent ?? '').trim(), left: r.left, right: r.right });
    }
    const doc = document.scrollingElement ?? document.documentElement;
    if (doc.scrollWidth > window.innerWidth)
      out.push({ what: 'page scrolls sideways', text: '', right: doc.scrollWidth });
    return out;
    interface Problem {
      what: string;
      text: string;
      left?: number;
      right?: number;
    }
  }, serial);
}

/** Column headers whose text does not fit (ellipsised or clipped). */
function cutHeaders(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('main thead th')].flatMap((th) =>
      [th, ...th.querySelectorAll('*')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
        .map(() => (th.textContent ?? '').trim())
        .slice(0, 1),
    ),
  );
}

describe('list pages on a phone (issue 31)', () => {
  let gateway: Gateway;
  let browser: Browser;
  let auth: RestAuth;

  beforeAll(async () => {
    gateway = await startGateway();
    const root = await setupRoot(gateway.test);
    await seedPhoneLists(gateway.test, Number(root.id));
    browser = await launchChromium();
    auth = await restSignIn(gateway.baseUrl, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  /** A signed-in root session (cookie from one REST login). */
  const session = (width: number, lang: Lang): Promise<Session> =>
    signedInSession(browser, gateway.baseUrl, auth, { width, height: width < 600 ? 844 : 860, lang });

  async function open(s: Session, p: ListPage) {
    await s.page.goto(p.route);
    await (await findNeedle(s.page, p.ready)).waitFor({ timeout: 15_000 });
    await s.page.waitForLoadState('networkidle');
    await settled(s.page);
  }

  /** Lets the layout follow a load or a width change: the fonts, then two frames. */
  const settled = (page: Page) =>
    page.evaluate(async () => {
      await document.fonts.ready;
      for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
    });

  /** One walk per language, each page measured at 390 px and then, in place, at 1366 px. */
  for (const lang of ['zh', 'en'] as const)
    it(`${lang}: at 390 px every list shows its key fields whole, badges uncut, no sideways scroll; at 1366 px no column header is cut`, async () => {
      const s = await session(390, lang);
      const problems: Record<string, Problem[]> = {};
      const cut: Record<string, string[]> = {};
      for (const p of PAGES) {
        await s.page.setViewportSize({ width: 390, height: 844 });
        await open(s, p);
        const found = await measurePhone(s.page, p.keys(lang));
        if (found.length) problems[p.route] = found;
        if (p === PAGES[0]) {
          // The status of a seeded row reads in full on a phone.
          const badge = s.page.locator('main .mantine-Badge-root', { hasText: ENABLED[lang] }).first();
          const box = await badge.evaluate((b) => {
            const r = b.getBoundingClientRect();
            const l = b.querySelector('.mantine-Badge-label') ?? b;
            return { left: r.left, right: r.right, cut: l.scrollWidth > l.clientWidth + 1 };
          });
          expect(box.cut).toBe(false);
          expect(box.left).toBeGreaterThanOrEqual(0);
          expect(box.right).toBeLessThanOrEqual(390);
        }
        await s.page.evaluate(() => window.scrollTo(0, 0));
        await s.page.setViewportSize({ width: 1366, height: 860 });
        await settled(s.page);
        const headers = await cutHeaders(s.page);
        if (headers.length) cut[p.route] = headers;
      }
      expect(problems).toEqual({});
      expect(cut).toEqual({});
      expect(s.errors).toEqual([]);
      await s.context.close();
    }, 240_000);
});
