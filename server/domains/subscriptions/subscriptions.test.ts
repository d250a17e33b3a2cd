import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType, Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createUser, loginAs, setOption, setupRoot, trpcCaller } from '../../../test/users.ts';
import { epaySign } from '../topup/epay.rules.ts';

/*
 * Subscription plans end to end below the relay: an admin's plans, buying through the Epay gateway
 * (the notice completing an order once) or from the balance, an admin's grant, and the role rules.
 * The relay's side (which pool pays, resets, races) is subscription-billing.test.ts.
 */

const EPAY_KEY = 'merchant-secret-key';
let t: TestApp;
let rootId = 0;
const root = () => trpcCaller(t, { id: rootId, role: Role.Root });
const plan = (over: Record<string, unknown> = {}) => ({
  title: 'Starter',
  price_amount: 10,
  total_amount: 500_000,
  duration_unit: 'month',
  duration_value: 1,
  quota_reset_period: 'never',
  ...over,
});
const inject = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, payload });
const logsOf = (userId: number) =>
  t.deps.db.selectFrom('logs').selectAll().where('user_id', '=', userId).orderBy('id').execute();
const subsOf = (userId: number) =>
  t.deps.db.selectFrom('user_subscriptions').selectAll().where('user_id', '=', userId).execute();
const quotaOf = async (id: number) =>
  Number((await t.deps.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota);

beforeAll(async () => {
  t = await createTestApp();
  rootId = (await setupRoot(t)).id;
});
afterAll(() => t.close());

describe('plans (admin)', () => {
  it('creates, edits and switches a plan; users see only enabled ones, wrapped as {plan}', async () => {
    const { headers: admin } = await loginAs(t, Role.Admin);
    const { headers: user } = await loginAs(t);
    const created = (await inject('POST', '/api/subscription/admin/plans', admin, { plan: plan() })).json();
    expect(created).toMatchObject({
      success: true,
      data: { plan: { title: 'Starter', enabled: true, currency: 'USD' } },
    });
    const id = created.data.plan.id as number;
    const put = await inject('PUT', `/api/subscription/admin/plans/${id}`, admin, {
      plan: plan({ title: 'Starter+', sort_order: 5 }),
    });
    expect(put.json()).toEqual({ success: true, message: '', data: null });
    const listed = (await inject('GET', '/api/subscription/plans', user)).json();
    expect(listed.data.find((p: { plan: { id: number } }) => p.plan.id === id).plan).toMatchObject({
      title: 'Starter+',
      sort_order: 5,
      total_amount: 500_000,
    });
    expect(
      (await inject('PATCH', `/api/subscription/admin/plans/${id}`, admin, { enabled: false })).json().success,
    ).toBe(true);
    const after = (await inject('GET', '/api/subscription/plans', user)).json().data as { plan: { id: number } }[];
    expect(after.map((p) => p.plan.id)).not.toContain(id);
    const all = (await inject('GET', '/api/subscription/admin/plans', admin)).json().data as { plan: { id: number } }[];
    expect(all.map((p) => p.plan.id)).toContain(id);
  });

  it("refuses new-api's invalid plans with its words, and users cannot write plans", async () => {
    const { headers: admin } = await loginAs(t, Role.Admin);
    const post = async (p: object) =>
      (await inject('POST', '/api/subscription/admin/plans', admin, { plan: p })).json();
    expect(await post(plan({ title: ' ' }))).toMatchObject({ success: false, message: '套餐标题不能为空' });
    expect(await post(plan({ price_amount: -1 }))).toMatchObject({ success: false, message: '价格不能为负数' });
    expect(await post(plan({ upgrade_group: 'nope' }))).toMatchObject({ success: false, message: '升级分组不存在' });
    expect(await post(plan({ quota_reset_period: 'custom' }))).toMatchObject({
      success: false,
      message: '自定义重置周期需大于0秒',
    });
    const { headers: user } = await loginAs(t);
    // new-api's refusal of a role: HTTP 200, success false (api-contract §0.1).
    const refused = (
      await inject('POST', '/api/subscription/admin/plans', user, { plan: plan({ title: 'x' }) })
    ).json();
    expect(refused).toMatchObject({ success: false, message: '无权进行此操作，权限不足' });
  });
});

describe('buying a plan', () => {
  const enablePayment = async () => {
    await setOption(t, 'ServerAddress', 'https://gw.example.com');
    await setOption(t, 'PayAddress', 'https://pay.example.com/');
    await setOption(t, 'EpayId', '1001');
    await setOption(t, 'EpayKey', EPAY_KEY);
  };
  const signed = (p: Record<string, string>) => ({ ...p, sign: epaySign(p, EPAY_KEY), sign_type: 'MD5' });

  it('through Epay: a signed form, then one subscription however often the gateway notifies', async () => {
    await enablePayment();
    const p = await root().subscriptionAdmin.create(plan({ title: 'Monthly', max_purchase_per_user: 1 }) as never);
    const { user, headers } = await loginAs(t);
    const wallet = await quotaOf(user.id);
    const res = (
      await inject('POST', '/api/subscription/epay/pay', headers, { plan_id: p.id, payment_method: 'alipay' })
    ).json();
    expect(res).not.toHaveProperty('success');
    expect(res).toMatchObject({ message: 'success', url: 'https://pay.example.com/submit.php' });
    const form = res.data as Record<string, string>;
    expect(form).toMatchObject({
      pid: '1001',
      type: 'alipay',
      money: '10.00',
      name: 'SUB:Monthly',
      notify_url: 'https://gw.example.com/api/subscription/epay/notify',
      return_url: 'https://gw.example.com/api/subscription/epay/return',
    });
    expect(form.sign).toBe(epaySign(form, EPAY_KEY));

    const notice = signed({
      pid: '1001',
      out_trade_no: form.out_trade_no,
      trade_no: 'GW1',
      trade_status: 'TRADE_SUCCESS',
      money: '10.00',
      type: 'alipay',
    });
    const forged = { ...notice, money: '0.01' };
    expect((await inject('GET', `/api/subscription/epay/notify?${new URLSearchParams(forged)}`)).body).toBe('fail');
    for (let i = 0; i < 3; i++)
      expect((await inject('GET', `/api/subscription/epay/notify?${new URLSearchParams(notice)}`)).body).toBe(
        'success',
      );
    const back = await inject('GET', `/api/subscription/epay/return?${new URLSearchParams(notice)}`);
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('https://gw.example.com/app/wallet?pay=success');

    const subs = await subsOf(user.id);
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ status: 'active', source: 'order', amount_total: 500_000, amount_used: 0 });
    // The ledger: one grant line (the period's quota), the payment in the top-up history, the wallet untouched.
    const grants = (await logsOf(user.id)).filter((l) => l.type === LogType.TopUp);
    expect(grants).toHaveLength(1);
    expect(Number(grants[0].quota)).toBe(500_000);
    expect(grants[0].content).toContain('订阅购买成功，套餐: Monthly');
    const paid = await t.deps.db.selectFrom('top_ups').selectAll().where('trade_no', '=', form.out_trade_no).execute();
    expect(paid).toMatchObject([{ amount: 0, money: 10, status: 'success' }]);
    expect(await quotaOf(user.id)).toBe(wallet);

    const self = (await inject('GET', '/api/subscription/self', headers)).json().data;
    expect(self.billing_preference).toBe('subscription_first');
    expect(self.subscriptions).toHaveLength(1);
    expect(self.subscriptions[0]).toMatchObject({ plan_title: 'Monthly', subscription: { plan_id: p.id } });

    // max_purchase_per_user 1: a second order is refused before the gateway.
    const again = (
      await inject('POST', '/api/subscription/epay/pay', headers, { plan_id: p.id, payment_method: 'alipay' })
    ).json();
    expect(again).toEqual({ message: 'error', data: '已达到该套餐购买上限' });
  });

  it('Stripe and Creem answer that Switchyard does not take them, in the shape the console reads', async () => {
    const { headers } = await loginAs(t);
    for (const path of ['/api/subscription/stripe/pay', '/api/subscription/creem/pay']) {
      const res = (await inject('POST', path, headers, { plan_id: 1 })).json();
      expect(res.message).toBe('error');
      expect(res.data).toMatch(/^Switchyard 未接入 (Stripe|Creem) 支付/);
    }
  });

  it('from the balance: the price leaves the wallet in the same step that grants the plan, or nothing happens', async () => {
    const p = await root().subscriptionAdmin.create(plan({ title: 'Balance', price_amount: 2 }) as never);
    const rich = await createUser(t, { quota: 5_000_000 });
    const poor = await createUser(t, { quota: 999_999 });
    const me = (u: { id: number }) => trpcCaller(t, { id: u.id, role: Role.Common });
    const out = await me(rich).subscriptions.payWithBalance({ id: p.id });
    expect(out.charged_quota).toBe(1_000_000);
    expect(await quotaOf(rich.id)).toBe(4_000_000);
    expect(await subsOf(rich.id)).toMatchObject([{ source: 'balance', status: 'active' }]);
    const lines = await logsOf(rich.id);
    expect(lines.map((l) => [l.type, Number(l.quota)])).toEqual([
      [LogType.System, 1_000_000],
      [LogType.TopUp, 500_000],
    ]);

    await expect(me(poor).subscriptions.payWithBalance({ id: p.id })).rejects.toThrow('余额不足');
    expect(await quotaOf(poor.id)).toBe(999_999);
    expect(await subsOf(poor.id)).toHaveLength(0);
  });
});

