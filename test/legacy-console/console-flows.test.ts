import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertLog } from '../../server/domains/logs/logs.fixtures.ts';
import { createTestApp, type TestApp } from '../app.ts';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setOption, setupRoot } from '../users.ts';
import { LegacyConsole, listen } from './console-client.ts';

/*
 * The six flows of issue #21 that broke when new-api's own web console (April 2025) was pointed
 * at Switchyard's /api: each call below is the console's own (same path, query string and body,
 * built as its code builds them), and each answer is read the way the console reads it
 * (`res.data.success`, `res.data.message`, `res.data.data`).
 */

let t: TestApp;
let base: string;
let root: LegacyConsole;
let user: LegacyConsole;
let userId: number;

const now = () => Math.floor(Date.now() / 1000);
/** The task log page's default start: today at midnight, local time (as its date picker gives it). */
const todayStart = () => {
  const d = new Date();
  return Math.floor(new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime() / 1000);
};
const body = (r: { data: unknown }) => r.data as { success?: boolean; message?: string; data?: unknown };
const optionValue = async (key: string) =>
  (await t.deps.db.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst())?.value;

beforeAll(async () => {
  t = await createTestApp({ trustProxy: true });
  // These are the April 2025 contract's shapes (docs/new-api-contract/lists.md has 2026's).
  await setOption(t, 'ApiCompatContract', '2025-04');
  base = await listen(t);
  await setupRoot(t);
  root = await new LegacyConsole(base).login(ROOT_USERNAME, ROOT_PASSWORD);
  const u = await createUser(t);
  userId = u.id;
  user = await new LegacyConsole(base).login(u.username, u.password);
});
afterAll(() => t.close());

describe('1. self-registration without an invite link', () => {
  it('registers with "aff_code": null (nothing in localStorage.aff), and the new user can log in', async () => {
    const visitor = new LegacyConsole(base);
    // RegisterForm: its inputs, plus aff_code = localStorage.getItem('aff'), which is null.
    const inputs = {
      username: 'newcomer',
      password: 'Secret123',
      password2: 'Secret123',
      email: '',
      verification_code: '',
      aff_code: null,
    };
    const res = await visitor.post('/api/user/register?turnstile=', inputs);
    expect(res.status).toBe(200);
    expect(body(res)).toEqual({ success: true, message: '' });
    const row = await t.deps.db
      .selectFrom('users')
      .select(['display_name', 'inviter_id'])
      .where('username', '=', 'newcomer')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ display_name: 'newcomer', inviter_id: 0 });
    await visitor.login('newcomer', 'Secret123');
    expect(visitor.userId).toBeGreaterThan(0);
  });

  it('with an invite link (?aff=) the same form sends the code as a string and the inviter is recorded', async () => {
    const aff = body(await user.get('/api/user/aff')).data as string;
    const res = await new LegacyConsole(base).post('/api/user/register?turnstile=', {
      username: 'invitee',
      password: 'Secret123',
      password2: 'Secret123',
      email: '',
      verification_code: '',
      aff_code: aff,
    });
    expect(body(res)).toEqual({ success: true, message: '' });
    const row = await t.deps.db
      .selectFrom('users')
      .select('inviter_id')
      .where('username', '=', 'invitee')
      .executeTakeFirstOrThrow();
    expect(Number(row.inviter_id)).toBe(userId);
  });
});

describe('2. settings with a blank field', () => {
  it('PUT /api/option/ {"key":"SMTPAccount"} (the blank field has no value) stores ""', async () => {
    for (const [key, value] of [
      ['SMTPServer', 'smtp.example.com'],
      ['SMTPAccount', 'mailer@example.com'],
      ['SMTPToken', 'secret'],
    ])
      expect(body(await root.put('/api/option/', { key, value })).success).toBe(true);

    // SystemSetting's submitSMTP: one PUT per key, `value: inputs[key]`, undefined for a cleared input.
    for (const key of ['SMTPAccount', 'SMTPToken']) {
      const res = await root.put('/api/option/', { key, value: undefined });
      expect(res.status).toBe(200);
      expect(body(res)).toEqual({ success: true, message: '' });
    }
    expect(await optionValue('SMTPAccount')).toBe('');
    expect(await optionValue('SMTPToken')).toBe('');
    expect(await optionValue('SMTPServer')).toBe('smtp.example.com');
    const list = body(await root.get('/api/option/')).data as { key: string; value: string }[];
    expect(list.find((o) => o.key === 'SMTPAccount')).toEqual({ key: 'SMTPAccount', value: '' });
    // A null value (a script's form state) is the same blank.
    expect(body(await root.put('/api/option/', { key: 'SMTPServer', value: null })).success).toBe(true);
    expect(await optionValue('SMTPServer')).toBe('');
  });
});

