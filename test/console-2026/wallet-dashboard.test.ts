import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { env, openConsoles } from './consoles.ts';
import { serverText } from '../../shared/server-messages.ts';
import { calendarDay } from '../../server/domains/checkin/checkin.service.ts';
import { type TestApp } from '../app.ts';
import { LegacyConsole } from '../legacy-console/console-client.ts';
import { createUser, setOption } from '../users.ts';

/*
 * Today's new-api console (web/classic, 2026) on its wallet, personal and dashboard pages, over
 * loopback HTTP with its cookie and New-Api-User header. Each call is built as the cited console
 * file builds it and each answer read the way that file reads it.
 */

let t: TestApp;
let root: LegacyConsole;
let user: LegacyConsole;
let userId: number;

beforeAll(async () => {
  ({ t, root, user, userId } = await openConsoles({ userQuota: 0 }));
});
afterAll(() => t.close());

const quotaOf = async (id: number) =>
  Number((await t.deps.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota);

describe('daily check-in (components/settings/personal/cards/CheckinCalendar.jsx)', () => {
  it('is hidden while off: status says checkin_enabled false and the card call is refused', async () => {
    await setOption(t, 'CheckInEnabled', 'false');
    const status = env(await user.get('/api/status')).data;
    expect(status.checkin_enabled).toBe(false);
    expect(status.check_in_enabled).toBe(false); // the April 2025 name stays
    expect(env(await user.get(`/api/user/checkin?month=${calendarDay().slice(0, 7)}`))).toEqual({
      success: false,
      message: '签到功能未开启',
    });
  });

  it('status → check in → status shows today done, the month record and the totals', async () => {
    // Settings › operation writes the 2026 keys; they are the same setting as CheckInEnabled/CheckInQuota.
    for (const [key, value] of [
      ['checkin_setting.enabled', 'true'],
      ['checkin_setting.min_quota', '700'],
      ['checkin_setting.max_quota', '700'],
    ])
      expect(env(await root.put('/api/option/', { key, value })).success).toBe(true);
    expect(t.deps.services.options.get('CheckInEnabled')).toBe(true);
    expect(t.deps.services.options.get('CheckInQuota')).toBe(700);
    expect(env(await user.get('/api/status')).data.checkin_enabled).toBe(true);

    const month = calendarDay().slice(0, 7);
    const before = env(await user.get(`/api/user/checkin?month=${month}`)).data;
    expect(before).toMatchObject({ enabled: true, min_quota: 700, max_quota: 700 });
    expect(before.stats).toEqual({
      total_quota: 0,
      total_checkins: 0,
      checkin_count: 0,
      checked_in_today: false,
      records: [],
    });

    const done = env(await user.post('/api/user/checkin'));
    expect(done).toEqual({
      success: true,
      message: '签到成功',
      data: { quota_awarded: 700, checkin_date: calendarDay() },
    });
    expect(await quotaOf(userId)).toBe(700);

    const after = env(await user.get(`/api/user/checkin?month=${month}`)).data.stats;
    expect(after).toEqual({
      total_quota: 700,
      total_checkins: 1,
      checkin_count: 1,
      checked_in_today: true,
      records: [{ checkin_date: calendarDay(), quota_awarded: 700 }],
    });
    // The April 2025 console's status call agrees.
    expect(env(await user.get('/api/user/check_in_status')).data).toEqual({ can_check_in: false });

    const again = env(await user.post('/api/user/checkin'));
    expect(again).toEqual({ success: false, message: '今天已经签到过了，明天再来吧' });
    expect(await quotaOf(userId)).toBe(700);
    // Another month holds no record.
    expect(env(await user.get('/api/user/checkin?month=2001-01')).data.stats.records).toEqual([]);
  });

  it('asks for Turnstile when the site turned it on, as new-api does', async () => {
    await setOption(t, 'TurnstileSiteKey', 'site');
    await setOption(t, 'TurnstileSecretKey', 'secret');
    await setOption(t, 'TurnstileCheckEnabled', 'true');
    try {
      // The console sends `?turnstile=<token>`; without one the check-in is refused before anything else.
      expect(env(await user.post('/api/user/checkin'))).toEqual({
        success: false,
        message: serverText('verify.turnstile_empty'),
      });
    } finally {
      await setOption(t, 'TurnstileCheckEnabled', 'false');
    }
  });
});

describe('wallet (components/topup/index.jsx, modals/TopupHistoryModal.jsx)', () => {
  it('top-up info names what the wallet may offer, from the options', async () => {
    await setOption(t, 'payment_setting.amount_options', '[5,10,50]');
    await setOption(t, 'payment_setting.amount_discount', '{"50":0.9}');
    await setOption(t, 'MinTopUp', '5');
    const off = env(await user.get('/api/user/topup/info')).data;
    expect(off).toMatchObject({
      enable_online_topup: false,
      enable_stripe_topup: false,
      enable_creem_topup: false,
      enable_redemption: true,
      payment_compliance_confirmed: true,
      pay_methods: [],
      min_topup: 5,
      amount_options: [5, 10, 50],
      discount: { '50': 0.9 },
    });

    await setOption(t, 'ServerAddress', 'https://gw.example');
    await setOption(t, 'PayAddress', 'https://pay.example');
    await setOption(t, 'EpayId', '1001');
    await setOption(t, 'EpayKey', 'k');
    const on = env(await user.get('/api/user/topup/info')).data;
    expect(on.enable_online_topup).toBe(true);
    expect(on.pay_methods.map((m: { type: string }) => m.type)).toEqual(['alipay', 'wxpay']);
    // The console pays with a listed type: the EasyPay order is opened with it.
    const pay = (await user.post('/api/user/pay', { amount: 10, payment_method: 'alipay' })).data as {
      message: string;
      data: Record<string, string>;
    };
    expect(pay.message).toBe('success');
    expect(pay.data.type).toBe('alipay');
  });

  it("the user's own orders come as a page object, searchable by order number; others' never show", async () => {
    const other = await createUser(t);
    const now = Math.floor(Date.now() / 1000);
    await t.deps.db
      .insertInto('top_ups')
      .values([
        {
          user_id: userId,
          amount: 3,
          money: 21.9,
          trade_no: 'SELF-A',
          payment_method: 'alipay',
          create_time: now,
          status: 'success',
        },
        {
          user_id: other.id,
          amount: 4,
          money: 29.2,
          trade_no: 'OTHER-B',
          payment_method: 'wxpay',
          create_time: now,
          status: 'pending',
        },
      ])
      .execute();
    const page = env(await user.get('/api/user/topup/self?p=1&page_size=10&keyword=')).data;
    expect(page.page).toBe(1);
    expect(page.page_size).toBe(10);
    const trades = page.items.map((r: { trade_no: string }) => r.trade_no);
    expect(trades).toContain('SELF-A');
    expect(trades).not.toContain('OTHER-B');
    expect(page.total).toBe(page.items.length);
    const found = env(await user.get('/api/user/topup/self?p=1&page_size=10&keyword=SELF')).data;
    expect(found.items.map((r: { trade_no: string }) => r.trade_no)).toEqual(['SELF-A']);
    expect(found.items[0]).toMatchObject({ amount: 3, money: 21.9, status: 'success', user_id: userId });
  });

  it('an admin lists every order, filters them, and completes a pending one once (the ledger moves once)', async () => {
    expect(env(await user.get('/api/user/topup?p=1&page_size=10')).success).toBe(false);
    const all = env(await root.get('/api/user/topup?p=1&page_size=10&keyword=OTHER')).data;
    expect(all.items).toHaveLength(1);
    const order = all.items[0] as { trade_no: string; user_id: number; status: string };
    expect(order.status).toBe('pending');
    const pendingOnly = env(await root.get('/api/user/topup?p=1&page_size=10&status=pending')).data;
    expect(pendingOnly.items.every((r: { status: string }) => r.status === 'pending')).toBe(true);

    const before = await quotaOf(order.user_id);
    expect(env(await root.post('/api/user/topup/complete', { trade_no: order.trade_no })).success).toBe(true);
    expect(await quotaOf(order.user_id)).toBe(before + 4 * 500000);
    // Idempotent: a second completion (a double click) changes nothing.
    expect(env(await root.post('/api/user/topup/complete', { trade_no: order.trade_no })).success).toBe(true);
    expect(await quotaOf(order.user_id)).toBe(before + 4 * 500000);
    const logs = await t.deps.db.selectFrom('logs').selectAll().where('user_id', '=', order.user_id).execute();
    expect(logs.filter((l) => l.type === 1)).toHaveLength(1);
    expect(env(await root.get('/api/user/topup?p=1&page_size=10&keyword=OTHER')).data.items[0].status).toBe('success');

    expect(env(await root.post('/api/user/topup/complete', { trade_no: 'NOPE' }))).toEqual({
      success: false,
      message: '充值订单不存在',
    });
    expect(env(await root.post('/api/user/topup/complete', {}))).toEqual({ success: false, message: '未提供订单号' });
  });
});

describe('payment compliance (components/settings/PaymentSetting.jsx)', () => {
  it('the confirmation is recorded and read back from the options; the general save cannot forge it', async () => {
    const read = async () => {
      const rows = env<{ key: string; value: string }[]>(await root.get('/api/option/')).data ?? [];
      return Object.fromEntries(
        rows.filter((r) => r.key.startsWith('payment_setting.compliance')).map((r) => [r.key, r.value]),
      );
    };
    expect((await read())['payment_setting.compliance_confirmed']).toBe('false');
    expect(env(await root.put('/api/option/', { key: 'payment_setting.compliance_confirmed', value: 'true' }))).toEqual(
      {
        success: false,
        message: '合规确认字段不允许通过通用设置接口修改',
      },
    );
    expect(env(await root.post('/api/option/payment_compliance', { confirmed: false })).success).toBe(false);
    const ok = env(await root.post('/api/option/payment_compliance', { confirmed: true }));
    expect(ok.success).toBe(true);
    expect(ok.data).toMatchObject({ confirmed: true, terms_version: 'v1', confirmed_by: root.userId });
    const after = await read();
    expect(after['payment_setting.compliance_confirmed']).toBe('true');
    expect(after['payment_setting.compliance_terms_version']).toBe('v1');
    expect(Number(after['payment_setting.compliance_confirmed_at'])).toBeGreaterThan(0);
    expect(after['payment_setting.compliance_confirmed_by']).toBe(String(root.userId));
    // Only root confirms.
    expect(env(await user.post('/api/option/payment_compliance', { confirmed: true })).success).toBe(false);
  });
});

describe('dashboard (hooks/dashboard/useDashboardData.js)', () => {
  it('the user ranking sums every user per hour in the range; admins only', async () => {
    const hour = Math.floor(Date.now() / 1000 / 3600) * 3600 - 3600;
    await t.deps.db
      .insertInto('quota_data')
      .values([
        { user_id: 1, username: 'root', model_name: 'gpt-4o', created_at: hour, token_used: 100, count: 2, quota: 300 },
        { user_id: 1, username: 'root', model_name: 'claude', created_at: hour, token_used: 50, count: 1, quota: 200 },
        {
          user_id: userId,
          username: 'someone',
          model_name: 'gpt-4o',
          created_at: hour,
          token_used: 10,
          count: 1,
          quota: 40,
        },
        {
          user_id: 1,
          username: 'root',
          model_name: 'gpt-4o',
          created_at: hour - 86400 * 40,
          token_used: 9,
          count: 9,
          quota: 9,
        },
      ])
      .execute();
    const url = `/api/data/users?start_timestamp=${hour - 3600}&end_timestamp=${hour + 3600}`;
    const rows = env<{ username: string; created_at: number; count: number; quota: number; token_used: number }[]>(
      await root.get(url),
    ).data!;
    const byName = Object.fromEntries(rows.map((r) => [r.username, r]));
    expect(byName.root).toMatchObject({ created_at: hour, count: 3, quota: 500, token_used: 150 });
    expect(byName.someone).toMatchObject({ created_at: hour, count: 1, quota: 40, token_used: 10 });
    expect(rows).toHaveLength(2);
    expect(env(await user.get(url)).success).toBe(false);
  });

  it('uptime answers no monitor groups, so the panel shows its empty state', async () => {
    expect(env(await user.get('/api/uptime/status'))).toEqual({ success: true, message: '', data: [] });
  });
});
