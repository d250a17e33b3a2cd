import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSeconds } from '../../server/db/time.ts';
import { insertChannel, insertToken, setOptions } from '../relay-fixtures.ts';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, openSession, type Session, startGateway } from './harness.ts';
import { consumeRow, writeUsage } from './usage-fixtures.ts';

/*
 * Issue 31: every list page readable on a phone. Each list is seeded with one row, opened at
 * 390x844 in Chinese and English, and measured in Chromium: its key fields (found by their text)
 * lie inside the screen, unclipped and not covered (a pinned actions column over a quota is a
 * failure), the page does not scroll sideways, and no badge (status, role) is cut. At 1366 px
 * no column header is cut. PHONE_SHOTS=<dir/prefix> also saves each page, light and dark.
 */

type Lang = 'en' | 'zh';
/** A key field: its exact text, a pattern, or a test id. */
type Needle = string | RegExp | { testId: string };

interface ListPage {
  route: string;
  /** Waits for the seeded row. */
  ready: Needle;
  keys: (lang: Lang) => Needle[];
}

const TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
const ENABLED = { en: 'Enabled', zh: '已启用' } as const;

const PAGES: ListPage[] = [
  {
    route: '/app/tokens',
    ready: 'phone-token',
    keys: () => ['phone-token', /^\$20\.00$/, /^\$2\.4\d+$/, { testId: 'token-key' }],
  },
  { route: '/pricing', ready: 'phone-model', keys: () => ['phone-model', /\$5(\.0+)?\b/] },
  { route: '/admin/users', ready: 'phone-user', keys: () => ['phone-user', /^\$30\.00$/] },
  { route: '/admin/channels', ready: 'phone-channel', keys: () => ['phone-channel', /^OpenAI$/] },
  { route: '/app/logs/api-usage', ready: 'phone-model', keys: () => ['phone-model', /^\$0\.0\d+$/, TIME] },
  { route: '/app/logs/drawing', ready: 'phone-mj-1', keys: () => ['phone-mj-1', TIME] },
  { route: '/app/logs/tasks', ready: 'phone-task-1', keys: () => ['phone-task-1', TIME] },
  { route: '/admin/messages', ready: 'Phone message', keys: () => ['Phone message', TIME] },
  { route: '/app/inbox', ready: 'Phone message', keys: () => ['Phone message'] },
  { route: '/admin/coupons', ready: 'phone-code', keys: () => ['phone-code', /^\$10\.00$/] },
  { route: '/app/wallet', ready: '¥12.00', keys: (lang) => ['¥12.00', lang === 'zh' ? '已支付' : 'Paid'] },
];

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

async function findNeedle(page: Page, n: Needle) {
  if (typeof n === 'object' && !(n instanceof RegExp)) return page.getByTestId(n.testId).first();
  return page.getByText(n, { exact: typeof n === 'string' }).first();
}

