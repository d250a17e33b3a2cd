import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needs } from '../skips/needs.ts';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setOption, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, startGateway } from './harness.ts';

/*
 * new-api's own consoles, walked in Chromium against Switchyard's /api: today's (NEW_API_CONSOLE_DIST, a build of
 * new-api's web/classic) and April 2025's (NEW_API_CONSOLE_2025_DIST, a build of its web/, under the option
 * ApiCompatContract=2025-04). Their builds are not in this repository (their code is not ours to ship): .ci/run
 * points both at ../shared/newapi-consoles/ (its README says how they were built). Each console is served from its
 * own origin here, with /api forwarded to the gateway, as a reverse proxy in front of both would. Every /api answer
 * a page load gets is read: a 404, a non-JSON answer or `success: false`, and any error toast the console shows,
 * fail the walk.
 */
interface Console {
  title: string;
  dist: string;
  envName: string;
  /** Options the operator sets for this console. */
  options: Record<string, string>;
  pages: string[];
}

const CONSOLES: Console[] = [
  {
    title: "today's new-api console",
    dist: process.env.NEW_API_CONSOLE_DIST ?? '',
    envName: 'NEW_API_CONSOLE_DIST=<a build of new-api web/classic>',
    options: { 'checkin_setting.enabled': 'true' },
    pages: [
      '/console',
      '/console/token',
      '/console/channel',
      '/console/user',
      '/console/redemption',
      '/console/topup',
      '/console/log',
      '/console/task',
      '/console/midjourney',
      '/console/models',
      '/console/subscription',
      '/console/personal',
      '/console/setting',
      '/console/setting?tab=operation',
      '/console/setting?tab=system',
      '/console/setting?tab=ratio',
      '/console/setting?tab=models',
      '/console/setting?tab=payment',
      '/console/setting?tab=performance',
      '/console/setting?tab=other',
      '/pricing',
    ],
  },
  {
    title: "April 2025's new-api console (ApiCompatContract=2025-04)",
    dist: process.env.NEW_API_CONSOLE_2025_DIST ?? '',
    envName: 'NEW_API_CONSOLE_2025_DIST=<a build of new-api web/ of April 2025>',
    options: { ApiCompatContract: '2025-04' },
    // The pages of its sidebar (web/src/App.js), and the tabs of its settings page.
    pages: [
      '/detail',
      '/token',
      '/channel',
      '/user',
      '/redemption',
      '/topup',
      '/log',
      '/task',
      '/midjourney',
      '/playground',
      '/personal',
      '/setting',
      '/setting?tab=operation',
      '/setting?tab=ratelimit',
      '/setting?tab=models',
      '/setting?tab=system',
      '/setting?tab=other',
      '/pricing',
    ],
  },
];

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** What the console got for one GET /api call, as the proxy passed it on. */
type Answer = { where: string; status: number; body: Buffer };

/**
 * The built console on one origin, /api forwarded to the gateway (with the cookie, both ways). Each GET answer is
 * handed to `seen` here rather than read in the browser, where a navigation discards the bodies not yet read.
 */
function serveConsole(
  dist: string,
  gatewayUrl: string,
  seen: (a: Answer) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://console');
    if (url.pathname.startsWith('/api/')) {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          // fetch sets its own length and connection headers (undici refuses a forwarded content-length).
          ([k, v]) =>
            typeof v === 'string' && !['host', 'content-length', 'connection', 'transfer-encoding'].includes(k),
        ),
      ) as Record<string, string>;
      const up = await fetch(gatewayUrl + url.pathname + url.search, {
        method: req.method,
        headers,
        body: ['GET', 'HEAD'].includes(req.method ?? 'GET') ? undefined : Buffer.concat(chunks),
        redirect: 'manual',
      });
      const out: Record<string, string | string[]> = {};
      up.headers.forEach((v, k) => {
        if (!['content-encoding', 'content-length', 'set-cookie'].includes(k)) out[k] = v;
      });
      const cookies = up.headers.getSetCookie();
      if (cookies.length > 0) out['set-cookie'] = cookies;
      const body = Buffer.from(await up.arrayBuffer());
      if (req.method === 'GET') seen({ where: `${url.pathname}${url.search}`, status: up.status, body });
      res.writeHead(up.status, out);
      res.end(body);
      return;
    }
    const file = path.join(dist, path.normalize(url.pathname));
    const target =
      file.startsWith(dist) && existsSync(file) && statSync(file).isFile() ? file : path.join(dist, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[path.extname(target)] ?? 'application/octet-stream' });
    res.end(readFileSync(target));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    ),
  );
}

for (const c of CONSOLES) {
  const built = c.dist !== '' && existsSync(path.join(c.dist, 'index.html'));
  const need = needs(c.envName, built);
  describe.skipIf(!need.ok)(need.name(`${c.title} walked against Switchyard`), () => {
    walk(c);
  });
}

function walk(c: Console) {
  let gw: Gateway;
  let site: { url: string; server: Server };
  let browser: Browser;
  const problems: string[] = [];
  /** The paths answered with success, to know the walk ran signed in rather than on the login page. */
  const answered = new Set<string>();

  beforeAll(async () => {
    gw = await startGateway();
    // A set-up site (both consoles send a fresh one to their /setup page), with a common user in it.
    await setupRoot(gw.test);
    await createUser(gw.test);
    for (const [key, value] of Object.entries(c.options)) await setOption(gw.test, key, value);
    site = await serveConsole(path.resolve(c.dist), gw.baseUrl, ({ where, status, body }) => {
      if (status === 404) return void problems.push(`404 ${where}`);
      try {
        const answer = JSON.parse(body.toString('utf8')) as { success?: boolean; message?: string };
        if (answer.success === false) problems.push(`refused ${where}: ${answer.message}`);
        else if (answer.success === true) answered.add(where.split('?')[0]!);
      } catch {
        problems.push(`not JSON ${where} (${status})`);
      }
    });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    site?.server.close();
    await gw?.close();
  });

  it('every page loads without a missing route, a refused call or an error toast', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));

    // Its login form posts here and keeps the answer in localStorage.user, as it does after a login.
    await page.goto(`${site.url}/login`);
    // The console may route on load (it reads /api/status first): sign in once it has settled.
    await page.waitForLoadState('networkidle');
    await page.evaluate(
      async ([username, password]) => {
        const res = await fetch('/api/user/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password }),
        });
        const body = (await res.json()) as { data: unknown };
        localStorage.setItem('user', JSON.stringify(body.data));
      },
      [ROOT_USERNAME, ROOT_PASSWORD],
    );
    for (const p of c.pages) {
      await page.goto(site.url + p);
      await page.waitForLoadState('networkidle');
      const toasts = await page
        .locator('.semi-toast-wrapper .semi-toast-error, .semi-notification-notice-error')
        .allInnerTexts();
      for (const t of toasts) problems.push(`error toast on ${p}: ${t}`);
    }
    expect(problems).toEqual([]);
    expect(answered).toContain('/api/user/self');
  }, 300_000);
}
