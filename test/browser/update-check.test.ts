import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, type Session, startGateway } from './harness.ts';

describe('operation settings: the update check', () => {
  let feed: Server;
  let gateway: Gateway;
  let browser: Browser;
  let s: Session;

  beforeAll(async () => {
    // GitHub's "latest release" answer for a release newer than the running one.
    feed = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          tag_name: 'v99.1.0',
          html_url: 'https://example.com/releases/v99.1.0',
          body: '## Highlights\n\n- faster relay\n- new channel types',
          published_at: '2026-11-20T10:00:00Z',
        }),
      );
    });
    await new Promise<void>((r) => feed.listen(0, '127.0.0.1', r));
    gateway = await startGateway({
      updateFeedUrl: `http://127.0.0.1:${(feed.address() as AddressInfo).port}/releases/latest`,
    });
    await setupRoot(gateway.test);
    browser = await launchChromium();
    s = await openSession(browser, gateway.baseUrl);
    await logIn(s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    feed?.close();
  });

  it('shows the newer release with its page and notes', async () => {
    await s.page.goto('/admin/settings?tab=other');
    const section = s.page.getByTestId('section-update');
    await section.getByRole('button', { name: 'Check for updates' }).click();
    const found = section.getByTestId('update-available');
    await found.getByText('New version v99.1.0').waitFor();
    await found.getByRole('link', { name: 'Release page' }).waitFor();
    await found.getByText('faster relay').waitFor();
  });
});
