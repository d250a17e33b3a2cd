import OpenAI from 'openai';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeOpenAI } from '../../scripts/fake-upstream/server.ts';
import { type Gateway, launchChromium, openSession, type Session, startGateway, logIn } from './harness.ts';

/*
 * The relay end to end through the console: root adds a channel pointing at the fake
 * OpenAI upstream in /admin/channels, creates a token in /app/tokens, takes its key from
 * the list, and a real OpenAI client gets the upstream's answer through /v1. The token's
 * used quota then shows in the list.
 */

const ROOT = { username: 'root', password: 'root-password-1' };

describe('channel, token and relay in a browser', () => {
  let gateway: Gateway;
  let fake: FakeUpstream;
  let browser: Browser;
  let s: Session;
  let tokenKey = '';

  beforeAll(async () => {
    [gateway, fake, browser] = await Promise.all([startGateway(), startFakeOpenAI(), launchChromium()]);
    const res = await fetch(`${gateway.baseUrl}/api/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ROOT.username, password: ROOT.password, confirmPassword: ROOT.password }),
    });
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
    s = await openSession(browser, gateway.baseUrl);
    await logIn(s, ROOT);
  });

  afterAll(async () => {
    await browser?.close();
    await fake?.close();
    await gateway?.close();
  });

  it('asks for name and key, then creates a channel pointing at the fake upstream', async () => {
    const { page } = s;
    await page.goto('/admin/channels');
    await page.getByRole('heading', { name: 'Manage channels' }).waitFor();
    await page.getByRole('button', { name: 'Add channel' }).click();
    const drawer = page.getByRole('dialog', { name: 'Add channel' });
    await drawer.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Please fill in channel name and channel key').waitFor();

    await drawer.getByLabel(/^Name/).fill('Fake OpenAI');
    await drawer.getByLabel('Base URL', { exact: true }).fill(`${fake.url}/`);
    await drawer.getByLabel('Key', { exact: true }).fill('sk-upstream-secret');
    // The OpenAI type prefills its default models, gpt-4o among them.
    await drawer.getByText('gpt-4o', { exact: true }).first().waitFor();
    await drawer.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Channel created').waitFor();
    await drawer.waitFor({ state: 'hidden' });
    const row = page.getByRole('row').filter({ hasText: 'Fake OpenAI' });
    await row.getByText('OpenAI', { exact: true }).waitFor();
    await row.getByText('Enabled', { exact: true }).waitFor();
    // The trailing slash was stripped before saving.
    const stored = await gateway.test.deps.db
      .selectFrom('channels')
      .select(['base_url', 'key'])
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ base_url: fake.url, key: 'sk-upstream-secret' });
  });

  it('edits the channel: inline priority, and the drawer keeps the key when it is left empty', async () => {
    const { page } = s;
    const row = page.getByRole('row').filter({ hasText: 'Fake OpenAI' });
    const priority = row.getByRole('textbox', { name: 'Priority' });
    await priority.fill('7');
    await priority.press('Enter');
    await page.getByText('Channel updated').first().waitFor();
    await row.getByRole('button', { name: 'Edit' }).click();
    const drawer = page.getByRole('dialog', { name: /^Edit channel #/ });
    const name = drawer.getByLabel(/^Name/);
    await expect.poll(() => name.inputValue()).toBe('Fake OpenAI');
    await name.fill('Fake OpenAI upstream');
    await drawer.getByRole('button', { name: 'Save' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await page.getByRole('row').filter({ hasText: 'Fake OpenAI upstream' }).waitFor();
    const stored = await gateway.test.deps.db
      .selectFrom('channels')
      .select(['name', 'priority', 'key'])
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ name: 'Fake OpenAI upstream', priority: 7, key: 'sk-upstream-secret' });
  });

  it('creates a token in /app/tokens and shows its key once created and in the list', async () => {
    const { page } = s;
    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.waitForURL('**/app/tokens');
    await page.getByRole('button', { name: 'Add token' }).click();
    const drawer = page.getByRole('dialog', { name: 'Create token' });
    await drawer.getByLabel('Name', { exact: true }).fill('relay-e2e');
    await drawer.getByRole('button', { name: 'Create' }).click();
    const created = page.getByTestId('created-key');
    await created.waitFor();
    const shown = (await created.textContent())?.trim() ?? '';
    expect(shown).toMatch(/^sk-[A-Za-z0-9]{48}$/);
    await page.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('row').filter({ hasText: 'relay-e2e' });
    await row.getByText('Enabled', { exact: true }).waitFor();
    expect(await row.getByTestId('token-key').textContent()).toMatch(/^sk-\w{4}…\w{4}$/);
    await row.getByRole('button', { name: 'Show key' }).click();
    tokenKey = (await row.getByTestId('token-key').textContent())?.trim() ?? '';
    expect(tokenKey).toBe(shown);
    expect(await row.getByTestId('token-used').textContent()).toBe('$0.00');
  });

  it('relays a chat completion with that key and bills the token', async () => {
    const client = new OpenAI({ apiKey: tokenKey, baseURL: `${gateway.baseUrl}/v1`, maxRetries: 0 });
    const answer = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Say hello through the gateway' }],
    });
    expect(answer.choices[0].message.content).toBe('w0 w1 w2 w3 w4 ');
    const upstream = fake.requests.find((r) => r.path.endsWith('/chat/completions'));
    expect(upstream?.headers.authorization).toBe('Bearer sk-upstream-secret');

    // Settlement is asynchronous: reload until the used quota shows.
    const { page } = s;
    const used = page.getByRole('row').filter({ hasText: 'relay-e2e' }).getByTestId('token-used');
    await expect
      .poll(
        async () => {
          await page.reload();
          return used.textContent();
        },
        { timeout: 15_000, interval: 500 },
      )
      .not.toBe('$0.00');
    expect(s.errors).toEqual([]);
  });

  it('disables the token from its row; the relay then refuses the key', async () => {
    const { page } = s;
    const row = page.getByRole('row').filter({ hasText: 'relay-e2e' });
    await row.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Disable' }).click();
    // The row takes the status the server answered, without a reload.
    await row.getByText('Disabled', { exact: true }).waitFor();
    const client = new OpenAI({ apiKey: tokenKey, baseURL: `${gateway.baseUrl}/v1`, maxRetries: 0 });
    const refused = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'still there?' }] })
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(401);
  });
});
