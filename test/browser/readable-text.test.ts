import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_TYPES } from '../../shared/channel-types.ts';
import { insertChannel } from '../relay-fixtures.ts';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, type Session, startGateway } from './harness.ts';
import { CONSOLE_PAGES, textsMatching, wordsIn } from './page-walk.ts';

/*
 * Issue 31: every text a person reads is written for people, in both languages. Root provokes the
 * failures a newcomer meets on the first day (a channel test against a closed port and against a
 * host that does not exist, a model fetch that cannot connect, one and three redemption codes, an
 * update check with no release feed), then every page is read, toasts, open pickers, placeholders,
 * titles and aria-labels included. None may show a "(s)" plural, a markdown backtick, a network or
 * framework error code, or a channel type written as "Name (number)". Technical detail shown on
 * demand (a toast's "Details", marked data-technical) is the exception, and is checked to be there.
 * Against the console and server before issue 31 every class fails: 'code(s) created', the undici
 * message with `http:` in backticks, 'connect ECONNREFUSED' and 'getaddrinfo ENOTFOUND' in toasts
 * and the channel list, and 'OpenAI (1)' ... in the type picker.
 */

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const TYPE_NAMES = CHANNEL_TYPES.filter((c) => c.id !== 0)
  .map((c) => escape(c.name))
  .join('|');

