import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType, Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createUser, login, loginAs, restHeaders, setupRoot, trpcCaller } from '../../../test/users.ts';

describe('redeeming codes', () => {
  let t: TestApp;
  let admin: Record<string, string>;

  const makeCode = async (body: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/redemption/',
      headers: admin,
      payload: { name: 'code', quota: 500000, count: 1, ...body },
    });
    const keys = res.json().data as string[];
    return keys[0];
  };
  const redeem = (headers: Record<string, string>, key: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/user/topup', headers, payload: { key } });
  const quotaOf = async (id: number) =>
    (await t.deps.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota;
  const codeRow = (key: string) =>
    t.deps.db.selectFrom('redemptions').selectAll().where('key', '=', key).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestApp();
    await setupRoot(t);
    admin = (await loginAs(t, Role.Admin)).headers;
  });
  afterAll(() => t.close());

  it('credits the quota once, marks the code used and writes a top-up log', async () => {
    const { user, headers } = await loginAs(t);
    const before = await quotaOf(user.id);
    const key = await makeCode({ quota: 500000 });
    const changes: (string | undefined)[] = [];
    const off = t.deps.bus.subscribe('users', (p) => changes.push(p));

    const res = await redeem(headers, key);
    off();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: '', data: 500000 });
    expect(await quotaOf(user.id)).toBe(before + 500000);
    expect(changes).toContain(String(user.id));
    expect(await codeRow(key)).toMatchObject({ status: 3, used_user_id: user.id, used_count: 1 });

    const log = await t.deps.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('type', '=', LogType.TopUp)
      .executeTakeFirstOrThrow();
    expect(log.quota).toBe(500000);
    expect(log.content).toBe('通过兑换码充值 $1.000000 额度');

    const again = await redeem(headers, key);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ success: false, message: '该兑换码已被使用' });
    expect(await quotaOf(user.id)).toBe(before + 500000);
  });

  it('refuses empty, unknown, disabled, not-yet-valid and expired codes', async () => {
    const { user, headers } = await loginAs(t);
    expect((await redeem(headers, '')).json().message).toBe('请输入兑换码');
    expect((await redeem(headers, undefined)).json().message).toBe('请输入兑换码');
    expect((await redeem(headers, 'no-such-code')).json().message).toBe('无效的兑换码');

    const disabledKey = await makeCode({});
    const { id } = await codeRow(disabledKey);
    await t.app.inject({
      method: 'PUT',
      url: '/api/redemption/?status_only=true',
      headers: admin,
      payload: { id, status: 2 },
    });
    expect((await redeem(headers, disabledKey)).json().message).toBe('无效的兑换码');

    const now = Math.floor(Date.now() / 1000);
    const future = await makeCode({ valid_from: now + 3600 });
    expect((await redeem(headers, future)).json().message).toBe('该兑换码尚未生效');
    const past = await makeCode({ valid_from: now - 7200, valid_until: now - 3600 });
    expect((await redeem(headers, past)).json().message).toBe('该兑换码已过期');
    const open = await makeCode({ valid_from: now - 60, valid_until: now + 3600, quota: 7 });
    expect((await redeem(headers, open)).json().data).toBe(7);
    expect(await quotaOf(user.id)).toBeGreaterThanOrEqual(7);
  });

  it('makes a user wait after 20 wrong codes (guessing), while valid codes were never counted', async () => {
    const { headers } = await loginAs(t);
    for (let i = 0; i < 20; i++) {
      const res = await redeem(headers, `guess-${i}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: false, message: '无效的兑换码' });
    }
    const key = await makeCode({ quota: 1 });
    const blocked = await redeem(headers, key);
    // A 429 goes out with an empty body, as new-api's limiter sends it (api-contract §0.1).
    expect(blocked.statusCode).toBe(429);
    expect(blocked.body).toBe('');
    expect((await codeRow(key)).status).toBe(1);
    // Another user is not affected.
    const other = await redeem((await loginAs(t)).headers, key);
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual({ success: true, message: '', data: 1 });
  });

  it('lets each user use a gift code once, up to max_uses', async () => {
    const key = await makeCode({ is_gift: true, max_uses: 2, quota: 1000 });
    const a = await loginAs(t);
    const b = await loginAs(t);
    const c = await loginAs(t);
    expect((await redeem(a.headers, key)).json().data).toBe(1000);
    const twice = await redeem(a.headers, key);
    expect(twice.statusCode).toBe(200);
    expect(twice.json()).toEqual({ success: false, message: '您已经使用过该兑换码' });
    expect((await redeem(b.headers, key)).json().data).toBe(1000);
    expect((await redeem(c.headers, key)).json().message).toBe('该兑换码已被使用');
    // An exhausted gift code stays "unused" (the console greys it out by used_count).
    expect(await codeRow(key)).toMatchObject({ status: 1, used_count: 2, max_uses: 2 });

    const unlimited = await makeCode({ is_gift: true, max_uses: -1, quota: 5 });
    for (const u of [a, b, c]) expect((await redeem(u.headers, unlimited)).json().data).toBe(5);
    expect((await codeRow(unlimited)).used_count).toBe(3);
  });

  it('answers quota and is_gift over tRPC', async () => {
    const user = await createUser(t);
    const key = await makeCode({ is_gift: true, quota: 33 });
    const result = await trpcCaller(t, { id: user.id, username: user.username, role: Role.Common }).wallet.redeem({
      key,
    });
    expect(result).toEqual({ quota: 33, is_gift: true });
  });

  describe('under real parallel HTTP', () => {
    let base: string;
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });

    const post = (headers: Record<string, string>, key: string) =>
      fetch(`${base}/api/user/topup`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ key }),
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { success: boolean; message: string; data?: number },
      }));

    it('a single-use code redeemed by 50 parallel requests succeeds exactly once', async () => {
      const users = await Promise.all(Array.from({ length: 10 }, () => createUser(t)));
      const sessions = await Promise.all(users.map((u) => login(t, u.username, u.password)));
      const before = await Promise.all(users.map((u) => quotaOf(u.id)));
      const key = await makeCode({ quota: 123456 });

      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => post(restHeaders(sessions[i % sessions.length]), key)),
      );
      expect(results.filter((r) => r.body.success)).toHaveLength(1);
      const losers = results.filter((r) => !r.body.success);
      expect(losers.every((r) => r.status === 200 && r.body.message === '该兑换码已被使用')).toBe(true);

      const after = await Promise.all(users.map((u) => quotaOf(u.id)));
      const gained = after.reduce((sum, q, i) => sum + q - before[i], 0);
      expect(gained).toBe(123456);
      expect((await codeRow(key)).used_count).toBe(1);
      const logs = await t.deps.db
        .selectFrom('logs')
        .select('id')
        .where('type', '=', LogType.TopUp)
        .where('quota', '=', 123456)
        .execute();
      expect(logs).toHaveLength(1);
    });

    it('a gift code hit in parallel honours max_uses and once per user', async () => {
      const users = await Promise.all(Array.from({ length: 8 }, () => createUser(t)));
      const sessions = await Promise.all(users.map((u) => login(t, u.username, u.password)));
      const key = await makeCode({ is_gift: true, max_uses: 3, quota: 777 });
      // Every user fires three requests at once.
      const results = await Promise.all(
        Array.from({ length: 24 }, (_, i) => post(restHeaders(sessions[i % sessions.length]), key)),
      );
      expect(results.filter((r) => r.body.success)).toHaveLength(3);
      const uses = await t.deps.db
        .selectFrom('redemption_uses')
        .select('user_id')
        .where('redemption_id', '=', (await codeRow(key)).id)
        .execute();
      expect(new Set(uses.map((u) => u.user_id)).size).toBe(3);
      expect((await codeRow(key)).used_count).toBe(3);
    });
  });
});
