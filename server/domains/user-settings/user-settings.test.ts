import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readUserSetting } from '../../../shared/schemas/user-setting.ts';
import { expectRefused } from '../../../test/rest-answers.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { loginAs, setupRoot, trpcCaller } from '../../../test/users.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await setupRoot(t);
});
afterAll(() => t.close());

const settingOf = async (id: number) =>
  (await t.deps.db.selectFrom('users').select('setting').where('id', '=', id).executeTakeFirstOrThrow()).setting;

const put = (headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: '/api/user/setting', headers, payload: payload as object });

describe('PUT /api/user/setting', () => {
  it('stores the settings as JSON text with "设置已更新"', async () => {
    const { user, headers } = await loginAs(t);
    const res = await put(headers, {
      notify_type: 'webhook',
      quota_warning_threshold: 1_000_000,
      webhook_url: 'https://hooks.example.com/q',
      webhook_secret: 's3cret',
      notification_email: '',
      accept_unset_model_ratio_model: true,
      show_ip_in_logs: true,
    });
    expect(res.json()).toEqual({ success: true, message: '设置已更新' });
    expect(JSON.parse(await settingOf(user.id))).toEqual({
      notify_type: 'webhook',
      quota_warning_threshold: 1_000_000,
      webhook_url: 'https://hooks.example.com/q',
      webhook_secret: 's3cret',
      notification_email: '',
      accept_unset_model_ratio_model: true,
      show_ip_in_logs: true,
    });
  });

  it('a webhook must be https', async () => {
    const { user, headers } = await loginAs(t);
    const res = await put(headers, {
      notify_type: 'webhook',
      quota_warning_threshold: 500000,
      webhook_url: 'http://hooks.example.com',
    });
    expectRefused(res);
    expect(res.json().message).toContain('Webhook地址必须以https://开头');
    expect(await settingOf(user.id)).toBe('');
  });

  it('the threshold must be above 0 and the type email or webhook', async () => {
    const { user, headers } = await loginAs(t);
    let res = await put(headers, { notify_type: 'email', quota_warning_threshold: 0 });
    expectRefused(res);
    expect(res.json().message).toContain('预警阈值必须大于 0');
    res = await put(headers, { notify_type: 'sms', quota_warning_threshold: 10 });
    expectRefused(res);
    expect(res.json().message).toContain('通知方式只能是 email 或 webhook');
    res = await put(headers, { notify_type: 'email', quota_warning_threshold: 10, notification_email: 'nope' });
    expectRefused(res);
    expect(res.json().message).toContain('通知邮箱格式不正确');
    expect(await settingOf(user.id)).toBe('');
  });

  it('keeps keys it does not know and answers through tRPC with defaults', async () => {
    const { user } = await loginAs(t);
    await t.deps.db.updateTable('users').set({ setting: '{"sidebar":"x"}' }).where('id', '=', user.id).execute();
    const caller = trpcCaller(t, { id: user.id, role: 1 });
    expect(await caller.userSettings.get()).toMatchObject({
      notify_type: 'email',
      quota_warning_threshold: 500_000,
      show_ip_in_logs: false,
    });
    await caller.userSettings.update({
      notify_type: 'email',
      quota_warning_threshold: 100_000,
      notification_email: 'me@example.com',
    });
    expect(JSON.parse(await settingOf(user.id))).toMatchObject({
      sidebar: 'x',
      quota_warning_threshold: 100_000,
      notification_email: 'me@example.com',
    });
  });
});

describe('readUserSetting', () => {
  it('survives empty, corrupt and partial text', () => {
    expect(readUserSetting('').quota_warning_threshold).toBe(500_000);
    expect(readUserSetting('{oops').notify_type).toBe('email');
    expect(readUserSetting('{"quota_warning_threshold":"x","show_ip_in_logs":true}', 42)).toMatchObject({
      quota_warning_threshold: 42,
      show_ip_in_logs: true,
    });
  });
});
