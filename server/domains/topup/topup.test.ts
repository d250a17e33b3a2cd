import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType, Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createUser, loginAs, setupRoot, trpcCaller } from '../../../test/users.ts';
import { epaySign } from './epay.rules.ts';

const EPAY_KEY = 'merchant-secret-key';

describe('online top-up', () => {
  let t: TestApp;
  const setOption = (key: string, value: string) => t.deps.services.options.update(key, value);
  const post = (url: string, headers: Record<string, string>, payload: object) =>
    t.app.inject({ method: 'POST', url, headers, payload });
  const quotaOf = async (id: number) =>
    (await t.deps.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota;
  const enablePayment = async () => {
    // The options engineer's rule: payment needs the server address first.
    await setOption('ServerAddress', 'https://gw.example.com');
    await setOption('PayAddress', 'https://pay.example.com/');
    await setOption('EpayId', '1001');
    await setOption('EpayKey', EPAY_KEY);
  };
  const notify = (params: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/api/user/epay/notify', query: params });

  beforeAll(async () => {
    t = await createTestApp();
    await setupRoot(t);
  });
  afterAll(() => t.close());

  it('quotes a price without a success field, and refuses amounts below the minimum', async () => {
    const { headers } = await loginAs(t);
    const ok = await post('/api/user/amount', headers, { amount: 10, top_up_code: '' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: 'success', data: '73.00' });

    await setOption('MinTopUp', '5');
    const low = await post('/api/user/amount', headers, { amount: 4 });
    expect(low.statusCode).toBe(200);
    expect(low.json()).toEqual({ message: 'error', data: '充值数量不能小于 5' });
    expect((await post('/api/user/amount', headers, { amount: 'x' })).json().message).toBe('error');
    await setOption('MinTopUp', '1');

    expect((await post('/api/user/amount', {}, { amount: 10 })).statusCode).toBe(401);
  });

  it('applies the top-up group ratio and quota units when money display is off', async () => {
    const vip = await createUser(t, { group: 'vip' });
    await setOption('TopupGroupRatio', JSON.stringify({ default: 1, vip: 0.5 }));
    const caller = trpcCaller(t, { id: vip.id, role: Role.Common, group: 'vip' });
    expect(await caller.wallet.amount({ amount: 10 })).toEqual({ price: '36.50' });

    await setOption('DisplayInCurrencyEnabled', 'false');
    // Amounts are quota units now: the minimum is 1 × QuotaPerUnit and 1,000,000 units are $2.
    await expect(caller.wallet.amount({ amount: 400000 })).rejects.toThrow('充值数量不能小于 500000');
    expect(await caller.wallet.amount({ amount: 1000000 })).toEqual({ price: '7.30' });
    await setOption('DisplayInCurrencyEnabled', 'true');
    await setOption('TopupGroupRatio', JSON.stringify({ default: 1, vip: 1, svip: 1 }));
  });

  it('refuses to pay while online top-up is not configured', async () => {
    const { headers } = await loginAs(t);
    const res = await post('/api/user/pay', headers, { amount: 10, payment_method: 'zfb' });
    expect(res.json()).toEqual({ message: 'error', data: '管理员未开启在线充值' });
  });

  it('opens a pending order with a signed EasyPay form, and credits it once on a signed notification', async () => {
    await enablePayment();
    const { user, headers } = await loginAs(t);
    const before = await quotaOf(user.id);

    const res = await post('/api/user/pay', headers, { amount: 2, payment_method: 'zfb', top_up_code: '' });
    const body = res.json();
    expect(body.message).toBe('success');
    expect(body).not.toHaveProperty('success');
    expect(body.url).toBe('https://pay.example.com/submit.php');
    const form = body.data as Record<string, string>;
    expect(form).toMatchObject({
      pid: '1001',
      type: 'alipay',
      money: '14.60',
      name: 'TUC2',
      sign_type: 'MD5',
      notify_url: 'https://gw.example.com/api/user/epay/notify',
      return_url: 'https://gw.example.com/app/wallet/topup-success',
    });
    expect(form.out_trade_no).toMatch(new RegExp(`^USR${user.id}NO[a-zA-Z0-9]{6}\\d{10}$`));
    expect(form.sign).toBe(epaySign(form, EPAY_KEY));
    const order = await t.deps.db
      .selectFrom('top_ups')
      .selectAll()
      .where('trade_no', '=', form.out_trade_no)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      user_id: user.id,
      amount: 2,
      money: 14.6,
      status: 'pending',
      payment_method: 'alipay',
    });

    const paid: Record<string, string> = {
      pid: '1001',
      trade_no: 'GW123',
      out_trade_no: form.out_trade_no,
      type: 'alipay',
      name: 'TUC2',
      money: '14.60',
      trade_status: 'TRADE_SUCCESS',
      sign_type: 'MD5',
    };
    const forged = await notify({ ...paid, sign: epaySign(paid, 'wrong-key') });
    expect(forged.body).toBe('fail');
    expect(await quotaOf(user.id)).toBe(before);
    const tampered = await notify({ ...paid, money: '1000.00', sign: epaySign(paid, EPAY_KEY) });
    expect(tampered.body).toBe('fail');

    const signed = { ...paid, sign: epaySign(paid, EPAY_KEY) };
    for (let i = 0; i < 3; i++) {
      const r = await notify(signed);
      expect(r.statusCode).toBe(200);
      expect(r.body).toBe('success');
    }
    expect(await quotaOf(user.id)).toBe(before + 2 * 500000);
    const done = await t.deps.db.selectFrom('top_ups').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
    expect(done.status).toBe('success');
    expect(done.complete_time).toBeGreaterThan(0);
    const logs = await t.deps.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('type', '=', LogType.TopUp)
      .execute();
    expect(logs).toHaveLength(1);
    expect(logs[0].quota).toBe(1000000);
    expect(logs[0].content).toContain('使用在线充值成功');
  });

  it('refuses notifications for unknown orders and tells parallel deliveries apart', async () => {
    await enablePayment();
    const unknown: Record<string, string> = {
      pid: '1001',
      out_trade_no: 'USR1NOxxxxxx1',
      trade_status: 'TRADE_SUCCESS',
    };
    expect((await notify({ ...unknown, sign: epaySign(unknown, EPAY_KEY) })).body).toBe('fail');
    expect((await notify({})).body).toBe('fail');

    const { user, headers } = await loginAs(t);
    const form = (await post('/api/user/pay', headers, { amount: 1, payment_method: 'wx' })).json().data;
    expect(form.type).toBe('wxpay');
    const paid = { pid: '1001', out_trade_no: form.out_trade_no, money: form.money, trade_status: 'TRADE_SUCCESS' };
    const before = await quotaOf(user.id);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => notify({ ...paid, sign: epaySign(paid, EPAY_KEY) })),
    );
    expect(answers.every((a) => a.body === 'success')).toBe(true);
    expect(await quotaOf(user.id)).toBe(before + 500000);
  });

  it('shows the balance and only the user’s own top-up orders', async () => {
    await enablePayment();
    const a = await loginAs(t);
    const b = await loginAs(t);
    await post('/api/user/pay', a.headers, { amount: 3, payment_method: 'zfb' });
    await post('/api/user/pay', a.headers, { amount: 4, payment_method: 'wx' });
    await post('/api/user/pay', b.headers, { amount: 5, payment_method: 'zfb' });

    const callerA = trpcCaller(t, { id: a.user.id, role: Role.Common });
    const mine = await callerA.wallet.topUps({ page: 1, pageSize: 10 });
    expect(mine.total).toBe(2);
    expect(mine.items.map((r) => r.amount)).toEqual([4, 3]);
    expect(mine.items.every((r) => r.trade_no.startsWith(`USR${a.user.id}NO`))).toBe(true);
    const balance = await callerA.wallet.balance();
    expect(balance.quota).toBe(await quotaOf(a.user.id));
    await expect(trpcCaller(t).wallet.balance()).rejects.toThrow();
  });
});
