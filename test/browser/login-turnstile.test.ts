import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeProviders, startFakeProviders, TURNSTILE_SECRET } from '../signin/fake-providers.ts';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, openSession, type Session, startGateway } from './harness.ts';

/** Cloudflare's widget script, replaced by one that passes at once with the token the fake verifier accepts. */
const FAKE_TURNSTILE = `window.turnstile = {
  render(el, o) { el.textContent = 'human check passed'; setTimeout(() => o.callback('human-ok'), 50); return 'w1'; },
  remove() {},
};`;

describe('signing in and up with human verification on', () => {
  let fake: FakeProviders;
  let gateway: Gateway;
  let browser: Browser;
  let s: Session;

  beforeAll(async () => {
    // The server checks the token against this local stand-in for Cloudflare's verify endpoint.
    fake = await startFakeProviders();
    gateway = await startGateway();
    await setupRoot(gateway.test);
    const o = gateway.test.deps.services.options;
    await o.update('TurnstileSiteKey', 'site-key');
    await o.update('TurnstileSecretKey', TURNSTILE_SECRET);
    await o.update('TurnstileCheckEnabled', 'true');
    browser = await launchChromium();
    s = await openSession(browser, gateway.baseUrl);
    await s.page.route('https://challenges.cloudflare.com/**', (route) =>
      route.fulfill({ contentType: 'application/javascript', body: FAKE_TURNSTILE }),
    );
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await fake?.close();
  });

  it('the login page runs the check and signs in through its one transport (tRPC)', async () => {
    const paths: string[] = [];
    s.page.on('request', (r) => paths.push(new URL(r.url()).pathname));
    await s.page.goto('/login');
    await s.page.getByText('human check passed').waitFor();
    await s.page.getByLabel('Username or e-mail').fill(ROOT_USERNAME);
    await s.page.getByLabel('Password', { exact: true }).fill(ROOT_PASSWORD);
    await s.page.getByRole('button', { name: 'Log in', exact: true }).last().click();
    await s.page.waitForURL('**/app/tokens');
    expect(paths.filter((p) => p.startsWith('/trpc/') && p.includes('auth.login'))).toHaveLength(1);
    expect(paths).not.toContain('/api/user/login');
    expect(s.errors).toEqual([]);
  });

  it('the sign-up page runs the check and registers through its one transport (tRPC)', async () => {
    const visitor = await openSession(browser, gateway.baseUrl);
    await visitor.page.route('https://challenges.cloudflare.com/**', (route) =>
      route.fulfill({ contentType: 'application/javascript', body: FAKE_TURNSTILE }),
    );
    const paths: string[] = [];
    visitor.page.on('request', (r) => paths.push(new URL(r.url()).pathname));
    await visitor.page.goto('/register');
    await visitor.page.getByText('human check passed').waitFor();
    await visitor.page.getByLabel('Username', { exact: true }).fill('turnstile_walker');
    await visitor.page.getByLabel('Password', { exact: true }).fill('walker-pw-123');
    await visitor.page.getByLabel('Confirm password').fill('walker-pw-123');
    await visitor.page.getByRole('button', { name: 'Register', exact: true }).last().click();
    await visitor.page.waitForURL('**/login');
    expect(paths.filter((p) => p.startsWith('/trpc/') && p.includes('auth.register'))).toHaveLength(1);
    expect(paths).not.toContain('/api/user/register');
    // The account exists.
    const row = await gateway.test.deps.db
      .selectFrom('users')
      .select('username')
      .where('username', '=', 'turnstile_walker')
      .executeTakeFirst();
    expect(row?.username).toBe('turnstile_walker');
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
  });
});
