import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { env, openConsoles } from './consoles.ts';
import { Role } from '../../shared/constants.ts';
import { type TestApp } from '../app.ts';
import { LegacyConsole } from '../legacy-console/console-client.ts';
import { createUser, ROOT_USERNAME } from '../users.ts';

/*
 * Today's new-api console (web/classic, 2026) on its settings and personal pages: every tab reads
 * GET /api/option/ into its inputs and saves one key at a time with PUT /api/option/ {key, value}
 * (components/settings/*Setting.jsx); the feature calls each tab makes on opening are read as the
 * tab reads them. Over loopback HTTP with the console's cookie and New-Api-User header.
 */

let t: TestApp;
let base: string;
let root: LegacyConsole;
let user: LegacyConsole;
let userId: number;

beforeAll(async () => {
  ({ t, base, root, user, userId } = await openConsoles());
});
afterAll(() => t.close());

const options = async () =>
  Object.fromEntries(
    (env<{ key: string; value: string }[]>(await root.get('/api/option/')).data ?? []).map((r) => [r.key, r.value]),
  );

describe('every settings tab reads its keys with defaults and saves them', () => {
  // Tab → key → [default as listed, a value the tab may save].
  const tabs: Record<string, Record<string, [string, string]>> = {
    'operation › check-in': {
      'checkin_setting.enabled': ['false', 'true'],
      'checkin_setting.min_quota': ['1000', '2000'],
      'checkin_setting.max_quota': ['10000', '3000'],
    },
    'payment › general': {
      'payment_setting.amount_options': ['[10,20,50,100,200,500]', '[1,2,3]'],
      'payment_setting.amount_discount': ['{}', '{"100":0.95}'],
      USDExchangeRate: ['7.3', '7.1'],
    },
    'other › legal': { 'legal.user_agreement': ['', '# Terms'], 'legal.privacy_policy': ['', '# Privacy'] },
    dashboard: {
      'console_setting.api_info': ['[]', '[{"url":"https://gw.example","route":"main"}]'],
      'console_setting.announcements': ['[]', '[{"content":"hello","type":"default"}]'],
      'console_setting.faq': ['[]', '[{"question":"q","answer":"a"}]'],
      'console_setting.api_info_enabled': ['true', 'false'],
      'console_setting.announcements_enabled': ['true', 'true'],
      'console_setting.faq_enabled': ['true', 'true'],
      'console_setting.uptime_kuma_enabled': ['true', 'false'],
      HeaderNavModules: ['', '{"home":true}'],
      SidebarModulesAdmin: ['', '{"chat":{"enabled":true}}'],
    },
    'operation › channel affinity': {
      'channel_affinity_setting.enabled': ['true', 'true'],
      'channel_affinity_setting.switch_on_success': ['true', 'false'],
      'channel_affinity_setting.max_entries': ['100000', '5000'],
      'channel_affinity_setting.default_ttl_seconds': ['3600', '600'],
      'channel_affinity_setting.rules': ['[]', '[{"name":"codex"}]'],
    },
    performance: {
      'performance_setting.disk_cache_enabled': ['false', 'false'],
      'performance_setting.disk_cache_threshold_mb': ['10', '20'],
      'performance_setting.disk_cache_max_size_mb': ['1024', '2048'],
      'performance_setting.monitor_enabled': ['false', 'false'],
      'performance_setting.monitor_cpu_threshold': ['90', '80'],
    },
    'model deployment': { 'model_deployment.ionet.enabled': ['false', 'false'] },
  };

  for (const [tab, keys] of Object.entries(tabs))
    it(tab, async () => {
      const before = await options();
      for (const [key, [def, next]] of Object.entries(keys)) {
        expect(before[key], key).toBe(def);
        expect(env(await root.put('/api/option/', { key, value: next })), key).toEqual({ success: true, message: '' });
      }
      const after = await options();
      for (const [key, [, next]] of Object.entries(keys)) expect(after[key], key).toBe(next);
    });

  it('a check-in key and its Switchyard name are one setting, listed under both names', async () => {
    await root.put('/api/option/', { key: 'CheckInMaxQuota', value: '4242' });
    const o = await options();
    expect(o['checkin_setting.max_quota']).toBe('4242');
    expect(o.CheckInMaxQuota).toBe('4242');
    const stored = await t.deps.db
      .selectFrom('options')
      .select('key')
      .where('key', 'like', 'checkin_setting.%')
      .execute();
    expect(stored).toEqual([]);
  });

  it('a switch for a feature Switchyard lacks is refused with the reason, not stored and ignored', async () => {
    for (const key of [
      'performance_setting.disk_cache_enabled',
      'performance_setting.monitor_enabled',
      'model_deployment.ionet.enabled',
    ]) {
      const res = env(await root.put('/api/option/', { key, value: 'true' }));
      expect(res.success, key).toBe(false);
      expect(res.message, key).toMatch(/Switchyard/);
      expect((await options())[key]).toBe('false');
    }
    expect(env(await root.put('/api/option/', { key: 'payment_setting.amount_options', value: '[0]' })).success).toBe(
      false,
    );
  });

  it('the io.net key is a secret: saved, never listed', async () => {
    expect(
      env(await root.put('/api/option/', { key: 'model_deployment.ionet.api_key', value: 'io-secret' })).success,
    ).toBe(true);
    expect(Object.keys(await options())).not.toContain('model_deployment.ionet.api_key');
  });
});