describe('3. lists whose default query carries end_timestamp=NaN', () => {
  beforeAll(async () => {
    const db = t.deps.db;
    const ts = now() - 60;
    await db
      .insertInto('tasks')
      .values({
        task_id: 'suno-1',
        platform: 'suno',
        user_id: userId,
        action: 'MUSIC',
        status: 'SUCCESS',
        submit_time: ts,
        created_at: ts,
        updated_at: ts,
        channel_id: 3,
      })
      .execute();
    await db
      .insertInto('midjourneys')
      .values({
        mj_id: 'mj-1',
        user_id: userId,
        action: 'IMAGINE',
        status: 'SUCCESS',
        submit_time: ts * 1000,
        channel_id: 4,
        prompt: 'a cat',
      })
      .execute();
    // As the relay writes a log row: with its hourly rollup, which the list's count reads.
    await insertLog(t, { user_id: userId, username: 'someone', created_at: ts, model_name: 'gpt-4o', quota: 1234 });
    await db
      .insertInto('quota_data')
      .values({
        user_id: userId,
        username: 'someone',
        model_name: 'gpt-4o',
        created_at: ts - (ts % 3600),
        token_used: 15,
        count: 1,
        quota: 1234,
      })
      .execute();
  });

  const items = (r: { data: unknown }) => {
    const b = body(r);
    expect(b, JSON.stringify(b)).toMatchObject({ success: true });
    return b.data as Record<string, unknown>[];
  };

  it('the task log page (admin and self): /api/task/?p=0&channel_id=&task_id=&start_timestamp=<today>&end_timestamp=NaN', async () => {
    const start = todayStart();
    const all = await root.get(`/api/task/?p=0&channel_id=&task_id=&start_timestamp=${start}&end_timestamp=NaN`);
    expect(items(all).map((x) => x.task_id)).toEqual(['suno-1']);
    const mine = await user.get(`/api/task/self?p=0&task_id=&start_timestamp=${start}&end_timestamp=NaN`);
    expect(items(mine).map((x) => x.task_id)).toEqual(['suno-1']);
  });

  it('the drawing log page: /api/mj/?p=0&channel_id=&mj_id=&start_timestamp=NaN&end_timestamp=NaN', async () => {
    const all = await root.get('/api/mj/?p=0&channel_id=&mj_id=&start_timestamp=NaN&end_timestamp=NaN');
    expect(items(all).map((x) => x.mj_id)).toEqual(['mj-1']);
    const mine = await user.get('/api/mj/self/?p=0&mj_id=&start_timestamp=NaN&end_timestamp=NaN');
    expect(items(mine).map((x) => x.mj_id)).toEqual(['mj-1']);
  });

  it('the usage log page and its stat line, with both dates cleared (Date.parse("") / 1000 is NaN)', async () => {
    const filters = 'type=0&username=&token_name=&model_name=&start_timestamp=NaN&end_timestamp=NaN&channel=&group=';
    const list = body(await root.get(encodeURI(`/api/log/?p=1&page_size=10&${filters}`)));
    expect(list).toMatchObject({ success: true, data: { page: 1, page_size: 10, total: 1 } });
    const stat = body(await root.get(encodeURI(`/api/log/stat?${filters}`)));
    expect(stat).toMatchObject({ success: true, data: { quota: 1234 } });
    const selfFilters = 'type=0&token_name=&model_name=&start_timestamp=NaN&end_timestamp=NaN&group=';
    const mine = body(await user.get(encodeURI(`/api/log/self/?p=1&page_size=10&${selfFilters}`)));
    expect(mine).toMatchObject({ success: true, data: { total: 1 } });
    const selfStat = body(await user.get(encodeURI(`/api/log/self/stat?${selfFilters}`)));
    expect(selfStat).toMatchObject({ success: true, data: { quota: 1234 } });
  });

  it('the dashboard data: /api/data/?username=&start_timestamp=<...>&end_timestamp=NaN&default_time=hour', async () => {
    const start = now() - 7 * 24 * 3600;
    const all = await root.get(`/api/data/?username=&start_timestamp=${start}&end_timestamp=NaN&default_time=hour`);
    expect(items(all)).toEqual([expect.objectContaining({ model_name: 'gpt-4o', quota: 1234 })]);
    const mine = await user.get(`/api/data/self/?start_timestamp=${start}&end_timestamp=NaN&default_time=hour`);
    expect(items(mine)).toEqual([expect.objectContaining({ model_name: 'gpt-4o', quota: 1234 })]);
  });

  it('the user list: a page or page size the table did not have yet (NaN, undefined) is the first page of 10', async () => {
    const list = body(await root.get('/api/user/?p=NaN&page_size=undefined'));
    expect(list).toMatchObject({ success: true, data: { page: 1, page_size: 10 } });
    const search = body(await root.get('/api/user/search?keyword=&group=&p=1&page_size=abc'));
    expect(search).toMatchObject({ success: true, data: { page: 1, page_size: 10 } });
    expect((search.data as { total: number }).total).toBeGreaterThanOrEqual(3);
  });
});

