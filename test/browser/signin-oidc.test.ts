import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalOp, startOp } from '../signin/openid-provider.ts';
import { createUser, setOption, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, openSession } from './harness.ts';

/* The OIDC button, the provider round trip and the /oauth/oidc callback page, against a local OpenID Provider. */

describe('OIDC sign-in in the browser', () => {
  let gateway: Gateway;
  let browser: Browser;
  let op: LocalOp;

  beforeAll(async () => {
    const { startGateway } = await import('./harness.ts');
    gateway = await startGateway();
    const t = gateway.test;
    await setupRoot(t);
    op = await startOp({ id: 'yard', secret: 'yard-secret-1', redirectUri: `${gateway.baseUrl}/oauth/oidc` });
    await setOption(t, 'ServerAddress', gateway.baseUrl);
    await setOption(t, 'oidc.client_id', 'yard');
    await setOption(t, 'oidc.client_secret', 'yard-secret-1');
    await setOption(t, 'oidc.well_known', op.wellKnown);
    await setOption(t, 'oidc.authorization_endpoint', `${op.issuer}/auth`);
    await setOption(t, 'oidc.enabled', 'true');
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await op?.close();
    await gateway?.close();
  });

  it('signs a new user up from the login page', async () => {
    op.nextAccount = { sub: 'erin-sub', name: 'Erin', email: 'erin@idp.test' };
    const s = await openSession(browser, gateway.baseUrl);
    await s.page.goto('/login');
    await s.page.getByRole('button', { name: 'OIDC' }).click();
    await s.page.waitForURL('**/app/tokens');
    const row = await gateway.test.deps.db
      .selectFrom('users')
      .select(['username', 'display_name'])
      .where('oidc_id', '=', 'erin-sub')
      .executeTakeFirst();
    expect(row?.username).toMatch(/^oidc_\d+$/);
    expect(row?.display_name).toBe('Erin');
    expect(s.errors).toEqual([]);
  });

  it('binds the account from personal settings and shows the id read-only', async () => {
    await createUser(gateway.test, { username: 'frank', password: 'frank-pass-1' });
    op.nextAccount = { sub: 'frank-sub' };
    const s = await openSession(browser, gateway.baseUrl);
    await s.page.goto('/login');
    await s.page.getByLabel('Username or e-mail').fill('frank');
    await s.page.getByLabel('Password', { exact: true }).fill('frank-pass-1');
    await s.page.getByRole('button', { name: 'Log in', exact: true }).last().click();
    await s.page.waitForURL('**/app/tokens');
    await s.page.goto('/app/me');
    await s.page.getByTestId('bind-oidc').getByRole('button', { name: 'Bind' }).click();
    await s.page.waitForURL('**/app/me');
    await s.page.getByText('Bound successfully').waitFor();
    await s.page.getByTestId('bind-oidc').getByText('frank-sub').waitFor();
    expect(s.errors).toEqual([]);
  });

  it('shows the failure and leaves the callback page on a forged state', async () => {
    const s = await openSession(browser, gateway.baseUrl);
    await s.page.goto('/oauth/oidc?code=abc&state=forged');
    await s.page.getByText('Operation failed, redirecting...').waitFor();
    await s.page.waitForURL('**/login');
  });
});