describe('GET /api/status gains the fields the 2026 console reads', () => {
  it('from the settings that decide them', async () => {
    const s = env(await user.get('/api/status')).data;
    expect(s).toMatchObject({
      checkin_enabled: true,
      check_in_enabled: true,
      quota_display_type: 'USD',
      usd_exchange_rate: 7.1,
      discord_oauth: false,
      api_info_enabled: false,
      announcements_enabled: true,
      faq_enabled: true,
      uptime_kuma_enabled: false,
      announcements: [{ content: 'hello', type: 'default' }],
      faq: [{ question: 'q', answer: 'a' }],
      HeaderNavModules: '{"home":true}',
      user_agreement_enabled: true,
      privacy_policy_enabled: true,
    });
    expect(s).not.toHaveProperty('api_info');
    expect(s).not.toHaveProperty('custom_oauth_providers');
  });

  it('the legal pages answer their text, empty when unpublished (no login needed)', async () => {
    const anon = new LegacyConsole(base);
    expect(env(await anon.get('/api/user-agreement')).data).toBe('# Terms');
    expect(env(await anon.get('/api/privacy-policy')).data).toBe('# Privacy');
    await root.put('/api/option/', { key: 'legal.privacy_policy', value: '' });
    expect(env(await anon.get('/api/privacy-policy'))).toEqual({ success: true, message: '', data: '' });
    expect(env(await anon.get('/api/status')).data.privacy_policy_enabled).toBe(false);
  });
});

describe('personal settings (components/settings/PersonalSetting.jsx)', () => {
  it('/api/user/self adds the sidebar layout and what the role may configure; PUT saves the layout', async () => {
    const self = env(await user.get('/api/user/self')).data;
    expect(self).toMatchObject({
      id: userId,
      discord_id: '',
      sidebar_modules: '',
      permissions: { sidebar_settings: true, sidebar_modules: { admin: false } },
    });
    const layout = JSON.stringify({ chat: { enabled: true, playground: false } });
    expect(env(await user.put('/api/user/self', { sidebar_modules: layout })).success).toBe(true);
    expect(env(await user.get('/api/user/self')).data.sidebar_modules).toBe(layout);
    expect(env(await root.get('/api/user/self')).data.permissions).toEqual({
      sidebar_settings: false,
      sidebar_modules: {},
    });
  });

  it('custom OAuth bindings are an empty list; unbinding one finds nothing', async () => {
    expect(env(await user.get('/api/user/oauth/bindings'))).toEqual({ success: true, message: '', data: [] });
    expect(env(await user.del('/api/user/oauth/bindings/3'))).toEqual({
      success: false,
      message: '未找到该 OAuth 绑定',
    });
    expect(env(await root.get(`/api/user/${userId}/oauth/bindings`)).data).toEqual([]);
  });

  it('an admin clears a lower user’s GitHub link; an admin cannot touch root’s', async () => {
    await t.deps.db
      .updateTable('users')
      .set({ github_id: 'gh-1', oidc_id: 'oidc-1' })
      .where('id', '=', userId)
      .execute();
    expect(env(await root.del(`/api/user/${userId}/bindings/github`))).toEqual({ success: true, message: 'success' });
    const row = await t.deps.db
      .selectFrom('users')
      .select(['github_id', 'oidc_id'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ github_id: '', oidc_id: 'oidc-1' });
    expect(env(await root.del(`/api/user/${userId}/bindings/myspace`))).toEqual({
      success: false,
      message: '不支持的绑定类型',
    });

    const adminAcct = await createUser(t, { role: Role.Admin });
    const admin = await new LegacyConsole(base).login(adminAcct.username, adminAcct.password);
    const rootRow = await t.deps.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', ROOT_USERNAME)
      .executeTakeFirstOrThrow();
    const refused = env(await admin.del(`/api/user/${rootRow.id}/bindings/email`));
    expect(refused.success).toBe(false);
    expect(env(await user.del(`/api/user/${userId}/bindings/oidc`)).success).toBe(false);
  });

  it('/api/user/<word> routes are never taken for /api/user/:id', async () => {
    for (const path of ['/api/user/checkin', '/api/user/topup/info', '/api/user/oauth/bindings'])
      expect(env(await user.get(path)).message ?? '', path).not.toBe('id 必须是数字');
  });
});

