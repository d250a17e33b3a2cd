import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Role, UserStatus } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createUser, setOption, setupRoot } from '../../../test/users.ts';
import type { AppError } from '../../errors.ts';
import { softAuthenticator } from './passkeys.fixtures.ts';
import type { CeremonySite } from './passkeys.service.ts';

/*
 * The passkey rules through the real service, database and WebAuthn library, with a software authenticator
 * (real ES256 signatures): challenges are single use, short-lived and bound to one browser; the counter only
 * moves forward; a disabled user cannot sign in; the relying party follows ServerAddress and the options.
 */

let t: TestApp;
const ORIGIN = 'http://localhost:3000';
const site = (flow = 'browser-a', origin = ORIGIN): CeremonySite => ({ flow, origin });
const svc = () => t.deps.services.passkeys;

/** The refusal's message code, or 'ok'. */
async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return (e as AppError).messageCode ?? String(e);
  }
}

/** A user with a passkey registered from browser `flow`. */
async function withPasskey(auth = softAuthenticator(), flow = 'browser-a') {
  const user = await createUser(t);
  const options = await svc().registerBegin(user.id, site(flow));
  await svc().registerFinish(user.id, site(flow), auth.create(options, ORIGIN) as never);
  return { user, auth };
}

async function signIn(auth: ReturnType<typeof softAuthenticator>, flow = 'browser-a', origin = ORIGIN) {
  const options = await svc().loginBegin(site(flow, origin));
  return svc().loginFinish(site(flow, origin), auth.get(options, origin) as never);
}

beforeAll(async () => {
  t = await createTestApp();
  await setupRoot(t);
});
afterAll(() => t.close());
beforeEach(async () => {
  await setOption(t, 'passkey.enabled', 'true');
  await setOption(t, 'ServerAddress', '');
  await setOption(t, 'passkey.origins', '');
  await setOption(t, 'passkey.rp_id', '');
  await setOption(t, 'passkey.allow_insecure_origin', 'false');
});

describe('registration and sign-in', () => {
  it('registers a discoverable passkey for the user and signs in with it alone, recording the use', async () => {
    const { user, auth } = await withPasskey();
    const row = await svc().status(user.id);
    expect(row).toMatchObject({ user_id: user.id, transports: '["internal"]', last_used_at: null, sign_count: 0 });
    const signedIn = await signIn(auth);
    expect(signedIn).toMatchObject({ id: user.id, username: user.username });
    const used = await svc().status(user.id);
    expect(Number(used!.sign_count)).toBe(1);
    expect(used!.last_used_at).toBeGreaterThan(0);
  });

  it('the user handle is the user id as text, as new-api writes it', async () => {
    const user = await createUser(t);
    const options = await svc().registerBegin(user.id, site());
    expect(Buffer.from(options.user.id, 'base64url').toString()).toBe(String(user.id));
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'preferred' });
    expect(options.rp).toEqual({ name: 'Switchyard', id: 'localhost' });
  });

  it('a second registration replaces the first passkey (one per user), and lists it to exclude', async () => {
    const { user, auth } = await withPasskey();
    const first = (await svc().status(user.id))!.credential_id;
    const options = await svc().registerBegin(user.id, site());
    expect(options.excludeCredentials?.map((c) => c.id)).toEqual([first]);
    await svc().registerFinish(user.id, site(), auth.create(options, ORIGIN) as never);
    const second = (await svc().status(user.id))!.credential_id;
    expect(second).not.toBe(first);
    const rows = await t.deps.db.selectFrom('passkey_credentials').where('user_id', '=', user.id).selectAll().execute();
    expect(rows).toHaveLength(1);
  });

  it('nothing works while the site has passkeys off', async () => {
    const { user, auth } = await withPasskey();
    await setOption(t, 'passkey.enabled', 'false');
    expect(await outcome(svc().loginBegin(site()))).toBe('passkey.disabled');
    expect(await outcome(svc().registerBegin(user.id, site()))).toBe('passkey.disabled');
    await setOption(t, 'passkey.enabled', 'true');
    expect(await outcome(signIn(auth))).toBe('ok');
  });
});

