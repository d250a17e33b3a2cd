import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/*
 * Walking the console and reading what a person sees, shared by the tests that read every page
 * (english-walk: no Chinese in English; readable-text: no internal text in either language).
 */

/** Every page of the console a root user can open, settings tabs included. */
export const CONSOLE_PAGES = [
  '/',
  '/about',
  '/pricing',
  '/app/dashboard',
  '/app/tokens',
  '/app/logs/api-usage',
  '/app/logs/drawing',
  '/app/logs/tasks',
  '/app/wallet',
  '/app/me',
  '/app/inbox',
  '/playground',
  '/admin/channels',
  '/admin/coupons',
  '/admin/users',
  '/admin/messages',
  '/admin/settings?tab=operation',
  '/admin/settings?tab=ratelimit',
  '/admin/settings?tab=models',
  '/admin/settings?tab=system',
  '/admin/settings?tab=other',
  '/chat/0',
  '/no-such-page',
] as const;

/** The pages a signed-out visitor can open. */
export const VISITOR_PAGES = ['/', '/login', '/register', '/reset', '/chat/0', '/pricing'] as const;

/** Opens a page and waits until its queries have answered and the loaders are gone. */
export async function openSettled(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await page
    .locator('.mantine-Loader-root')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => {});
}

/**
 * Every text a person reads on the page that `pattern` matches, with the test id (or tag) of its
 * element: text nodes, toasts and open dropdowns included, and placeholders, titles and aria-labels.
 * Not read: hidden elements, the language switch (labelled in both languages on purpose), form values (data the
 * operator edits), and technical detail shown on demand (`data-technical`).
 */
export function textsMatching(page: Page, pattern: RegExp): Promise<string[]> {
  return page.evaluate(
    ([source, flags]) => {
      const re = new RegExp(source, flags);
      // What is on screen: a closed picker's options stay in the document, hidden.
      const skip = (el: Element) =>
        !!el.closest('[data-testid="language-menu"], [data-technical], script, style, noscript, textarea') ||
        !el.checkVisibility({ visibilityProperty: true });
      const found: string[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = n.textContent ?? '';
        const el = n.parentElement;
        if (!el || !re.test(text) || skip(el)) continue;
        const where = el.closest('[data-testid]')?.getAttribute('data-testid') ?? el.tagName.toLowerCase();
        found.push(`${where}: ${text.trim().slice(0, 160)}`);
      }
      for (const el of document.querySelectorAll('[placeholder], [title], [aria-label]'))
        for (const attr of ['placeholder', 'title', 'aria-label']) {
          const v = el.getAttribute(attr);
          if (v && re.test(v) && !skip(el)) found.push(`@${attr}: ${v.slice(0, 160)}`);
        }
      return found;
    },
    [pattern.source, pattern.flags.replace('g', '')] as const,
  );
}

/**
 * The console's Chinese for an English source text, from the zh catalogs (the English itself when
 * `lang` is en): lets one test drive the console in either language by the words a person sees.
 */
export function wordsIn(lang: 'en' | 'zh'): (english: string) => string {
  if (lang === 'en') return (s) => s;
  const dir = join(import.meta.dirname, '../../client/locales/zh');
  const table = new Map<string, string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.po'))) {
    // msgid/msgstr pairs, each possibly continued on following "..." lines.
    const re = /^msgid ((?:".*"\n)+)msgstr ((?:".*"\n)+)/gm;
    const text = readFileSync(join(dir, file), 'utf8').replace(/\r/g, '');
    const joined = (q: string) =>
      q
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as string)
        .join('');
    for (const m of text.matchAll(re)) {
      const [id, str] = [joined(m[1]!), joined(m[2]!)];
      if (id && str) table.set(id, str);
    }
  }
  return (s) => {
    const zh = table.get(s);
    if (zh === undefined) throw new Error(`no Chinese for "${s}" in client/locales/zh`);
    return zh;
  };
}
