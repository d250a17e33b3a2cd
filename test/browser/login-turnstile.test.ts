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

describe('signing in with human verification on', () => {
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
});