describe('list pages on a phone (issue 31)', () => {
  let gateway: Gateway;
  let browser: Browser;
  const shots = process.env.PHONE_SHOTS;

  beforeAll(async () => {
    gateway = await startGateway();
    const t = gateway.test;
    const deps = t.deps;
    const root = await setupRoot(t);
    const rootId = Number(root.id);
    await setOptions(deps, { ModelRatio: JSON.stringify({ 'phone-model': 2.5 }), CompletionRatio: '{}' });
    const token = await insertToken(deps, rootId, { name: 'phone-token', remainQuota: 10_000_000 });
    await deps.db.updateTable('tokens').set({ used_quota: 1_234_567 }).where('id', '=', token.id).execute();
    await createUser(t, { username: 'phone-user', quota: 15_000_000 });
    await insertChannel(deps, {
      name: 'phone-channel',
      type: 1,
      baseUrl: 'http://127.0.0.1:9',
      models: ['phone-model'],
    });
    const now = nowSeconds();
    await writeUsage(deps, [
      consumeRow(
        { userId: rootId, username: ROOT_USERNAME, tokenName: 'phone-token' },
        { at: now - 60, model: 'phone-model', prompt: 1200, completion: 300, ratio: 2.5 },
      ),
    ]);
    await deps.db
      .insertInto('midjourneys')
      .values({
        user_id: rootId,
        action: 'IMAGINE',
        mj_id: 'phone-mj-1',
        prompt: 'a lighthouse',
        status: 'SUCCESS',
        progress: '100%',
        code: 1,
        submit_time: (now - 120) * 1000,
        finish_time: (now - 60) * 1000,
        channel_id: 1,
      })
      .execute();
    await deps.db
      .insertInto('tasks')
      .values({
        task_id: 'phone-task-1',
        platform: 'suno',
        user_id: rootId,
        action: 'MUSIC',
        status: 'SUCCESS',
        progress: '100%',
        submit_time: now - 120,
        finish_time: now - 60,
        channel_id: 1,
      })
      .execute();
    await deps.services.messages.create(
      { title: 'Phone message', content: 'Hello from the phone test', format: 'markdown', userIds: [rootId] },
      rootId,
    );
    await deps.db
      .insertInto('redemptions')
      .values({ key: 'phone-code-key-0001', name: 'phone-code', quota: 5_000_000, created_time: now, status: 1 })
      .execute();
    await deps.db
      .insertInto('top_ups')
      .values({
        user_id: rootId,
        amount: 12,
        money: 12,
        trade_no: 'phone-order-1',
        payment_method: 'alipay',
        status: 'success',
        create_time: now - 300,
        complete_time: now - 290,
      })
      .execute();
    browser = await launchChromium();
    if (shots) mkdirSync(path.dirname(shots), { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  /** A signed-in root session (cookie from the REST login, as the screenshot sweep does). */
  async function session(width: number, lang: Lang, theme: 'light' | 'dark' = 'light'): Promise<Session> {
    const s = await openSession(browser, gateway.baseUrl, { width, height: width < 600 ? 844 : 860, lang, theme });
    const res = await fetch(`${gateway.baseUrl}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ROOT_USERNAME, password: ROOT_PASSWORD }),
    });
    const body = (await res.json()) as { success: boolean; data: unknown };
    expect(body.success).toBe(true);
    const host = new URL(gateway.baseUrl).hostname;
    await s.context.addCookies(
      res.headers.getSetCookie().map((c) => {
        const [name, ...rest] = c.split(';')[0].split('=');
        return { name, value: rest.join('='), domain: host, path: '/' };
      }),
    );
    await s.context.addInitScript((u) => localStorage.setItem('user', JSON.stringify(u)), body.data);
    return s;
  }

  async function open(s: Session, p: ListPage) {
    await s.page.goto(p.route);
    await (await findNeedle(s.page, p.ready)).waitFor({ timeout: 15_000 });
    await s.page.waitForLoadState('networkidle');
    await s.page.waitForTimeout(300);
  }

  async function shoot(page: Page, p: ListPage, lang: Lang, width: number, theme: string) {
    if (!shots) return;
    const slug = p.route.replace(/^\//, '').replace(/\//g, '_');
    await page.screenshot({ path: `${shots}-${slug}-${lang}-${width}-${theme}.png`, fullPage: true });
  }

  for (const lang of ['zh', 'en'] as const)
    it(`at 390 px (${lang}) every list shows its key fields whole, badges uncut, no sideways scroll`, async () => {
      const s = await session(390, lang);
      const problems: Record<string, Problem[]> = {};
      for (const p of PAGES) {
        await open(s, p);
        const found = await measurePhone(s.page, p.keys(lang));
        if (found.length) problems[p.route] = found;
        await s.page.evaluate(() => window.scrollTo(0, 0));
        await shoot(s.page, p, lang, 390, 'light');
      }
      expect(problems).toEqual({});
      expect(s.errors).toEqual([]);
      await s.context.close();
    }, 240_000);

  for (const lang of ['zh', 'en'] as const)
    it(`at 1366 px (${lang}) no column header is cut`, async () => {
      const s = await session(1366, lang);
      const cut: Record<string, string[]> = {};
      for (const p of PAGES) {
        await open(s, p);
        const found = await cutHeaders(s.page);
        if (found.length) cut[p.route] = found;
        await shoot(s.page, p, lang, 1366, 'light');
      }
      expect(cut).toEqual({});
      await s.context.close();
    }, 240_000);

  it.runIf(!!shots)(
    'dark screenshots for review',
    async () => {
      for (const lang of ['zh', 'en'] as const)
        for (const width of [390, 1366]) {
          const s = await session(width, lang, 'dark');
          for (const p of PAGES) {
            await open(s, p);
            await shoot(s.page, p, lang, width, 'dark');
          }
          await s.context.close();
        }
    },
    600_000,
  );

  it('the status of a seeded row reads in full on a phone', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const s = await session(390, lang);
      await open(s, PAGES[0]);
      const badge = s.page.locator('main .mantine-Badge-root', { hasText: ENABLED[lang] }).first();
      const box = await badge.evaluate((b) => {
        const r = b.getBoundingClientRect();
        const l = b.querySelector('.mantine-Badge-label') ?? b;
        return { left: r.left, right: r.right, cut: l.scrollWidth > l.clientWidth + 1 };
      });
      expect(box.cut).toBe(false);
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(390);
      await s.context.close();
    }
  }, 120_000);
});
