import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { insertToken, insertUser } from '../../../test/relay-fixtures.ts';
import { reserveMany, reserveQuota } from './reserve.service.ts';
import { settleMany } from './settle.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const balances = async (userId: number, tokenId: number) => {
  const u = await t.deps.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const k = await t.deps.db.selectFrom('tokens').selectAll().where('id', '=', tokenId).executeTakeFirstOrThrow();
  return {
    quota: Number(u.quota),
    used: Number(u.used_quota),
    count: Number(u.request_count),
    remain: Number(k.remain_quota),
    tokenUsed: Number(k.used_quota),
  };
};

describe('batched settlement', () => {
  it('refunds, takes extra, clamps at zero and reports each request in order', async () => {
    const user = await insertUser(t.deps, { quota: 1000 });
    const token = await insertToken(t.deps, user.id, { remainQuota: 1000 });
    const payer = { userId: user.id, tokenId: token.id, unlimitedToken: false };
    const a = await reserveQuota(t.deps.db, payer, 300);
    const b = await reserveQuota(t.deps.db, payer, 200);
    const c = await reserveQuota(t.deps.db, payer, 100);
    // 400 left. a: 250 of 300 (refund 50 -> 450 left); b: 500 of 200 (takes 300 -> 150); c: 400 of 100 (150 left -> shortfall 150).
    const out = await settleMany(t.deps.db, [
      { reservation: a, finalQuota: 250, channelId: 0 },
      { reservation: b, finalQuota: 500, channelId: 0 },
      { reservation: c, finalQuota: 400, channelId: 0 },
    ]);
    expect(out.map((s) => s.charged)).toEqual([250, 500, 250]);
    expect(out.map((s) => s.shortfall)).toEqual([0, 0, 150]);
    expect(out.map((s) => s.userQuotaAfter)).toEqual([450, 150, 0]);
    expect(await balances(user.id, token.id)).toEqual({ quota: 0, used: 1000, count: 3, remain: 0, tokenUsed: 1000 });
    expect(await t.deps.db.selectFrom('quota_reservations').selectAll().execute()).toHaveLength(0);
  });

  it('writes each log row in the settlement transaction, with the charged quota, and none if it rolls back', async () => {
    const user = await insertUser(t.deps, { quota: 1000 });
    const token = await insertToken(t.deps, user.id, { remainQuota: 1000 });
    const payer = { userId: user.id, tokenId: token.id, unlimitedToken: false };
    const row = (s: { charged: number }) => ({
      user_id: user.id,
      created_at: Math.floor(Date.now() / 1000),
      type: 2,
      content: 'settled',
      quota: s.charged,
    });
    const a = await reserveQuota(t.deps.db, payer, 300);
    const [s] = await settleMany(t.deps.db, [
      { reservation: a, finalQuota: 120, channelId: 0, log: row, insertLog: true },
    ]);
    expect(s.log?.quota).toBe(120);
    const logs = () => t.deps.db.selectFrom('logs').select('quota').where('user_id', '=', user.id).execute();
    expect((await logs()).map((l) => Number(l.quota))).toEqual([120]);

    // A row that cannot be written (a NOT NULL column missing) rolls the charge back with it.
    const b = await reserveQuota(t.deps.db, payer, 100);
    const broken = () => ({ ...row({ charged: 100 }), type: null as unknown as number });
    await expect(
      settleMany(t.deps.db, [{ reservation: b, finalQuota: 100, channelId: 0, log: broken, insertLog: true }]),
    ).rejects.toThrow();
    expect(await logs()).toHaveLength(1);
    expect(await balances(user.id, token.id)).toMatchObject({ quota: 780, used: 120, remain: 780 });
    expect(await t.deps.db.selectFrom('quota_reservations').select('id').where('id', '=', b.id).execute()).toHaveLength(
      1,
    );
  });
});

describe('batched reservation', () => {
  it('reserves a batch in one go, each request with its own reservation row', async () => {
    const user = await insertUser(t.deps, { quota: 1000 });
    const token = await insertToken(t.deps, user.id, { remainQuota: 300 });
    const payer = { userId: user.id, tokenId: token.id, unlimitedToken: false };
    const got = await reserveMany(t.deps.db, [
      { payer, quota: 100 },
      { payer, quota: 150 },
    ]);
    expect(got?.map((r) => r.quota)).toEqual([100, 150]);
    expect(await balances(user.id, token.id)).toMatchObject({ quota: 750, remain: 50 });
    const rows = await t.deps.db
      .selectFrom('quota_reservations')
      .select(['id', 'quota'])
      .where('user_id', '=', user.id)
      .execute();
    expect(rows.map((r) => [r.id, Number(r.quota)]).sort()).toEqual(got!.map((r) => [r.id, r.quota]).sort());
    // A batch whose sum does not fit keeps nothing (the queue then reserves one by one).
    expect(
      await reserveMany(t.deps.db, [
        { payer, quota: 30 },
        { payer, quota: 30 },
      ]),
    ).toBeNull();
    expect(await balances(user.id, token.id)).toMatchObject({ quota: 750, remain: 50 });
  });
});