describe('challenges', () => {
  it('are single use: the same answer sent twice is refused the second time', async () => {
    const { auth } = await withPasskey();
    const options = await svc().loginBegin(site());
    const answer = auth.get(options, ORIGIN);
    expect(await outcome(svc().loginFinish(site(), answer as never))).toBe('ok');
    expect(await outcome(svc().loginFinish(site(), answer as never))).toBe('passkey.challenge_missing');
  });

  it('are bound to the browser that asked: another browser cannot answer it', async () => {
    const { auth } = await withPasskey();
    const options = await svc().loginBegin(site('browser-a'));
    const answer = auth.get(options, ORIGIN);
    expect(await outcome(svc().loginFinish(site('browser-b'), answer as never))).toBe('passkey.challenge_missing');
  });

  it('expire after two minutes', async () => {
    const { auth } = await withPasskey();
    const options = await svc().loginBegin(site());
    await t.deps.db.updateTable('passkey_challenges').set({ expires_at: 1 }).execute();
    expect(await outcome(svc().loginFinish(site(), auth.get(options, ORIGIN) as never))).toBe(
      'passkey.challenge_missing',
    );
  });

  it('an answer signed over another challenge, or for another origin, is refused', async () => {
    const { auth } = await withPasskey();
    const stale = await svc().loginBegin(site());
    await svc().loginBegin(site()); // a newer begin replaces the challenge this browser holds
    expect(await outcome(svc().loginFinish(site(), auth.get(stale, ORIGIN) as never))).toBe('passkey.verify_failed');
    const options = await svc().loginBegin(site());
    expect(await outcome(svc().loginFinish(site(), auth.get(options, 'http://localhost:4000') as never))).toBe(
      'passkey.verify_failed',
    );
  });
});

describe('who may sign in', () => {
  it('a disabled user is refused, and signs in again once enabled', async () => {
    const { user, auth } = await withPasskey();
    await t.deps.db.updateTable('users').set({ status: UserStatus.Disabled }).where('id', '=', user.id).execute();
    expect(await outcome(signIn(auth))).toBe('auth.user_banned');
    await t.deps.db.updateTable('users').set({ status: UserStatus.Enabled }).where('id', '=', user.id).execute();
    expect(await outcome(signIn(auth))).toBe('ok');
  });

  it('a removed passkey signs nobody in', async () => {
    const { user, auth } = await withPasskey();
    await svc().remove(user.id);
    expect(await svc().status(user.id)).toBeUndefined();
    expect(await outcome(signIn(auth))).toBe('passkey.verify_failed');
  });

  it('the counter only moves forward: a cloned authenticator behind the stored count is refused', async () => {
    const { auth } = await withPasskey();
    await signIn(auth);
    await signIn(auth);
    auth.credentials[0]!.counter = 0; // the clone's count is behind: its next answer says 1, stored is 2
    expect(await outcome(signIn(auth))).toBe('passkey.verify_failed');
  });

  it('an authenticator that does not count (always 0) keeps working', async () => {
    const { auth } = await withPasskey(softAuthenticator({ counts: false }));
    expect(await outcome(signIn(auth))).toBe('ok');
    expect(await outcome(signIn(auth))).toBe('ok');
  });

  it('required user verification refuses an authenticator that did not verify the user', async () => {
    const { auth } = await withPasskey(softAuthenticator({ userVerified: false }));
    expect(await outcome(signIn(auth))).toBe('ok');
    await setOption(t, 'passkey.user_verification', 'required');
    expect(await outcome(signIn(auth))).toBe('passkey.verify_failed');
    await setOption(t, 'passkey.user_verification', 'preferred');
  });
});

