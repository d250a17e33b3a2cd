import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, type Session } from './harness.ts';

/** Cloudflare's widget script, replaced by one that passes at once with a known token. */
const FAKE_TURNSTILE = `window.turnstile = {
  render(el, o) { el.textContent = 'human check passed'; setTimeout(() => o.callback('tok-123'), 50); return 'w1'; },
  remove() {},
};`;

describe('binding an e-mail with human verification on', () => {
  let gateway: Gateway;
  let browser: Browser;
  let s: Session;

  beforeAll(async () => {
    const { startGateway } = await import('./harness.ts');
    gateway = await startGateway();
    await setupRoot(gateway.test);
    browser = await launchChromium();
    s = await openSession(browser, gateway.baseUrl);
    await s.page.route('https://challenges.cloudflare.com/**', (route) =>
      route.fulfill({ contentType: 'application/javascript', body: FAKE_TURNSTILE }),
    );
    await logIn(s, { username: ROOT_USERNAME, password: ROOT_PASSWORD });
    const o = gateway.test.deps.services.options;
    await o.update('TurnstileSiteKey', 'site-key');
    await o.update('TurnstileSecretKey', 'secret-key');
    await o.update('TurnstileCheckEnabled', 'true');
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it('the bind dialog runs the check and sends the code request with its token', async () => {
    await s.page.goto('/app/me');
    await s.page.getByTestId('bind-email').getByRole('button', { name: 'Bind' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Bind e-mail' });
    await dialog.getByText('human check passed').waitFor();
    await dialog.getByLabel('E-mail').fill('root@example.com');
    const sent = s.page.waitForRequest((r) => new URL(r.url()).pathname === '/api/verification');
    await dialog.getByRole('button', { name: 'Send code' }).click();
    const query = new URL((await sent).url()).searchParams;
    expect(query.get('email')).toBe('root@example.com');
    expect(query.get('turnstile')).toBe('tok-123');
    expect(s.errors).toEqual([]);
  });
});
