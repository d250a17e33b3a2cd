import { beforeAll, describe, expect, it } from 'vitest';
import { rootConsole } from './harness.ts';

/** Cloudflare's widget script, replaced by one that passes at once with a known token. */
const FAKE_TURNSTILE = `window.turnstile = {
  render(el, o) { el.textContent = 'human check passed'; setTimeout(() => o.callback('tok-123'), 50); return 'w1'; },
  remove() {},
};`;

describe('binding an e-mail with human verification on', () => {
  const c = rootConsole({
    beforeLogIn: (s) =>
      s.page.route('https://challenges.cloudflare.com/**', (route) =>
        route.fulfill({ contentType: 'application/javascript', body: FAKE_TURNSTILE }),
      ),
  });

  // Switched on after signing in (the login page would ask for the check too).
  beforeAll(async () => {
    const o = c.gateway.test.deps.services.options;
    await o.update('TurnstileSiteKey', 'site-key');
    await o.update('TurnstileSecretKey', 'secret-key');
    await o.update('TurnstileCheckEnabled', 'true');
  });

  it('the bind dialog runs the check and sends the code request with its token', async () => {
    await c.s.page.goto('/app/me');
    await c.s.page.getByTestId('bind-email').getByRole('button', { name: 'Bind' }).click();
    const dialog = c.s.page.getByRole('dialog', { name: 'Bind e-mail' });
    await dialog.getByText('human check passed').waitFor();
    await dialog.getByLabel('E-mail').fill('root@example.com');
    const sent = c.s.page.waitForRequest((r) => new URL(r.url()).pathname === '/api/verification');
    await dialog.getByRole('button', { name: 'Send code' }).click();
    const query = new URL((await sent).url()).searchParams;
    expect(query.get('email')).toBe('root@example.com');
    expect(query.get('turnstile')).toBe('tok-123');
    expect(c.s.errors).toEqual([]);
  });
});
