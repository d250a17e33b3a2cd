import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../app.ts';
import type { Config } from '../../server/config.ts';
import { afterAll, beforeAll } from 'vitest';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { clientDist } from './global-setup.ts';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

export interface Gateway {
  test: TestApp;
  baseUrl: string;
  close(): Promise<void>;
}

/** A whole gateway with a fresh SQLite database, serving the built console on 127.0.0.1. */
export async function startGateway(overrides: Partial<Config> = {}): Promise<Gateway> {
  const test = await createTestApp({ clientDist, ...overrides });
  await test.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = test.app.server.address() as AddressInfo;
  return { test, baseUrl: `http://127.0.0.1:${port}`, close: () => test.close() };
}

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors, asserted empty by tests. */
  errors: string[];
}

/** A fresh browser context (own cookies and storage) with English text, at a given width. */
export async function openSession(
  browser: Browser,
  baseUrl: string,
  opts: { width?: number; height?: number; lang?: 'en' | 'zh'; theme?: 'light' | 'dark' } = {},
): Promise<Session> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: opts.width ?? 1366, height: opts.height ?? 860 },
  });
  const lang = opts.lang ?? 'en';
  const theme = opts.theme ?? 'light';
  await context.addInitScript(
    ([l, th]) => {
      if (!localStorage.getItem('i18nextLng')) localStorage.setItem('i18nextLng', l);
      if (!localStorage.getItem('theme-mode')) localStorage.setItem('theme-mode', th);
    },
    [lang, theme] as const,
  );
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/** A sign-in made over REST once and handed to many sessions: the cookie and the stored-user object. */
export interface RestAuth {
  cookies: { name: string; value: string; domain: string; path: string }[];
  user: unknown;
}

/** Signs in over REST (a form login per session is slow on a busy machine, and its labels change with the language). */
export async function restSignIn(baseUrl: string, who: { username: string; password: string }): Promise<RestAuth> {
  const res = await fetch(`${baseUrl}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  const body = (await res.json()) as { success: boolean; message: string; data: unknown };
  if (!body.success) throw new Error(`login failed for ${who.username}: ${body.message}`);
  const domain = new URL(baseUrl).hostname;
  const cookies = res.headers.getSetCookie().map((c) => {
    const [name, ...rest] = c.split(';')[0].split('=');
    return { name, value: rest.join('='), domain, path: '/' };
  });
  return { cookies, user: body.data };
}

/** A session already signed in with `auth` (see restSignIn). */
export async function signedInSession(
  browser: Browser,
  baseUrl: string,
  auth: RestAuth,
  opts: Parameters<typeof openSession>[2] = {},
): Promise<Session> {
  const s = await openSession(browser, baseUrl, opts);
  await s.context.addCookies(auth.cookies);
  await s.context.addInitScript((u) => localStorage.setItem('user', JSON.stringify(u)), auth.user);
  return s;
}

/** Signs in through the login page and waits for the post-login page (/app/tokens). */
export async function logIn(s: Session, who: { username: string; password: string }): Promise<void> {
  await s.page.goto('/login');
  await s.page.getByLabel('Username or e-mail').fill(who.username);
  await s.page.getByLabel('Password', { exact: true }).fill(who.password);
  await s.page.getByRole('button', { name: 'Log in', exact: true }).last().click();
  await s.page.waitForURL('**/app/tokens');
}

/**
 * The usual console test setup, as vitest hooks: a gateway (with `overrides`), the root user,
 * Chromium and one English session signed in as root (after `beforeLogIn`, e.g. routes to stub).
 * Read the fields inside tests; they are set in beforeAll.
 */
export function rootConsole(
  opts: { overrides?: Partial<Config>; beforeLogIn?: (s: Session) => Promise<unknown> } = {},
): { gateway: Gateway; browser: Browser; s: Session } {
  const f = {} as { gateway: Gateway; browser: Browser; s: Session };
  beforeAll(async () => {
    f.gateway = await startGateway(opts.overrides);
    await setupRoot(f.gateway.test);
    f.browser = await launchChromium();
    f.s = await openSession(f.browser, f.gateway.baseUrl);
    await opts.beforeLogIn?.(f.s);
    await logIn(f.s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
  });
  afterAll(async () => {
    await f.browser?.close();
    await f.gateway?.close();
  });
  return f;
}
