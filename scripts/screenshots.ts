/**
 * Captures console pages for visual review (not a test).
 *
 *   node --import tsx scripts/screenshots.ts [/route ...] [--base http://host:port] [--user root --password ...]
 *     [--themes light,dark] [--langs zh,en] [--widths 1366,390] [--setup] [--wait ms]
 *
 * Without --base it starts a throwaway gateway on a temp SQLite database serving dist/client
 * (run `npx vite build` first), completes setup as root and signs in. PNGs go to
 * test-artifacts/screenshots/<route>-<theme>-<lang>-<width>.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { type Gateway, launchChromium, openSession, startGateway } from '../test/browser/harness.ts';

const ROOT_PASSWORD = 'switchyard-root-pw';
const outDir = path.resolve(import.meta.dirname, '../test-artifacts/screenshots');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    base: { type: 'string' },
    user: { type: 'string', default: 'root' },
    password: { type: 'string', default: ROOT_PASSWORD },
    themes: { type: 'string', default: 'light,dark' },
    langs: { type: 'string', default: 'zh,en' },
    widths: { type: 'string', default: '1366,390' },
    /** Capture the setup wizard of a fresh install instead of a signed-in console. */
    setup: { type: 'boolean', default: false },
    anonymous: { type: 'boolean', default: false },
    /** Milliseconds to wait after the page settles (drawers and modals animate in). */
    wait: { type: 'string', default: '400' },
  },
});

const routes = positionals.length ? positionals : ['/', '/login', '/register', '/app/me', '/admin/users', '/about'];
const list = (s: string) => s.split(',').filter(Boolean);

async function post(base: string, url: string, body: unknown, cookie?: string) {
  const res = await fetch(base + url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  return { res, body: (await res.json()) as { success: boolean; message: string; data: unknown } };
}

/** Signs in over REST; returns the session cookie and the stored-user object. */
async function signIn(base: string) {
  const { res, body } = await post(base, '/api/user/login', { username: values.user, password: values.password });
  if (!body.success) throw new Error(`login failed: ${body.message}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  return { cookies: cookie, user: body.data };
}

async function capture(browser: Browser, base: string, auth: Awaited<ReturnType<typeof signIn>> | null) {
  for (const theme of list(values.themes!) as ('light' | 'dark')[])
    for (const lang of list(values.langs!) as ('zh' | 'en')[])
      for (const width of list(values.widths!).map(Number)) {
        const s = await openSession(browser, base, { width, height: width < 600 ? 844 : 860, lang, theme });
        if (auth) {
          const host = new URL(base).hostname;
          await s.context.addCookies(
            auth.cookies.map((c) => {
              const [name, ...rest] = c.split('=');
              return { name, value: rest.join('='), domain: host, path: '/' };
            }),
          );
          await s.context.addInitScript((u) => localStorage.setItem('user', JSON.stringify(u)), auth.user);
        }
        for (const route of routes) {
          await s.page.goto(route, { waitUntil: 'networkidle' });
          await s.page.waitForTimeout(Number(values.wait));
          const slug = route.replace(/^\//, '').replace(/[/?=&]+/g, '_') || 'home';
          const file = path.join(outDir, `${slug}-${theme}-${lang}-${width}.png`);
          await s.page.screenshot({ path: file, fullPage: true });
          console.log(file);
        }
        if (s.errors.length) console.warn('page errors:', s.errors);
        await s.context.close();
      }
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  let gateway: Gateway | undefined;
  let base = values.base;
  if (!base) {
    gateway = await startGateway();
    base = gateway.baseUrl;
    if (!values.setup) {
      const setup = await post(base, '/api/setup', {
        username: values.user,
        password: values.password,
        confirmPassword: values.password,
      });
      if (!setup.body.success) throw new Error(`setup failed: ${setup.body.message}`);
    }
  }
  const browser = await launchChromium();
  try {
    const auth = values.setup || values.anonymous ? null : await signIn(base);
    await capture(browser, base, auth);
  } finally {
    await browser.close();
    await gateway?.close();
  }
}

await main();