describe('the relying party', () => {
  it('follows ServerAddress, then the passkey options', async () => {
    const user = await createUser(t);
    await setOption(t, 'ServerAddress', 'https://gw.example.com/console');
    expect((await svc().registerBegin(user.id, site())).rp.id).toBe('gw.example.com');
    await setOption(t, 'passkey.rp_id', 'example.com');
    await setOption(t, 'passkey.rp_display_name', 'Example AI');
    expect((await svc().registerBegin(user.id, site())).rp).toEqual({ id: 'example.com', name: 'Example AI' });
  });

  it('refuses plain http except on localhost, unless the admin allows it', async () => {
    const user = await createUser(t);
    const lan = site('browser-a', 'http://192.168.1.5:3000');
    expect(await outcome(svc().registerBegin(user.id, lan))).toBe('passkey.https_required');
    await setOption(t, 'passkey.origins', 'http://192.168.1.5:3000');
    expect(await outcome(svc().registerBegin(user.id, lan))).toBe('passkey.insecure_origin');
    await setOption(t, 'passkey.allow_insecure_origin', 'true');
    expect(await outcome(svc().registerBegin(user.id, lan))).toBe('ok');
  });
});

describe('verification of a signed-in user and admin reset', () => {
  it('a passkey verification leaves a one-time mark for this browser and user only', async () => {
    const { user, auth } = await withPasskey();
    const options = await svc().verifyBegin(user.id, site());
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([(await svc().status(user.id))!.credential_id]);
    await svc().verifyFinish(user.id, site(), auth.get(options, ORIGIN) as never);
    expect(await svc().consumeVerified(user.id, 'browser-b')).toBe(false);
    expect(await svc().consumeVerified(user.id + 1, 'browser-a')).toBe(false);
    await svc().verifyFinish(user.id, site(), auth.get(await svc().verifyBegin(user.id, site()), ORIGIN) as never);
    expect(await svc().consumeVerified(user.id, 'browser-a')).toBe(true);
    expect(await svc().consumeVerified(user.id, 'browser-a')).toBe(false);
  });

  it('POST /api/verify with method passkey passes once after a passkey verification, and needs a passkey', async () => {
    const { user, auth } = await withPasskey();
    expect(await outcome(svc().confirmVerified(user.id, 'browser-a'))).toBe('passkey.verify_failed');
    await svc().verifyFinish(user.id, site(), auth.get(await svc().verifyBegin(user.id, site()), ORIGIN) as never);
    expect(await outcome(svc().confirmVerified(user.id, 'browser-a'))).toBe('ok');
    expect(await outcome(svc().confirmVerified(user.id, 'browser-a'))).toBe('passkey.verify_failed');
    const nobody = await createUser(t);
    expect(await outcome(svc().confirmVerified(nobody.id, 'browser-a'))).toBe('passkey.not_registered');
  });

  it('another user’s passkey cannot verify me', async () => {
    const me = await withPasskey(softAuthenticator(), 'browser-a');
    const other = await withPasskey(softAuthenticator(), 'browser-a');
    const options = await svc().verifyBegin(me.user.id, site());
    const foreign = other.auth.get({ ...options, allowCredentials: [] }, ORIGIN);
    expect(await outcome(svc().verifyFinish(me.user.id, site(), foreign as never))).toBe('passkey.verify_failed');
  });

  it('an admin resets a common user’s passkey but not an admin’s; root may', async () => {
    const admin = await createUser(t, { role: Role.Admin });
    const { user } = await withPasskey();
    const { user: otherAdmin } = await withPasskey();
    await t.deps.db.updateTable('users').set({ role: Role.Admin }).where('id', '=', otherAdmin.id).execute();
    const asAdmin = { id: admin.id, role: Role.Admin };
    expect(await outcome(svc().adminReset(asAdmin, otherAdmin.id))).toBe('user.outranked');
    expect(await outcome(svc().adminReset(asAdmin, user.id))).toBe('ok');
    expect(await outcome(svc().adminReset(asAdmin, user.id))).toBe('passkey.not_registered');
    expect(await outcome(svc().adminReset({ id: 1, role: Role.Root }, otherAdmin.id))).toBe('ok');
  });
});
