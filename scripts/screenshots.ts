/**
 * Captures console pages for visual review (not a test: the browser tests measure the same pages).
 *
 *   node --import tsx scripts/screenshots.ts [/route ...] [--base http://host:port] [--user root --password ...]
 *     [--themes light,dark] [--langs zh,en] [--widths 1366,390] [--setup] [--wait ms]
 *   node --import tsx scripts/screenshots.ts --scene usage-logs[,dashboard...|all] [--themes ...] [--list]
 *
 * Without --base it starts a throwaway gateway on a temp SQLite database serving dist/client
 * (run `npx vite build` first), completes setup as root and signs in. A scene (test/browser/scenes/)
 * seeds its own gateway as its browser test does, then pictures its pages, with a row or a modal
 * opened where it has one (`<name>_open`). PNGs go to test-artifacts/screenshots/<name>-<theme>-<lang>-<width>.png
 * (`--out <dir>` elsewhere).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { type Gateway, launchChromium, type RestAuth, restSignIn, startGateway } from '../test/browser/harness.ts';
import { type Grid, type SceneRoute, type Stop, walkRoutes } from '../test/browser/layout-checks.ts';
import { SCENES } from '../test/browser/scenes/index.ts';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../test/users.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    base: { type: 'string' },
    user: { type: 'string', default: ROOT_USERNAME },
    password: { type: 'string', default: ROOT_PASSWORD },
    themes: { type: 'string', default: 'light,dark' },
    langs: { type: 'string', default: 'zh,en' },
    widths: { type: 'string', default: '1366,390' },
    /** Named scenes of test/browser/scenes/ (comma-separated, or `all`) instead of routes. */
    scene: { type: 'string' },
    /** Where the PNGs go. */
    out: { type: 'string', default: path.resolve(import.meta.dirname, '../test-artifacts/screenshots') },
    /** Lists the scenes and what they show. */
    list: { type: 'boolean', default: false },
    /** Capture the setup wizard of a fresh install instead of a signed-in console. */
    setup: { type: 'boolean', default: false },
    anonymous: { type: 'boolean', default: false },
    /** Milliseconds to wait after the page settles (drawers and modals animate in). */
    wait: { type: 'string', default: '400' },
  },
});

const outDir = path.resolve(values.out!);
const list = (s: string) => s.split(',').filter(Boolean);
const grid: Grid = {
  themes: list(values.themes!) as ('light' | 'dark')[],
  langs: list(values.langs!) as ('zh' | 'en')[],
  widths: list(values.widths!).map(Number),
};

/** Writes one PNG per stop: the whole page, or the route's part. */
async function picture(stop: Stop) {
  await stop.page.waitForTimeout(Number(values.wait));
  const file = path.join(outDir, `${stop.name}-${stop.theme}-${stop.lang}-${stop.width}.png`);
  // A full-page shot of a long page takes more than the default 30 s on a busy two-core machine.
  const timeout = 120_000;
  if (stop.route.part) await stop.route.part(stop.page).screenshot({ path: file, timeout });
  else await stop.page.screenshot({ path: file, fullPage: true, timeout });
  console.log(file);
}

async function capture(browser: Browser, base: string, auth: RestAuth | null, routes: SceneRoute[]) {
  const errors = await walkRoutes(browser, base, auth, routes, grid, picture);
  if (errors.length) console.warn('page errors:', errors);
}

/** The routes given on the command line, each ready once the network is idle. */
const plainRoutes = (): SceneRoute[] =>
  (positionals.length ? positionals : ['/', '/login', '/register', '/app/me', '/admin/users', '/about']).map(
    (route) => ({
      route,
      name: route.replace(/^\//, '').replace(/[/?=&]+/g, '_') || 'home',
      ready: (page) => page.waitForLoadState('networkidle'),
    }),
  );

/** Each scene on its own fresh gateway, seeded as its test seeds it. */
async function captureScenes(browser: Browser, names: string[]) {
  for (const name of names) {
    const scene = SCENES[name];
    if (!scene) throw new Error(`no scene "${name}"; --list shows them`);
    const gateway = await startGateway();
    try {
      await setupRoot(gateway.test);
      const { routes, close } = await scene.setUp(gateway);
      try {
        const auth = scene.anonymous
          ? null
          : await restSignIn(gateway.baseUrl, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
        await capture(browser, gateway.baseUrl, auth, routes);
      } finally {
        await close?.();
      }
    } finally {
      await gateway.close();
    }
  }
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  if (values.list) {
    for (const [name, scene] of Object.entries(SCENES)) console.log(`${name.padEnd(18)} ${scene.about}`);
    return;
  }
  if (values.scene) {
    const browser = await launchChromium();
    try {
      await captureScenes(browser, values.scene === 'all' ? Object.keys(SCENES) : list(values.scene));
    } finally {
      await browser.close();
    }
    return;
  }
  let gateway: Gateway | undefined;
  let base = values.base;
  if (!base) {
    gateway = await startGateway();
    base = gateway.baseUrl;
    if (!values.setup) await setupRoot(gateway.test, { username: values.user, password: values.password });
  }
  const browser = await launchChromium();
  try {
    const auth =
      values.setup || values.anonymous
        ? null
        : await restSignIn(base, { username: values.user!, password: values.password! });
    await capture(browser, base, auth, plainRoutes());
  } finally {
    await browser.close();
    await gateway?.close();
  }
}

await main();