describe('feature tabs opened by root', () => {
  it('performance: real process numbers; gc refused unless exposed; logs empty', async () => {
    const stats = env(await root.get('/api/performance/stats')).data;
    expect(stats.memory_stats.sys).toBe(stats.memory_stats.sys | 0);
    expect(stats.memory_stats.sys).toBeGreaterThan(10 * 1024 * 1024);
    expect(stats.memory_stats.alloc).toBeGreaterThan(0);
    expect(stats.disk_cache_info.exists).toBe(false);
    expect(stats.config.disk_cache_enabled).toBe(false);
    expect(stats.switchyard.uptime_seconds).toBeGreaterThanOrEqual(0);
    expect(stats.switchyard.event_loop_delay_ms.max).toBeGreaterThanOrEqual(0);
    expect(stats.disk_space_info.total).toBeGreaterThan(0);
    expect(env(await root.post('/api/performance/reset_stats')).success).toBe(true);
    const gc = env(await root.post('/api/performance/gc'));
    if (typeof (globalThis as { gc?: unknown }).gc === 'function') expect(gc.success).toBe(true);
    else expect(gc).toEqual({ success: false, message: '当前进程未开放手动垃圾回收' });
    expect(env(await root.get('/api/performance/logs')).data).toEqual([]);
    expect(env(await user.get('/api/performance/stats')).success).toBe(false);
  });

  it('channel affinity cache: counts the session pins and clears them all', async () => {
    await t.deps.kv.set('aff:1:abc:7:default:gpt-4o', '3::1', 60_000);
    await t.deps.kv.set('aff:2:def:7:default:gpt-4o', '4::1', 60_000);
    await t.deps.kv.set('other:key', 'x', 60_000);
    const stats = env(await root.get('/api/option/channel_affinity_cache')).data;
    expect(stats).toMatchObject({ enabled: true, total: 2, unknown: 0, by_rule_name: {} });
    expect(env(await root.del('/api/option/channel_affinity_cache?rule_name=codex')).data).toEqual({ deleted: 0 });
    expect(env(await root.del('/api/option/channel_affinity_cache'))).toEqual({
      success: false,
      message: '缺少参数：rule_name，或使用 all=true 清空全部',
    });
    expect(env(await root.del('/api/option/channel_affinity_cache?all=true')).data).toEqual({ deleted: 2 });
    expect(env(await root.get('/api/option/channel_affinity_cache')).data.total).toBe(0);
    expect(await t.deps.kv.get('other:key')).toBe('x');
    const usage = env(
      await root.get('/api/log/channel_affinity_usage_cache?rule_name=r&using_group=default&key_fp=ab12'),
    );
    expect(usage.data).toMatchObject({ rule_name: 'r', using_group: 'default', key_fp: 'ab12', hit: 0, total: 0 });
  });

  it('ratio sync, deployments and custom OAuth answer "not available" in the shapes their tabs read', async () => {
    expect(env(await root.get('/api/ratio_sync/channels'))).toEqual({ success: true, message: '', data: [] });
    const fetch = env(await root.post('/api/ratio_sync/fetch', { channel_ids: [1] }));
    expect(fetch.success).toBe(false);
    expect(fetch.message).toMatch(/Switchyard/);

    // hooks/model-deployments/useModelDeploymentSettings.js reads data.enabled.
    expect(env(await root.get('/api/deployments/settings')).data).toEqual({
      provider: 'io.net',
      enabled: false,
      configured: false,
      can_connect: false,
    });
    expect(env(await root.get('/api/deployments/?p=1&page_size=10')).data).toEqual({
      items: [],
      total: 0,
      page: 1,
      page_size: 10,
    });
    expect(env(await root.post('/api/deployments/settings/test-connection', {})).success).toBe(false);
    expect(env(await root.del('/api/deployments/abc')).success).toBe(false);

    expect(env(await root.get('/api/custom-oauth-provider/'))).toEqual({ success: true, message: '', data: [] });
    const create = env(await root.post('/api/custom-oauth-provider/', { name: 'x', slug: 'x' }));
    expect(create).toEqual({
      success: false,
      message: 'Switchyard 不支持自定义 OAuth 提供商：请在系统设置中配置 OIDC 登录',
    });
  });

  it('migrate_console_setting copies an imported database’s old panel keys into console_setting.*', async () => {
    await t.deps.services.options.update('FAQ', '[{"question":"old","answer":"yes"}]');
    await t.deps.services.options.update('console_setting.faq', '[]');
    await t.deps.services.options.update('UptimeKumaUrl', 'https://status.example');
    await t.deps.services.options.update('UptimeKumaSlug', 'main');
    const res = env(await root.post('/api/option/migrate_console_setting'));
    expect(res.success).toBe(true);
    expect(res.data.migrated).toEqual(['console_setting.faq', 'console_setting.uptime_kuma_groups']);
    const o = await options();
    expect(JSON.parse(o['console_setting.faq'])).toEqual([{ question: 'old', answer: 'yes' }]);
    expect(JSON.parse(o['console_setting.uptime_kuma_groups'])).toEqual([
      { id: 1, categoryName: 'default', url: 'https://status.example', slug: 'main' },
    ]);
    // Nothing left to move: a second run changes nothing.
    expect(env(await root.post('/api/option/migrate_console_setting')).data.migrated).toEqual([]);
  });
});