describe('4. option refusals keep their reason', () => {
  it("GitHubOAuthEnabled without a client id: HTTP 200, success:false and new-api's reason; nothing saved", async () => {
    const res = await root.put('/api/option/', { key: 'GitHubOAuthEnabled', value: 'true' });
    expect(res.status).toBe(200);
    expect(body(res)).toEqual({
      success: false,
      message: '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！',
    });
    expect(await optionValue('GitHubOAuthEnabled')).not.toBe('true');
    // A value that fails its own rule is a reason too.
    const bad = await root.put('/api/option/', { key: 'QuotaForNewUser', value: '-1' });
    expect(bad.status).toBe(200);
    expect(body(bad)).toMatchObject({ success: false, message: expect.stringContaining('不能小于 0') });
  });

  it('only a body that does not decode into {key, value} strings is new-api\'s HTTP 400 "无效的参数"', async () => {
    const res = await root.put('/api/option/', { key: 'QuotaForNewUser', value: 5 });
    expect(res.status).toBe(400);
    expect(body(res)).toEqual({ success: false, message: '无效的参数' });
  });
});

describe('5. mail errors are shown', () => {
  it('GET /api/verification with SMTP unset: HTTP 200, success:false and the reason', async () => {
    await t.deps.services.options.update('SMTPServer', '');
    const res = await new LegacyConsole(base).get('/api/verification?email=someone@example.com&turnstile=');
    expect(res.status).toBe(200);
    expect(body(res).success).toBe(false);
    // new-api's own words for it, not a generic mail failure.
    expect(body(res).message).toBe('SMTP 服务器未配置');
    // The code that could not be mailed is not kept.
    expect(await t.deps.db.selectFrom('verification_codes').select('id').execute()).toHaveLength(0);
  });
});

describe('6. online payment returns to a configurable page', () => {
  beforeAll(async () => {
    for (const [key, value] of [
      ['ServerAddress', 'https://gw.example.com'],
      ['PayAddress', 'https://pay.example.com'],
      ['EpayId', '1001'],
      ['EpayKey', 'merchant-key'],
    ])
      expect(body(await root.put('/api/option/', { key, value })).success).toBe(true);
  });
  // TopUp page: API.post('/api/user/pay', {amount: parseInt(topUpCount), payment_method, top_up_code}).
  const pay = async () => {
    const res = await user.post('/api/user/pay', { amount: 10, payment_method: 'zfb', top_up_code: '' });
    const b = res.data as { message: string; data: Record<string, string>; url: string };
    expect(b.message, JSON.stringify(b)).toBe('success');
    return b.data.return_url;
  };

  it("defaults to our own success page, and PayReturnUrl sends the payer to the old console's page", async () => {
    expect(await pay()).toBe('https://gw.example.com/app/wallet/topup-success');
    expect(body(await root.put('/api/option/', { key: 'PayReturnUrl', value: '/log' })).success).toBe(true);
    expect(await pay()).toBe('https://gw.example.com/log');
    const elsewhere = 'https://old-console.example.com/log';
    expect(body(await root.put('/api/option/', { key: 'PayReturnUrl', value: elsewhere })).success).toBe(true);
    expect(await pay()).toBe(elsewhere);
    // Blank (a cleared field, sent without a value) is our own page again.
    expect(body(await root.put('/api/option/', { key: 'PayReturnUrl' })).success).toBe(true);
    expect(await pay()).toBe('https://gw.example.com/app/wallet/topup-success');
  });

  it('refuses a return address that is neither a path nor an http(s) URL, with the reason', async () => {
    const res = await root.put('/api/option/', { key: 'PayReturnUrl', value: 'log' });
    expect(res.status).toBe(200);
    expect(body(res)).toMatchObject({ success: false, message: expect.stringContaining('/') });
  });

  it('is an admin setting: a common user cannot change it', async () => {
    const res = await user.put('/api/option/', { key: 'PayReturnUrl', value: '/x' });
    expect(body(res)).toMatchObject({ success: false });
    expect(await optionValue('PayReturnUrl')).not.toBe('/x');
  });
});
