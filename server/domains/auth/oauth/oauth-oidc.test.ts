import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app.ts';
import { type LocalOp, startOp } from '../../../../test/signin/openid-provider.ts';
import { loginAs, randomIp, setOption, setupRoot } from '../../../../test/users.ts';

/* OIDC against a real OpenID Provider on loopback: discovery, sign-up, login, binding, forged state. */

const REDIRECT = 'http://gw.test/oauth/oidc';
let t: TestApp;
let op: LocalOp;
let authorizationEndpoint = '';

beforeAll(async () => {
  t = await createTestApp();
  await setupRoot(t);
  op = await startOp({ id: 'switchyard', secret: 'op-secret-123', redirectUri: REDIRECT });
  await setOption(t, 'ServerAddress', 'http://gw.test');
  await setOption(t, 'oidc.client_id', 'switchyard');
  await setOption(t, 'oidc.client_secret', 'op-secret-123');
  await setOption(t, 'oidc.well_known', op.wellKnown);
  await setOption(t, 'oidc.enabled', 'true');
  // What the settings page fills in from the well-known document for the console's button.
  authorizationEndpoint = ((await (await fetch(op.wellKnown)).json()) as { authorization_endpoint: string })
    .authorization_endpoint;
  await setOption(t, 'oidc.authorization_endpoint', authorizationEndpoint);
  await setOption(t, 'QuotaForNewUser', '500');
  await setOption(t, 'QuotaForInvitee', '70');
  await setOption(t, 'QuotaForInviter', '30');
});
afterAll(async () => {
  await op.close();
  await t.close();
});

const cookiesOf = (setCookie: string | string[] | undefined) =>
  (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []).map((c) => c.split(';')[0]).join('; ');

/** The console's part: ask for a state, send the browser to the provider, come back with code and state. */
async function signIn(opts: { aff?: string; cookie?: string; tamper?: (s: string) => string } = {}) {
  const stateRes = await t.app.inject({
    method: 'GET',
    url: `/api/oauth/state${opts.aff ? `?aff=${opts.aff}` : ''}`,
    headers: opts.cookie ? { cookie: opts.cookie } : {},
  });
  const state = stateRes.json().data as string;
  expect(state).toMatch(/^[A-Za-z0-9]{12}$/);
  const url = new URL(authorizationEndpoint);
  url.search = new URLSearchParams({
    client_id: 'switchyard',
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'openid profile email',
    state,
  }).toString();
  const back = await op.authorize(url.toString());
  expect(back.state).toBe(state);
  const cookie = [opts.cookie, cookiesOf(stateRes.headers['set-cookie'])].filter(Boolean).join('; ');
  const sentState = opts.tamper ? opts.tamper(back.state) : back.state;
  return t.app.inject({
    method: 'GET',
    url: `/api/oauth/oidc?code=${encodeURIComponent(back.code)}&state=${encodeURIComponent(sentState)}`,
    headers: { cookie },
    remoteAddress: randomIp(),
  });
}

describe('OIDC sign-in', () => {
  it('signs up a first-time user through discovery, with the invite rewards, then logs the same user in', async () => {
    const inviter = await loginAs(t);
    const aff = (
      await t.deps.db.selectFrom('users').select('aff_code').where('id', '=', inviter.user.id).executeTakeFirstOrThrow()
    ).aff_code as string;
    op.nextAccount = { sub: 'alice-sub', email: 'alice@idp.test', name: 'Alice' };
    const first = await signIn({ aff });
    expect(first.statusCode).toBe(200);
    const user = first.json().data as { id: number; username: string; display_name: string };
    expect(user.username).toMatch(/^oidc_\d+$/);
    expect(user.display_name).toBe('Alice');
    expect(cookiesOf(first.headers['set-cookie'])).toContain('session=');
    const row = await t.deps.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      oidc_id: 'alice-sub',
      email: 'alice@idp.test',
      quota: 570,
      inviter_id: inviter.user.id,
    });
    const inviterRow = await t.deps.db
      .selectFrom('users')
      .select('aff_quota')
      .where('id', '=', inviter.user.id)
      .executeTakeFirstOrThrow();
    expect(inviterRow.aff_quota).toBe(30);

    const again = await signIn();
    expect(again.json()).toMatchObject({ success: true, data: { id: user.id } });
  });

  it('binds the provider account to the signed-in user (message "bind")', async () => {
    const { user, headers } = await loginAs(t);
    op.nextAccount = { sub: 'bob-sub', name: 'Bob' };
    const res = await signIn({ cookie: headers.cookie });
    expect(res.json()).toEqual({ success: true, message: 'bind' });
    const row = await t.deps.db
      .selectFrom('users')
      .select('oidc_id')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.oidc_id).toBe('bob-sub');

    // Another user cannot take the same provider account.
    const other = await loginAs(t);
    const taken = await signIn({ cookie: other.headers.cookie });
    expect(taken.json()).toMatchObject({ success: false });
  });

  it('rejects a forged state with HTTP 403', async () => {
    op.nextAccount = { sub: 'mallory-sub' };
    const res = await signIn({ tamper: () => 'forgedState1' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false });
    const nobody = await t.deps.db
      .selectFrom('users')
      .select('id')
      .where('oidc_id', '=', 'mallory-sub')
      .executeTakeFirst();
    expect(nobody).toBeUndefined();
  });
});
