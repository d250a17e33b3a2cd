import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType, Role } from '../../../shared/constants.ts';
import { serverText } from '../../../shared/server-messages.ts';
import {
  insertChannel,
  insertToken,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';
import { loginAs, setupRoot } from '../../../test/users.ts';

/*
 * Issue 22: the console renders a log row's line from what the row stores, not from its Chinese
 * `content` (which stays, word for word, for legacy clients). Every kind of row the gateway writes
 * with a registry text, written by the real flows on a real SQLite file: `other.message` holds the
 * code and parameters (amounts as quota numbers), and a consume row's `other` holds everything its
 * price line is made of.
 */

let h: RelayHarness;
let admin: Record<string, string>;

beforeAll(async () => {
  h = await startRelayHarness();
  await setupRoot(h.t);
  admin = (await loginAs(h.t, Role.Admin)).headers;
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify({ 'ratio-model': 0.075 }),
    CompletionRatio: JSON.stringify({ 'ratio-model': 4 }),
    ModelPrice: JSON.stringify({ 'price-model': 0.02 }),
    DisplayInCurrencyEnabled: 'true',
  });
  await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['ratio-model', 'price-model'] });
});
afterAll(() => h.close());

const inject = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
  h.t.app.inject({ method, url, headers, payload });

async function logsOf(userId: number) {
  await h.drain();
  const rows = await h.deps.db.selectFrom('logs').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  return rows.map((r) => ({
    type: r.type,
    content: r.content,
    other: JSON.parse(r.other || '{}') as Record<string, unknown>,
  }));
}

describe('log rows store what the console renders them from', () => {
  it('a redemption: the amount as quota beside new-api’s line', async () => {
    const { user, headers } = await loginAs(h.t);
    const made = await inject('POST', '/api/redemption/', admin, { name: 'gift', quota: 5_000_000, count: 1 });
    const key = (made.json().data as string[])[0];
    expect((await inject('POST', '/api/user/topup', headers, { key })).json().success).toBe(true);
    expect(await logsOf(user.id)).toEqual([
      {
        type: LogType.TopUp,
        content: '通过兑换码充值 $10.000000 额度',
        other: { message: { code: 'log.redeemed', params: { amount: { quota: 5_000_000 } } } },
      },
    ]);
  });

  it('a check-in', async () => {
    await setOptions(h.deps, { CheckInEnabled: 'true', CheckInQuota: '1000', CheckInMaxQuota: '1000' });
    const { user, headers } = await loginAs(h.t);
    expect((await inject('POST', '/api/user/check_in', headers)).json().success).toBe(true);
    expect(await logsOf(user.id)).toEqual([
      {
        type: LogType.CheckIn,
        content: '签到获得 $0.002',
        other: { message: { code: 'log.checkin', params: { amount: { quota: 1000 } } } },
      },
    ]);
  });

  it('an administrator’s quota change', async () => {
    const { user } = await loginAs(h.t);
    await h.deps.db.updateTable('users').set({ quota: 500_000 }).where('id', '=', user.id).execute();
    const res = await inject('PUT', '/api/user/', admin, { id: user.id, add_quota: 250_000 });
    expect(res.json().success).toBe(true);
    expect(await logsOf(user.id)).toEqual([
      {
        type: LogType.Manage,
        content: '管理员将用户额度从 ＄1.000000 额度 修改为 ＄1.500000 额度',
        other: {
          message: { code: 'log.admin_quota_change', params: { from: { quota: 500_000 }, to: { quota: 750_000 } } },
        },
      },
    ]);
  });

  it('the sign-up gifts of a new user and of the one who invited them', async () => {
    await setOptions(h.deps, { QuotaForNewUser: '100', QuotaForInvitee: '20', QuotaForInviter: '30' });
    const inviter = await loginAs(h.t);
    const affCode = (
      await h.deps.db.selectFrom('users').select('aff_code').where('id', '=', inviter.user.id).executeTakeFirstOrThrow()
    ).aff_code;
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/api/user/register',
      payload: { username: 'invitee', password: 'Passw0rd!', aff_code: affCode },
    });
    expect(res.json().success).toBe(true);
    const invitee = await h.deps.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'invitee')
      .executeTakeFirstOrThrow();
    const gift = (code: string, quota: number, content: string) => ({
      type: LogType.System,
      content,
      other: { message: { code, params: { amount: { quota } } } },
    });
    expect(await logsOf(Number(invitee.id))).toEqual([
      gift('log.new_user_gift', 100, '新用户注册赠送 100 额度'),
      gift('log.invitee_gift', 20, '使用邀请码赠送 20 额度'),
    ]);
    expect(await logsOf(inviter.user.id)).toEqual([gift('log.inviter_gift', 30, '邀请用户赠送 30 额度')]);
  });

  it('relayed requests: the price line is made of the ratios and price in `other`', async () => {
    const { user } = await loginAs(h.t);
    const token = await insertToken(h.deps, user.id);
    await h.deps.db.updateTable('users').set({ quota: 10_000_000 }).where('id', '=', user.id).execute();
    for (const model of ['ratio-model', 'price-model'])
      await h.client(token.key).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
    const [ratio, price] = await logsOf(user.id);
    expect(ratio.other).toMatchObject({ model_ratio: 0.075, completion_ratio: 4, group_ratio: 1, model_price: -1 });
    expect(ratio.content).toBe(serverText('log.ratio_mode', ratio.other as Record<string, number>));
    expect(price.other).toMatchObject({ model_price: 0.02, group_ratio: 1 });
    expect(price.content).toBe(
      serverText('log.price_mode', { price: price.other.model_price as number, group_ratio: 1 }),
    );
    expect(ratio.other.message).toBeUndefined();
  });
});
