import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '../../../shared/constants.ts';
import { shownCurrency } from '../../../shared/currency.ts';
import { quotaText } from '../../../shared/quota-format.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { quotaShortfall } from '../../relay/errors.ts';
import { requestExceedsQuota } from '../billing/reserve.service.ts';
import { loginAs, login, restHeaders, ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../../../test/users.ts';

/*
 * How money is shown (issue 45): the operator picks USD, CNY at USDExchangeRate, a currency of their own or raw
 * quota under new-api's option names; /api/status answers the choice truthfully for every console, the older
 * switch DisplayInCurrencyEnabled stays in step, and the server's own texts (log lines, check-in) use it.
 */

let t: TestApp;
let root: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  await setupRoot(t);
  root = restHeaders(await login(t, ROOT_USERNAME, ROOT_PASSWORD));
});
afterAll(() => t.close());

async function put(key: string, value: string) {
  const res = await t.app.inject({ method: 'PUT', url: '/api/option/', headers: root, payload: { key, value } });
  return res.json() as { success: boolean; message: string };
}

async function status() {
  const res = await t.app.inject({ method: 'GET', url: '/api/status' });
  return res.json().data as Record<string, unknown>;
}

const money = (s: Record<string, unknown>) => ({
  quota_display_type: s.quota_display_type,
  display_in_currency: s.display_in_currency,
  usd_exchange_rate: s.usd_exchange_rate,
  custom_currency_symbol: s.custom_currency_symbol,
  custom_currency_exchange_rate: s.custom_currency_exchange_rate,
});

describe('the money display setting', () => {
  it('is dollars until the operator picks, and /api/status says so', async () => {
    expect(money(await status())).toEqual({
      quota_display_type: 'USD',
      display_in_currency: true,
      usd_exchange_rate: 7.3,
      custom_currency_symbol: '¤',
      custom_currency_exchange_rate: 1,
    });
  });

  it('answers yuan at the exchange rate the operator set', async () => {
    expect(await put('USDExchangeRate', '7.1')).toMatchObject({ success: true });
    expect(await put('general_setting.quota_display_type', 'CNY')).toMatchObject({ success: true });
    expect(money(await status())).toMatchObject({
      quota_display_type: 'CNY',
      display_in_currency: true,
      usd_exchange_rate: 7.1,
    });
  });

  it('refuses a type new-api does not have, a rate of zero and an empty symbol, keeping what was stored', async () => {
    expect(await put('general_setting.quota_display_type', 'EUR')).toEqual({
      success: false,
      message: '只能是 USD / CNY / TOKENS / CUSTOM',
    });
    expect(await put('general_setting.custom_currency_exchange_rate', '0')).toEqual({
      success: false,
      message: '汇率必须大于 0',
    });
    expect(await put('USDExchangeRate', '0')).toMatchObject({ success: false });
    expect(await put('general_setting.custom_currency_symbol', '  ')).toEqual({
      success: false,
      message: '请填写货币符号',
    });
    expect(money(await status())).toMatchObject({ quota_display_type: 'CNY', usd_exchange_rate: 7.1 });
  });

  it('answers a currency of the operator’s own with its symbol and rate', async () => {
    await put('general_setting.custom_currency_symbol', '€');
    await put('general_setting.custom_currency_exchange_rate', '0.92');
    await put('general_setting.quota_display_type', 'CUSTOM');
    expect(money(await status())).toMatchObject({
      quota_display_type: 'CUSTOM',
      display_in_currency: true,
      custom_currency_symbol: '€',
      custom_currency_exchange_rate: 0.92,
    });
  });

  it('keeps the older switch and the display type in step, whichever a console saves', async () => {
    // An old console saving its whole tab (the switch on) keeps the chosen currency.
    await put('general_setting.quota_display_type', 'CNY');
    await put('DisplayInCurrencyEnabled', 'true');
    expect(money(await status())).toMatchObject({ quota_display_type: 'CNY', display_in_currency: true });
    // The switch off is quota; on again is dollars, as new-api maps it.
    await put('DisplayInCurrencyEnabled', 'false');
    expect(money(await status())).toMatchObject({ quota_display_type: 'TOKENS', display_in_currency: false });
    await put('DisplayInCurrencyEnabled', 'true');
    expect(money(await status())).toMatchObject({ quota_display_type: 'USD', display_in_currency: true });
    // The type chosen in a new console turns the switch off and on.
    await put('general_setting.quota_display_type', 'TOKENS');
    expect(t.deps.services.options.get('DisplayInCurrencyEnabled')).toBe(false);
    await put('general_setting.quota_display_type', 'CNY');
    expect(t.deps.services.options.get('DisplayInCurrencyEnabled')).toBe(true);
  });
});

describe('server texts in the chosen currency', () => {
  async function logsOf(userId: number, type: number) {
    return t.deps.db
      .selectFrom('logs')
      .select('content')
      .where('user_id', '=', userId)
      .where('type', '=', type)
      .execute();
  }

  it('a check-in and an administrator’s quota change are logged in yuan', async () => {
    await put('USDExchangeRate', '7.3');
    await put('general_setting.quota_display_type', 'CNY');
    await put('CheckInEnabled', 'true');
    await put('CheckInQuota', '1000');
    await put('CheckInMaxQuota', '1000');
    const { user, headers } = await loginAs(t);
    const res = await t.app.inject({ method: 'POST', url: '/api/user/check_in', headers });
    expect(res.json().success).toBe(true);
    // 1,000 quota = $0.002 = ¥0.0146.
    expect(await logsOf(user.id, LogType.CheckIn)).toEqual([{ content: '签到获得 ¥0.0146' }]);

    await t.deps.db.updateTable('users').set({ quota: 500_000 }).where('id', '=', user.id).execute();
    const change = await t.app.inject({
      method: 'PUT',
      url: '/api/user/',
      headers: root,
      payload: { id: user.id, add_quota: 250_000 },
    });
    expect(change.json().success).toBe(true);
    expect(await logsOf(user.id, LogType.Manage)).toEqual([
      { content: '管理员将用户额度从 ¥7.300000 额度 修改为 ¥10.950000 额度' },
    ]);
  });

  it('a balance in a mail reads in whole fen, rounded down; a detail keeps every digit', () => {
    const yuan = shownCurrency({ type: 'CNY', usdExchangeRate: 7.3, customSymbol: '', customRate: 1 });
    // 4,868,338 quota = $9.736676 = ¥71.0777348.
    expect(quotaText(4_868_338, 500_000, yuan, 'floor')).toBe('¥71.07');
    expect(quotaText(4_868_338, 500_000, yuan)).toBe('¥71.077735');
    expect(quotaText(-500_000, 500_000, yuan, 'floor')).toBe('-¥7.30');
    const tokens = shownCurrency({ type: 'TOKENS', usdExchangeRate: 7.3, customSymbol: '', customRate: 1 });
    expect(quotaText(4_868_338, 500_000, tokens, 'floor')).toBe('4868338 额度');
  });

  it('an API caller short of balance is told the amounts in yuan', async () => {
    await put('USDExchangeRate', '7.3');
    await put('general_setting.quota_display_type', 'CNY');
    const o = t.deps.services.options;
    // Needs 1,000 quota ($0.002 = ¥0.0146), 100 left ($0.0002 = ¥0.00146).
    const refusal = quotaShortfall(requestExceedsQuota('user', 1_000, 100), o.get.bind(o));
    expect(refusal?.message).toContain('¥0.0146');
    expect(refusal?.message).toContain('¥0.00146');
    expect(refusal?.message).not.toContain('$');
  });
});