/** What no page may show, by class. `http(s)://` is URL notation, not a plural. */
const UNREADABLE: Record<string, RegExp> = {
  plural: /(?<!htt)[a-z]\(e?s\)/i,
  backtick: /`/,
  'error code': /(?:ERR_|FST_)[A-Z0-9_]{2,}|ECONN[A-Z]+|ENOTFOUND|EAI_AGAIN/,
  'numbered type': new RegExp(`(?:${TYPE_NAMES}) \\(\\d+\\)`),
};

async function unreadableOn(page: Page, where: string): Promise<string[]> {
  const found: string[] = [];
  for (const [kind, re] of Object.entries(UNREADABLE))
    for (const f of await textsMatching(page, re)) found.push(`${kind} · ${where} · ${f}`);
  return found;
}

/**
 * Opens a page and waits until its queries have answered and the loaders are gone, like
 * page-walk's openSettled, but counting the page's own requests: settled once none has been in
 * flight for 200 ms (Playwright's networkidle waits a fixed 500 ms, 50 pages a run).
 */
async function openSettled(page: Page, path: string): Promise<void> {
  const inFlight = new Set<Request>();
  let last = Date.now();
  const start = (r: Request) => {
    inFlight.add(r);
    last = Date.now();
  };
  const end = (r: Request) => {
    inFlight.delete(r);
    last = Date.now();
  };
  page.on('request', start);
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  try {
    await page.goto(path);
    const deadline = Date.now() + 15_000;
    while (inFlight.size > 0 || Date.now() - last < 200) {
      if (Date.now() > deadline) {
        await page.waitForLoadState('networkidle');
        break;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    page.off('request', start);
    page.off('requestfinished', end);
    page.off('requestfailed', end);
  }
  await page
    .locator('.mantine-Loader-root')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => {});
}

const firstToast = (page: Page) => page.locator('.mantine-Notification-root').first();

/** Waits for a toast and holds it on screen (a toast under the pointer does not close) while it is read. */
async function holdToast(page: Page): Promise<void> {
  await firstToast(page).waitFor({ timeout: 15_000 });
  await firstToast(page).hover();
}

// One gateway and one Chromium for both languages: each language signs in with its own session.
let gateway: Gateway;
let browser: Browser;
let closedPort = 0;
let noSuchHost = 0;
let noScheme = 0;

beforeAll(async () => {
  [gateway, browser] = await Promise.all([startGateway(), launchChromium()]);
  await setupRoot(gateway.test);
  closedPort = await insertChannel(gateway.test.deps, {
    name: 'Closed port',
    baseUrl: 'http://127.0.0.1:9',
    models: ['gpt-4o-mini'],
  });
  noSuchHost = await insertChannel(gateway.test.deps, {
    name: 'No such host',
    baseUrl: 'http://no-such-host.invalid',
    models: ['gpt-4o-mini'],
  });
  // An address without http://, as an imported database may hold one (the form would refuse it).
  noScheme = await insertChannel(gateway.test.deps, {
    name: 'No scheme',
    baseUrl: 'http://localhost:9',
    models: ['gpt-4o-mini'],
  });
  await gateway.test.deps.db
    .updateTable('channels')
    .set({ base_url: 'localhost:9' })
    .where('id', '=', noScheme)
    .execute();
  gateway.test.deps.bus.publish('channels');
});
afterAll(async () => {
  await browser?.close();
  await gateway?.close();
});

describe.each(['en', 'zh'] as const)('the console in %s reads as written for people', (lang) => {
  const w = wordsIn(lang);
  let s: Session;

  beforeAll(async () => {
    s = await openSession(browser, gateway.baseUrl);
    await logIn(s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    if (lang === 'zh') await s.page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
  });
  afterAll(async () => {
    await s?.context.close();
  });

  it('after the failures of a first day', async () => {
    const { page } = s;
    const found: string[] = [];

    // Channel tests that cannot reach their upstream.
    for (const [name, id] of [
      ['Closed port', closedPort],
      ['No such host', noSuchHost],
      ['No scheme', noScheme],
    ] as const) {
      await openSettled(page, '/admin/channels');
      const row = page.getByRole('row').filter({ hasText: name });
      await row.getByRole('button', { name: w('Test'), exact: true }).click();
      await holdToast(page);
      found.push(...(await unreadableOn(page, `test of channel #${id}`)));
      if (name === 'Closed port') {
        // The network's own words are one click away, in the toast.
        await firstToast(page)
          .getByRole('button', { name: w('Details') })
          .click();
        await expect.poll(() => firstToast(page).getByTestId('error-detail').innerText()).toContain('ECONNREFUSED');
      }
    }

    // Fetching models from an upstream that refuses the connection, and the type picker, open.
    await openSettled(page, `/admin/channels?edit=${closedPort}`);
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('button', { name: w('Fetch from upstream') }).click();
    await holdToast(page);
    found.push(...(await unreadableOn(page, 'fetch models')));
    await drawer.getByLabel(w('Type'), { exact: true }).click();
    await page.getByRole('listbox').getByRole('option').first().waitFor();
    found.push(...(await unreadableOn(page, 'type picker')));

    // One redemption code, then three.
    for (const count of [1, 3]) {
      await openSettled(page, '/admin/coupons');
      await page.getByTestId('create-codes').click();
      const create = page.getByRole('dialog', { name: w('Create redemption codes') });
      await create.getByText('$10', { exact: true }).click();
      await create.getByLabel(w('Count')).fill(String(count));
      await create.getByRole('button', { name: w('Create'), exact: true }).click();
      await page.getByTestId('generated-keys').waitFor();
      found.push(...(await unreadableOn(page, `${count} codes created`)));
    }

    // An update check with no release feed configured.
    await openSettled(page, '/admin/settings?tab=operation');
    await page
      .getByTestId('section-update')
      .getByRole('button', { name: w('Check for updates') })
      .click();
    await holdToast(page);
    found.push(...(await unreadableOn(page, 'update check')));

    expect(found).toEqual([]);
  }, 120_000);

  it('on every page', async () => {
    const { page } = s;
    const found: string[] = [];
    for (const path of [...CONSOLE_PAGES, `/channel/edit/${closedPort}`, '/channel/add']) {
      await openSettled(page, path);
      found.push(...(await unreadableOn(page, path)));
    }
    expect(found).toEqual([]);
    expect(s.errors).toEqual([]);
  }, 240_000);
});
