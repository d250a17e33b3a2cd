import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { loginAs, setupRoot, trpcCaller } from '../../../test/users.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await setupRoot(t);
});
afterAll(() => t.close());

const setOption = (key: string, value: string) => t.deps.services.options.update(key, value);

async function quotaOf(id: number) {
  return Number(
    (await t.deps.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota,
  );
}

describe('daily check-in', () => {
  it('is refused while the feature is off', async () => {
    await setOption('CheckInEnabled', 'false');
    const { headers } = await loginAs(t);
    const status = await t.app.inject({ method: 'GET', url: '/api/user/check_in_status', headers });
    expect(status.json()).toEqual({ success: true, message: '', data: { can_check_in: false } });
    const res = await t.app.inject({ method: 'POST', url: '/api/user/check_in', headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: false, message: '签到功能未开启' });
  });

  it('gives a reward between the two quotas once per day and logs it', async () => {
    await setOption('CheckInEnabled', 'true');
    await setOption('CheckInQuota', '1000');
    await setOption('CheckInMaxQuota', '2000');
    const { user, headers } = await loginAs(t);
    const before = await quotaOf(user.id);

    const s1 = await t.app.inject({ method: 'GET', url: '/api/user/check_in_status', headers });
    expect(s1.json().data).toEqual({ can_check_in: true });

    const res = await t.app.inject({ method: 'POST', url: '/api/user/check_in', headers });
    expect(res.statusCode).toBe(200);
    const won = res.json().data.quota as number;
    expect(Number.isInteger(won)).toBe(true);
    expect(won).toBeGreaterThanOrEqual(1000);
    expect(won).toBeLessThanOrEqual(2000);
    expect(await quotaOf(user.id)).toBe(before + won);

    const s2 = await t.app.inject({ method: 'GET', url: '/api/user/check_in_status', headers });
    expect(s2.json().data).toEqual({ can_check_in: false });

    const again = await t.app.inject({ method: 'POST', url: '/api/user/check_in', headers });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ success: false, message: '今天已经签到过了，明天再来吧' });
    expect(await quotaOf(user.id)).toBe(before + won);

    const logs = await t.deps.db.selectFrom('logs').selectAll().where('user_id', '=', user.id).execute();
    expect(logs).toHaveLength(1);
    expect(logs[0].type).toBe(LogType.CheckIn);
    expect(logs[0].content).toBe(`签到获得 $${Number((won / 500000).toFixed(6))}`);
    expect(Number(logs[0].quota)).toBe(won);
  });

  it('concurrent check-ins: exactly one wins', async () => {
    await setOption('CheckInQuota', '500');
    await setOption('CheckInMaxQuota', '500');
    const { user, headers } = await loginAs(t);
    const before = await quotaOf(user.id);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => t.app.inject({ method: 'POST', url: '/api/user/check_in', headers })),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(answers.filter((a) => a.json().success === true)).toHaveLength(1);
    const refusals = answers.filter((a) => a.json().success === false);
    expect(refusals.map((a) => a.json().message)).toEqual(Array(7).fill('今天已经签到过了，明天再来吧'));
    expect(await quotaOf(user.id)).toBe(before + 500);
  });

  it('tRPC checkIn.status / checkIn.checkIn behave the same', async () => {
    const { user } = await loginAs(t);
    const caller = trpcCaller(t, { id: user.id, role: 1 });
    expect(await caller.checkIn.status()).toEqual({ can_check_in: true });
    expect(await caller.checkIn.checkIn()).toEqual({ quota: 500 });
    expect(await caller.checkIn.status()).toEqual({ can_check_in: false });
    await expect(caller.checkIn.checkIn()).rejects.toThrow('今天已经签到过了');
  });
});
