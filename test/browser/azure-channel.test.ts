import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertChannel } from '../relay-fixtures.ts';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, type Session, startGateway } from './harness.ts';

describe('an Azure OpenAI channel in the channel drawer', () => {
  let gateway: Gateway;
  let browser: Browser;
  let s: Session;

  beforeAll(async () => {
    gateway = await startGateway();
    await setupRoot(gateway.test);
    browser = await launchChromium();
    s = await openSession(browser, gateway.baseUrl);
    await logIn(s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('edits its own api-version (the gateway default applies when it is empty)', async () => {
    const id = await insertChannel(gateway.test.deps, {
      name: 'Azure east',
      type: 3,
      baseUrl: 'https://east.openai.azure.com',
      models: ['gpt-4o'],
    });
    await s.page.goto(`/channel/edit/${id}`);
    const drawer = s.page.getByRole('dialog', { name: `Edit channel #${id}` });
    await drawer.getByRole('button', { name: 'Advanced settings' }).click();
    const version = drawer.getByLabel('API version');
    await drawer.getByText("empty uses the gateway's AZURE_DEFAULT_API_VERSION").waitFor();
    await version.fill('2025-04-01-preview');
    await drawer.getByRole('button', { name: 'Save' }).click();
    await drawer.waitFor({ state: 'hidden' });
    const row = await gateway.test.deps.db
      .selectFrom('channels')
      .select('other')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.other).toBe('2025-04-01-preview');
    expect(s.errors).toEqual([]);
  });
});
