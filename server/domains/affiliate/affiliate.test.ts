import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { loginAs, setupRoot, trpcCaller } from '../../../test/users.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await setupRoot(t);
});
afterAll(() => t.close());

async function giveAffQuota(id: number, affQuota: number) {
  await t.deps.db
    .updateTable('users')
    .set({ aff_quota: affQuota, aff_history_quota: affQuota, aff_count: 3, quota: sql<number>`0` })
    .where('id', '=', id)
    .execute();
}

const balances = async (id: number) => {
  const r = await t.deps.db
    .selectFrom('users')
    .select(['quota', 'aff_quota'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { quota: Number(r.quota), aff_quota: Number(r.aff_quota) };
};

const transfer = (headers: Record<string, string>, quota: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/user/aff_transfer', headers, payload: { quota } });

describe('invite quota transfer', () => {
  it('refuses less than one unit, with the spec message', async () => {
    const { user, headers } = await loginAs(t);
    await giveAffQuota(user.id, 2_000_000);
    const res = await transfer(headers, 499_999);
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(false);
    expect(res.json().message).toMatch(/^划转金额最低为/);
    expect(res.json().message).toBe('划转金额最低为 $1');
    expect(await balances(user.id)).toEqual({ quota: 0, aff_quota: 2_000_000 });
  });

  it('moves invite quota into the balance with "划转成功"', async () => {
    const { user, headers } = await loginAs(t);
    await giveAffQuota(user.id, 2_000_000);
    const res = await transfer(headers, 500_000);
    expect(res.json()).toEqual({ success: true, message: '划转成功' });
    expect(await balances(user.id)).toEqual({ quota: 500_000, aff_quota: 1_500_000 });
  });

  it('refuses more than the invite balance', async () => {
    const { user, headers } = await loginAs(t);
    await giveAffQuota(user.id, 600_000);
    const res = await transfer(headers, 700_000);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: false, message: '邀请额度不足' });
    expect(await balances(user.id)).toEqual({ quota: 0, aff_quota: 600_000 });
  });

  it('is atomic: parallel transfers never spend the invite balance twice', async () => {
    const { user, headers } = await loginAs(t);
    await giveAffQuota(user.id, 1_000_000);
    const answers = await Promise.all(Array.from({ length: 6 }, () => transfer(headers, 500_000)));
    expect(answers.filter((a) => a.json().success)).toHaveLength(2);
    expect(await balances(user.id)).toEqual({ quota: 1_000_000, aff_quota: 0 });
  });

  it('refuses a non-integer quota', async () => {
    const { user, headers } = await loginAs(t);
    await giveAffQuota(user.id, 2_000_000);
    const res = await transfer(headers, 'lots');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: false, message: '划转额度必须是整数' });
    expect(await balances(user.id)).toEqual({ quota: 0, aff_quota: 2_000_000 });
  });

  it('affiliate.info gives a stable code, a link and the counters', async () => {
    await t.deps.services.options.update('ServerAddress', 'https://gw.example.com');
    const { user } = await loginAs(t);
    await giveAffQuota(user.id, 1_234);
    const caller = trpcCaller(t, { id: user.id, role: 1 });
    const a = await caller.affiliate.info();
    expect(a.aff_code).toMatch(/^[a-zA-Z0-9]{4,6}$/);
    expect(a.aff_link).toBe(`https://gw.example.com/register?aff=${a.aff_code}`);
    expect(a).toMatchObject({ aff_count: 3, aff_quota: 1_234, aff_history_quota: 1_234, min_transfer: 500_000 });
    expect((await caller.affiliate.info()).aff_code).toBe(a.aff_code);
    await expect(caller.affiliate.transfer({ quota: 1 })).rejects.toThrow('划转金额最低为');
  });
});
