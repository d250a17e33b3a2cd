import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../shared/constants.ts';
import { addDemoChannel } from '../../server/demo/demo-channel.ts';
import { createUser, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, startGateway } from './harness.ts';

/*
 * Issue 22 item 2: the server's refusals reach the console in its language. A tRPC refusal (login),
 * a REST one (an OAuth callback) and a relay one in the playground (a billing refusal met by the
 * relay), each in an English and a Chinese console.
 */

const CJK = /[\u3400-\u9fff]/;

describe('server messages in the console language', () => {
  let gateway: Gateway;
  let browser: Browser;
  const broke = { username: 'broke', password: 'broke-pass-1' };

  beforeAll(async () => {
    gateway = await startGateway({ demoChannel: true });
    const t = gateway.test;
    await setupRoot(t);
    await addDemoChannel(t.deps.services.channels, gateway.baseUrl);
    // No quota: the relay refuses the playground's request at the reservation (an AppError of billing).
    await createUser(t, { ...broke, role: Role.Common, quota: 0 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  const cases = [
    {
      lang: 'en' as const,
      login: 'Wrong username or password, or the user has been banned',
      oauth: 'The login state is missing or does not match; please start the login again',
      relay: 'Your quota is not enough',
    },
    {
      lang: 'zh' as const,
      login: '用户名或密码错误，或用户已被封禁',
      oauth: 'state 为空或不一致，请重新发起登录',
      relay: '用户额度不足',
    },
  ];

  it.each(cases)('$lang console', async (c) => {
    const s = await openSession(browser, gateway.baseUrl, { lang: c.lang });
    // tRPC: the login page's refusal, by its code.
    await s.page.goto('/login');
    await s.page.locator('input[autocomplete="username"]').fill('nobody');
    await s.page.locator('input[autocomplete="current-password"]').fill('wrong-password');
    await s.page.locator('form button[type="submit"]').click();
    await s.page.getByText(c.login, { exact: true }).waitFor();

    // REST: an OAuth callback with a forged state, answered with new-api's Chinese text, recognised and translated.
    await s.page.goto('/oauth/github?code=abc&state=xyz');
    await s.page.getByText(c.oauth).first().waitFor();

    // The relay: the playground asks in the console's language.
    if (c.lang === 'en') await logIn(s, broke);
    else {
      await s.page.goto('/login');
      await s.page.locator('input[autocomplete="username"]').fill(broke.username);
      await s.page.locator('input[autocomplete="current-password"]').fill(broke.password);
      await s.page.locator('form button[type="submit"]').click();
      await s.page.waitForURL('**/app/tokens');
    }
    await s.page.goto('/playground');
    await s.page.getByText('gpt-4o-mini', { exact: true }).first().waitFor({ timeout: 20_000 });
    const input = s.page.getByLabel(c.lang === 'en' ? 'Message' : '消息', { exact: true });
    await input.fill('Hello');
    await input.press('Enter');
    const answer = s.page.getByTestId('message-assistant');
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 15_000 }).toBe('error');
    const text = await answer.innerText();
    expect(text).toContain(c.relay);
    if (c.lang === 'en') expect(text).not.toMatch(CJK);
    expect(s.errors).toEqual([]);
    await s.context.close();
  });
});
