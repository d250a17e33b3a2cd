import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeUpstream } from '../../scripts/fake-upstream/server.ts';
import { Role } from '../../shared/constants.ts';
import { createUser, login, restHeaders, ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, openSession, type Session, startGateway, logIn } from './harness.ts';

describe('playground: a user chats against an upstream and finds the charge in the usage logs', () => {
  let gateway: Gateway;
  let fake: FakeUpstream;
  let browser: Browser;
  let dora: Session;
  let doraId = 0;
  const doraLogin = { username: 'dora', password: 'dora-pass-1' };

  beforeAll(async () => {
    fake = await startFakeOpenAI({ chunkDelayMs: 20 });
    gateway = await startGateway();
    const t = gateway.test;
    await setupRoot(t);
    // A high ratio so that one short answer moves a $1.00 balance visibly.
    await t.deps.services.options.update('ModelRatio', JSON.stringify({ 'gpt-4o-mini': 1000 }));
    await t.deps.services.options.update('CompletionRatio', JSON.stringify({ 'gpt-4o-mini': 1 }));
    const root = restHeaders(await login(t, ROOT_USERNAME, ROOT_PASSWORD));
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/channel/',
      headers: root,
      payload: {
        name: 'fake',
        type: 1,
        key: 'sk-upstream',
        base_url: fake.url,
        models: 'gpt-4o-mini',
        group: 'default',
      },
    });
    expect(created.json().success).toBe(true);
    doraId = (await createUser(t, { ...doraLogin, role: Role.Common, quota: 500_000 })).id;
    browser = await launchChromium();
    dora = await openSession(browser, gateway.baseUrl);
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await fake?.close();
  });

  it('streams an answer in the playground', async () => {
    await logIn(dora, { username: doraLogin.username, password: doraLogin.password });
    await dora.page.goto('/playground');
    // The model list arrives after the page chunk and two queries; the first run of a cold browser is slow.
    await dora.page.getByText('gpt-4o-mini', { exact: true }).first().waitFor({ timeout: 20_000 });
    await dora.page.getByLabel('Message').fill('Hello there');
    await dora.page.getByLabel('Message').press('Enter');
    const answer = dora.page.getByTestId('message-assistant');
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 15_000 }).toBe('complete');
    expect(await answer.innerText()).toContain('w0 w1 w2 w3 w4');
    // The system prompt and the question reached the upstream; the group was consumed by the gateway.
    const sent = fake.requests.find((r) => r.path.includes('/chat/completions'));
    expect(sent?.body.messages).toEqual([
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'Hello there' },
    ]);
    expect(dora.errors).toEqual([]);
  });

  /** Quota in dollars as the console shows it: exact to the unit (500,000 a dollar here), at least two decimals. */
  const dollars = (quota: number) => {
    const [whole, fraction = ''] = (quota / 500_000).toFixed(6).replace(/0+$/, '').split('.');
    return `$${whole}.${fraction.padEnd(2, '0')}`;
  };

  it('shows the consumption row and the lower balance on the usage-log page', async () => {
    const db = gateway.test.deps.db;
    await gateway.test.deps.services.logWriter.flush();
    const user = await db.selectFrom('users').select('quota').where('id', '=', doraId).executeTakeFirstOrThrow();
    const charged = 500_000 - Number(user.quota);
    expect(charged).toBeGreaterThan(0);

    await dora.page.goto('/app/logs/api-usage');
    const row = dora.page.getByRole('row', { name: /gpt-4o-mini/ });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    expect(await row.innerText()).toContain(dollars(charged));
    // The balance at the cents that can be spent (issue 39), the exact amount on hover.
    const balance = dora.page.getByTestId('log-balance');
    await expect
      .poll(() => balance.innerText(), { timeout: 15_000 })
      .toContain(`$${(Math.floor(Number(user.quota) / 5_000) / 100).toFixed(2)}`);
    expect(await balance.locator('[title]').getAttribute('title')).toBe(dollars(Number(user.quota)));
    // Users never see the admin-only columns.
    await expect(dora.page.getByRole('columnheader', { name: 'Channel' }).count()).resolves.toBe(0);

    // The row expands into its pricing details.
    await row.click();
    await dora.page.getByTestId('log-details').waitFor();
    expect(await dora.page.getByTestId('log-details').innerText()).toContain('Model ratio');
    expect(dora.errors).toEqual([]);
  });

  // Last: it charges dora again. A Chinese console's chats start with a Chinese system prompt (issue 45).
  it('a Chinese console sends a Chinese default system prompt', async () => {
    await dora.page.evaluate(() => localStorage.setItem('i18nextLng', 'zh'));
    await dora.page.goto('/playground');
    await dora.page.getByText('gpt-4o-mini', { exact: true }).first().waitFor({ timeout: 20_000 });
    expect(await dora.page.getByLabel('系统提示词').inputValue()).toBe('你是一个乐于助人的助手。');
    const before = fake.requests.length;
    await dora.page.getByLabel('消息', { exact: true }).fill('你好');
    await dora.page.getByLabel('消息', { exact: true }).press('Enter');
    await expect.poll(() => fake.requests.length, { timeout: 15_000 }).toBeGreaterThan(before);
    const sent = fake.requests.slice(before).find((r) => r.path.includes('/chat/completions'));
    expect(sent?.body.messages).toEqual([
      { role: 'system', content: '你是一个乐于助人的助手。' },
      { role: 'user', content: '你好' },
    ]);
    expect(dora.errors).toEqual([]);
  });
});
