import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, CDPSession } from 'playwright-core';
import { createUser, setOption, setupRoot } from '../users.ts';
import { type Gateway, launchChromium, logIn, openSession, type Session, startGateway } from './harness.ts';

/*
 * Passkeys in Chromium with a CDP virtual authenticator (a platform authenticator that holds discoverable
 * credentials and verifies the user), on pages served from http://localhost:<port> (WebAuthn needs a secure
 * context, and localhost is one; an IP address cannot be a relying party id). Both consoles' paths:
 * ours (Me › Security, then "Sign in with a passkey"), and today's new-api console's call sequence run
 * from the page (fetch to /api/user/passkey/*, navigator.credentials with its base64url conversion).
 */

let gateway: Gateway;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  gateway = await startGateway();
  await setupRoot(gateway.test);
  origin = gateway.baseUrl.replace('127.0.0.1', 'localhost');
  await setOption(gateway.test, 'passkey.enabled', 'true');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await gateway?.close();
});

/** A session with its own virtual authenticator (credentials live in it, like a phone's passkeys). */
async function sessionWithAuthenticator(): Promise<{ s: Session; cdp: CDPSession; authenticatorId: string }> {
  const s = await openSession(browser, origin);
  const cdp = await s.context.newCDPSession(s.page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { s, cdp, authenticatorId };
}

const storedCredentials = async (cdp: CDPSession, authenticatorId: string) =>
  (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;

describe('our console', () => {
  it('registers a passkey in Me › Security, signs in with it alone, and not after removing it', async () => {
    const user = await createUser(gateway.test);
    const { s, cdp, authenticatorId } = await sessionWithAuthenticator();
    await logIn(s, user);
    await s.page.goto('/app/me');
    const card = s.page.getByTestId('passkey-card');
    await expect(card.getByTestId('passkey-state').textContent()).resolves.toBe('Not registered');
    await card.getByRole('button', { name: 'Register a passkey' }).click();
    await s.page.getByText('Passkey registered').first().waitFor();
    // The card re-reads the passkey after the toast: wait for it rather than read the state it had before.
    await card
      .getByTestId('passkey-state')
      .filter({ hasText: /^Registered$/ })
      .waitFor();
    await expect(card.getByTestId('passkey-times').innerText()).resolves.toContain('last used never');
    const [credential] = await storedCredentials(cdp, authenticatorId);
    expect(credential).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    expect(Buffer.from(credential!.userHandle!, 'base64').toString()).toBe(String(user.id));

    // Sign out, then in with the passkey alone.
    await s.page.getByTestId('user-menu').click();
    await s.page.getByRole('menuitem', { name: 'Log out' }).click();
    await s.page.waitForURL('**/login');
    await s.page.getByTestId('passkey-sign-in').click();
    await s.page.waitForURL('**/app/tokens');
    await expect(s.page.getByTestId('user-menu').innerText()).resolves.toContain(user.username);
    await s.page.goto('/app/me');
    await card.getByTestId('passkey-times').filter({ hasNotText: 'never' }).waitFor();

    // Removed: the authenticator still offers its credential, and the server refuses it.
    await card.getByRole('button', { name: 'Remove passkey' }).click();
    await s.page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect(card.getByTestId('passkey-state').filter({ hasText: 'Not registered' }).waitFor()).resolves.toBe(
      undefined,
    );
    await s.page.getByTestId('user-menu').click();
    await s.page.getByRole('menuitem', { name: 'Log out' }).click();
    await s.page.waitForURL('**/login');
    await s.page.getByTestId('passkey-sign-in').click();
    await s.page.getByText('Passkey sign-in failed').waitFor();
    await expect(s.page.getByText('The passkey could not be verified').first().isVisible()).resolves.toBe(true);
    expect(new URL(s.page.url()).pathname).toBe('/login');
    expect(await storedCredentials(cdp, authenticatorId)).toHaveLength(1);
    expect(s.errors).toEqual([]);
    await s.context.close();
  });

  it('offers no passkey sign-in while the site has passkeys off', async () => {
    await setOption(gateway.test, 'passkey.enabled', 'false');
    const s = await openSession(browser, origin);
    await s.page.goto('/login');
    await s.page.getByRole('button', { name: 'Log in', exact: true }).waitFor();
    await expect(s.page.getByTestId('passkey-sign-in').count()).resolves.toBe(0);
    await s.context.close();
    await setOption(gateway.test, 'passkey.enabled', 'true');
  });
});

describe('today’s new-api console call sequence, from the page', () => {
  it('registers through /api/user/passkey/register/*, then signs in through login/* alone', async () => {
    const user = await createUser(gateway.test);
    const { s } = await sessionWithAuthenticator();
    await s.page.goto('/login');
    const outcome = await s.page.evaluate(
      async ({ username, password }) => {
        // The classic console's helpers (web/classic/src/helpers/passkey.js): base64url <-> bytes around
        // navigator.credentials, options read from `data.options.publicKey`.
        const toBytes = (s: string) => {
          const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4);
          return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        };
        const toB64url = (b: ArrayBuffer) =>
          btoa(String.fromCharCode(...new Uint8Array(b)))
            .replace(/\+/g, '-')
            .replace(/\//g, '_')
            .replace(/=+$/, '');
        let userId = -1;
        const api = async (method: string, url: string, body?: unknown) => {
          const res = await fetch(url, {
            method,
            headers: { 'New-API-User': String(userId), 'Content-Type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the console reads these answers untyped
          return (await res.json()) as { success: boolean; message: string; data?: any };
        };
        const login = await api('POST', '/api/user/login?turnstile=', { username, password });
        userId = login.data.id;

        const regBegin = await api('POST', '/api/user/passkey/register/begin');
        const o = regBegin.data.options.publicKey;
        const created = (await navigator.credentials.create({
          publicKey: {
            ...o,
            challenge: toBytes(o.challenge),
            user: { ...o.user, id: toBytes(o.user.id) },
            excludeCredentials: (o.excludeCredentials ?? []).map((c: { id: string }) => ({ ...c, id: toBytes(c.id) })),
          },
        })) as PublicKeyCredential;
        const att = created.response as AuthenticatorAttestationResponse;
        const regFinish = await api('POST', '/api/user/passkey/register/finish', {
          id: created.id,
          rawId: toB64url(created.rawId),
          type: created.type,
          authenticatorAttachment: created.authenticatorAttachment,
          response: {
            attestationObject: toB64url(att.attestationObject),
            clientDataJSON: toB64url(att.clientDataJSON),
            transports: att.getTransports(),
          },
          clientExtensionResults: created.getClientExtensionResults(),
        });
        const statusAfterRegister = await api('GET', '/api/user/passkey');
        await api('GET', '/api/user/logout');
        userId = -1;

        const signIn = async () => {
          const begin = await api('POST', '/api/user/passkey/login/begin');
          const r = begin.data.options.publicKey;
          const got = (await navigator.credentials.get({
            publicKey: { ...r, challenge: toBytes(r.challenge) },
          })) as PublicKeyCredential;
          const a = got.response as AuthenticatorAssertionResponse;
          return api('POST', '/api/user/passkey/login/finish', {
            id: got.id,
            rawId: toB64url(got.rawId),
            type: got.type,
            authenticatorAttachment: got.authenticatorAttachment,
            response: {
              authenticatorData: toB64url(a.authenticatorData),
              clientDataJSON: toB64url(a.clientDataJSON),
              signature: toB64url(a.signature),
              userHandle: a.userHandle ? toB64url(a.userHandle) : null,
            },
            clientExtensionResults: got.getClientExtensionResults(),
          });
        };
        const first = await signIn();
        userId = first.data?.id ?? -1;
        const self = await api('GET', '/api/user/self');
        const removed = await api('DELETE', '/api/user/passkey');
        await api('GET', '/api/user/logout');
        userId = -1;
        const afterRemoval = await signIn();
        return { regFinish, statusAfterRegister, first, self: self.data?.username, removed, afterRemoval };
      },
      { username: user.username, password: user.password },
    );
    expect(outcome.regFinish).toEqual({ success: true, message: 'Passkey 注册成功' });
    expect(outcome.statusAfterRegister.data).toEqual({ enabled: true, last_used_at: null });
    expect(outcome.first).toMatchObject({ success: true, data: { id: user.id, username: user.username } });
    expect(outcome.self).toBe(user.username);
    expect(outcome.removed).toEqual({ success: true, message: 'Passkey 已解绑' });
    // A refusal comes in the reader's language (issue 45): this Chromium asks for en-US.
    expect(outcome.afterRemoval).toMatchObject({
      success: false,
      message: 'The passkey could not be verified; try again or contact the administrator',
    });
    expect(s.errors).toEqual([]);
    await s.context.close();
  });
});
