import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needs } from '../skips/needs.ts';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setOption } from '../users.ts';
import { type Gateway, launchChromium, startGateway } from './harness.ts';

/*
 * Today's new-api console itself, walked in Chromium against Switchyard's /api. Its build is not
 * in this repository (its code is not ours to ship): build new-api's web/classic from its public
 * source outside the repository and point NEW_API_CONSOLE_DIST at the folder with its index.html.
 * The console is served from its own origin here, with /api forwarded to the gateway, as a
 * reverse proxy in front of both would. Every /api answer a page load gets is read: a 404, a
 * non-JSON answer or `success: false`, and any error toast the console shows, fail the walk.
 */
const dist = process.env.NEW_API_CONSOLE_DIST ?? '';
const built = dist !== '' && existsSync(path.join(dist, 'index.html'));
const need = needs('NEW_API_CONSOLE_DIST=<a build of new-api web/classic>', built);

const PAGES = [
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

/** The built console on one origin, /api forwarded to the gateway (with the cookie, both ways). */
function serveConsole(gatewayUrl: string): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://console');
    if (url.pathname.startsWith('/api/')) {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k, v]) => typeof v === 'string' && k !== 'host'),
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
      res.writeHead(up.status, out);
      res.end(Buffer.from(await up.arrayBuffer()));
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

describe.skipIf(!need.ok)(need.name("today's new-api console walked against Switchyard"), () => {
  let gw: Gateway;
  let site: { url: string; server: Server };
  let browser: Browser;

  beforeAll(async () => {
    gw = await startGateway();
    await createUser(gw.test);
    await setOption(gw.test, 'checkin_setting.enabled', 'true').catch(() => undefined);
    site = await serveConsole(gw.baseUrl);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    site?.server.close();
    await gw?.close();
  });

  it('every page loads without a missing route, a refused call or an error toast', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    const problems: string[] = [];
    page.on('response', async (res) => {
      const url = new URL(res.url());
      if (!url.pathname.startsWith('/api/') || res.request().method() !== 'GET') return;
      const where = `${url.pathname}${url.search}`;
      if (res.status() === 404) return void problems.push(`404 ${where}`);
      const text = await res.text().catch(() => '');
      try {
        const body = JSON.parse(text) as { success?: boolean; message?: string };
        if (body.success === false) problems.push(`refused ${where}: ${body.message}`);
      } catch {
        problems.push(`not JSON ${where}`);
      }
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));

    // Its login form posts here and keeps the answer in localStorage.user, as it does after a login.
    await page.goto(`${site.url}/login`);
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
    for (const p of PAGES) {
      await page.goto(site.url + p);
      await page.waitForLoadState('networkidle');
      const toasts = await page
        .locator('.semi-toast-wrapper .semi-toast-error, .semi-notification-notice-error')
        .allInnerTexts();
      for (const t of toasts) problems.push(`error toast on ${p}: ${t}`);
    }
    expect(problems).toEqual([]);
  }, 300_000);
});