describe("an admin and a user's subscriptions", () => {
  it('grants without payment, invalidates (the pool stops counting) and deletes; the upgrade group comes and goes', async () => {
    await setOption(t, 'GroupRatio', JSON.stringify({ default: 1, vip: 1 }));
    const p = await root().subscriptionAdmin.create(plan({ title: 'VIP', upgrade_group: 'vip' }) as never);
    const { headers: admin } = await loginAs(t, Role.Admin);
    const u = await createUser(t);
    const groupOf = async () =>
      (await t.deps.db.selectFrom('users').select('group').where('id', '=', u.id).executeTakeFirstOrThrow()).group;
    const bind = await inject('POST', '/api/subscription/admin/bind', admin, { user_id: u.id, plan_id: p.id });
    expect(bind.json()).toEqual({ success: true, message: '', data: null });
    expect(await groupOf()).toBe('vip');
    expect(t.deps.services.subscriptions.users).toBeDefined();
    const listed = (await inject('GET', `/api/subscription/admin/users/${u.id}/subscriptions`, admin)).json().data;
    expect(listed).toMatchObject([{ plan_title: 'VIP', subscription: { status: 'active', source: 'admin' } }]);
    const subId = listed[0].subscription.id as number;
    const inv = await inject('POST', `/api/subscription/admin/user_subscriptions/${subId}/invalidate`, admin);
    expect(inv.json().success).toBe(true);
    expect(await groupOf()).toBe('default');
    expect(await subsOf(u.id)).toMatchObject([{ status: 'cancelled' }]);
    // A second invalidation finds nothing active.
    const twice = await inject('POST', `/api/subscription/admin/user_subscriptions/${subId}/invalidate`, admin);
    expect(twice.json()).toMatchObject({ success: false, message: '该订阅已失效' });
    expect((await inject('DELETE', `/api/subscription/admin/user_subscriptions/${subId}`, admin)).json().success).toBe(
      true,
    );
    expect(await subsOf(u.id)).toHaveLength(0);
  });

  it('an admin cannot touch the subscriptions of another admin or of root; root can', async () => {
    const p = await root().subscriptionAdmin.create(plan({ title: 'Ranked' }) as never);
    const adminA = await createUser(t, { role: Role.Admin });
    const adminB = await createUser(t, { role: Role.Admin });
    const asA = trpcCaller(t, { id: adminA.id, role: Role.Admin });
    await expect(asA.subscriptionAdmin.grant({ userId: adminB.id, planId: p.id })).rejects.toThrow();
    await expect(asA.subscriptionAdmin.grant({ userId: rootId, planId: p.id })).rejects.toThrow();
    await expect(asA.subscriptionAdmin.userSubscriptions({ userId: adminB.id })).rejects.toThrow();
    const granted = await root().subscriptionAdmin.grant({ userId: adminB.id, planId: p.id });
    await expect(asA.subscriptionAdmin.invalidate({ id: granted.id })).rejects.toThrow();
    await expect(asA.subscriptionAdmin.remove({ id: granted.id })).rejects.toThrow();
    expect(await subsOf(adminB.id)).toMatchObject([{ status: 'active' }]);
    const user = trpcCaller(t, { id: adminB.id, role: Role.Common });
    await expect(user.subscriptionAdmin.plans()).rejects.toThrow();
  });

  it('keeps the billing preference in the user setting, normalising unknown values as new-api does', async () => {
    const { user, headers } = await loginAs(t);
    const put = (v: string) => inject('PUT', '/api/subscription/self/preference', headers, { billing_preference: v });
    expect((await put('wallet_first')).json()).toEqual({
      success: true,
      message: '',
      data: { billing_preference: 'wallet_first' },
    });
    expect((await put('whatever')).json().data.billing_preference).toBe('subscription_first');
    await put('wallet_only');
    const setting = await t.deps.db.selectFrom('users').select('setting').where('id', '=', user.id).executeTakeFirst();
    expect(JSON.parse(setting!.setting ?? '{}')).toMatchObject({ billing_preference: 'wallet_only' });
    expect((await inject('GET', '/api/subscription/self', headers)).json().data.billing_preference).toBe('wallet_only');
  });
});
