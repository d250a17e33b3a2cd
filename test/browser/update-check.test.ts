import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Config } from '../../server/config.ts';
import { rootConsole } from './harness.ts';

describe('operation settings: the update check', () => {
  // GitHub's "latest release" answer for a release newer than the running one.
  const feed: Server = createServer((_req, res) => {
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
  // Filled in before the gateway starts (hooks run in order), once the feed has its port.
  const overrides: Partial<Config> = {};
  beforeAll(async () => {
    await new Promise<void>((r) => feed.listen(0, '127.0.0.1', r));
    overrides.updateFeedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/releases/latest`;
  });
  const c = rootConsole({ overrides });
  afterAll(() => feed.close());

  it('shows the newer release with its page and notes', async () => {
    await c.s.page.goto('/admin/settings?tab=operation');
    const section = c.s.page.getByTestId('section-update');
    await section.getByRole('button', { name: 'Check for updates' }).click();
    const found = section.getByTestId('update-available');
    await found.getByText('New version v99.1.0').waitFor();
    await found.getByRole('link', { name: 'Release page' }).waitFor();
    await found.getByText('faster relay').waitFor();
  });
});
