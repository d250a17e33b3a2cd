import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { login, restHeaders, ROOT_PASSWORD, ROOT_USERNAME, setupRoot, trpcCaller } from '../../../test/users.ts';

/*
 * Every settings rule of the spec, checked through PUT /api/option/ as the console
 * (or an old script) sends it: a bad value answers HTTP 200 with success:false and the
 * spec's message, as new-api does (its console shows the reason; issue #21), and leaves
 * the stored value alone; a good value is stored. Only a body that does not decode is a 400.
 */

let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  await setupRoot(t);
  headers = restHeaders(await login(t, ROOT_USERNAME, ROOT_PASSWORD));
});
afterAll(() => t.close());

async function put(key: string, value: string) {
  const res = await t.app.inject({ method: 'PUT', url: '/api/option/', headers, payload: { key, value } });
  return { status: res.statusCode, body: res.json() as { success: boolean; message: string } };
}

async function stored(key: string) {
  const res = await t.app.inject({ method: 'GET', url: '/api/option/', headers });
  const rows = (res.json() as { data: { key: string; value: string }[] }).data;
  return rows.find((r) => r.key === key)?.value;
}

/** [key, rejected value, expected message fragment, accepted value] */
const rules: [string, string, string, string][] = [
  ['QuotaForNewUser', '-1', '不能小于 0', '0'],
  ['QuotaForInviter', '-5', '不能小于 0', '100'],
  ['QuotaForInvitee', 'abc', '请输入数字', '100'],
  ['PreConsumedQuota', '-1', '不能小于 0', '500'],
  ['RebatePercentage', '101', '返利比例必须在0到100之间', '100'],
  ['RebatePercentage', '-0.5', '返利比例必须在0到100之间', '0'],
  ['GroupRatio', '{"default":1,', '不是合法的 JSON', '{"default":1,"vip":0.5}'],
  ['UserUsableGroups', '[1,2]', '不是合法的 JSON', '{"default":"默认分组"}'],
  ['ModelPrice', 'nope', '不是合法的 JSON', '{"mj_imagine":0.1}'],
  ['ModelRatio', '{"gpt-4":-1}', '不是合法的 JSON', '{"gpt-4":15}'],
  ['CompletionRatio', '{"gpt-4":"x"}', '不是合法的 JSON', '{"gpt-4":2}'],
  ['CacheRatio', '{', '不是合法的 JSON', '{"gpt-4o":0.5}'],
  ['Chats', '{"a":1}', '不是合法的 JSON', '[{"Chat":"https://chat.example.com/?key={key}"}]'],
  ['gemini.safety_settings', '{bad', '不是合法的 JSON', '{"default":"OFF"}'],
  ['gemini.version_settings', '[]', '不是合法的 JSON', '{"default":"v1beta"}'],
  ['gemini.supported_imagine_models', '{}', '不是合法的 JSON', '["gemini-2.0-flash-exp"]'],
  ['gemini.models_supported_thinking_budget', 'x', '不是合法的 JSON', '["gemini-2.5-pro"]'],
  ['claude.model_headers_settings', '[', '不是合法的 JSON', '{"claude-3":{"anthropic-beta":["x"]}}'],
  ['claude.default_max_tokens', '{"default":0}', '不是合法的 JSON', '{"default":8192}'],
  ['ModelRequestRateLimitDurationMinutes', '-1', '不能小于 0', '0'],
  ['ModelRequestRateLimitCount', '-1', '不能小于 0', '0'],
  ['ModelRequestRateLimitSuccessCount', '0', '不能小于 1', '1'],
  ['gemini.thinking_adapter_budget_tokens_percentage', '0.001', '0.002 到 1', '0.002'],
  ['gemini.thinking_adapter_budget_tokens_percentage', '1.01', '0.002 到 1', '1'],
  ['claude.thinking_adapter_budget_tokens_percentage', '0.09', '0.1 到 1', '0.1'],
  ['claude.thinking_adapter_budget_tokens_percentage', '1.5', '0.1 到 1', '1'],
  ['global.auto_retry_count', '0', '1 到 10', '1'],
  ['global.auto_retry_count', '11', '1 到 10', '10'],
  ['global.auto_retry_count', '2.5', '请输入整数', '3'],
  ['global.auto_retry_status_codes', '5xx;4xx', '状态码格式错误', '5xx,4xx'],
  ['global.auto_retry_status_codes', 'abc', '状态码格式错误', ''],
  ['general_setting.ping_interval_seconds', '0', '不能小于 1', '1'],
  ['LinuxDOMinimumTrustLevel', '5', '信任等级必须是 0 到 4 的整数', '4'],
  ['LinuxDOMinimumTrustLevel', '1.5', '请输入整数', '0'],
  ['DataExportInterval', '0', '最小间隔为 1 分钟', '1'],
  ['DataExportDefaultTime', 'month', '只能是 hour / day / week', 'week'],
  ['CheckInQuota', '-100', '不能小于 0', '0'],
  ['CheckInMaxQuota', '-1', '不能小于 0', '100'],
  ['ChannelDisableThreshold', '-1', '不能小于 0', '5'],
  ['QuotaRemindThreshold', '-1', '不能小于 0', '1000'],
  ['EmailDomainWhitelist', 'gmail.com,not a domain', '不是合法的域名', 'gmail.com,qq.com'],
  ['EmailDomainWhitelist', 'gmail.com,qq.com,gmail.com', 'gmail.com 重复', 'gmail.com'],
  [
    'oidc.well_known',
    'ftp://idp.example.com/.well-known',
    '必须以 http:// 或 https:// 开头',
    'https://idp.example.com/.well-known/openid-configuration',
  ],
  ['TopupGroupRatio', '{"vip":', '不是合法的 JSON', '{"vip":1.2}'],
  ['DrawingEnabled', 'yes', '布尔值只能是 true 或 false', 'true'],
  ['ModelMapping', '{"gpt-virtual":[]}', '至少需要一个真实模型', '{"gpt-virtual":[{"model":"gpt-4o","priorities":1}]}'],
];

describe('PUT /api/option/ enforces every rule of the settings spec', () => {
  it.each(rules)('%s refuses %j', async (key, bad, message, good) => {
    const before = await stored(key);
    const r = await put(key, bad);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(false);
    expect(r.body.message).toContain(message);
    expect(await stored(key)).toBe(before);
    const ok = await put(key, good);
    expect(ok.body).toEqual({ success: true, message: '' });
    expect(await stored(key)).toBe(good);
  });

  it('payment needs the server address first', async () => {
    await put('ServerAddress', '');
    const r = await put('PayAddress', 'https://pay.example.com');
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('请先填写服务器地址');
    expect((await put('ServerAddress', 'https://gw.example.com/')).body.success).toBe(true);
    expect(await stored('ServerAddress')).toBe('https://gw.example.com');
    expect((await put('PayAddress', 'https://pay.example.com')).body.success).toBe(true);
  });

  it('fallback pricing: a single price excludes ratios, ratios need input and completion', async () => {
    const fallback = '请检查兜底倍率配置';
    expect((await put('fallback_input_ratio', '2')).body.success).toBe(true);
    // Only one ratio: switching fallback on is refused.
    expect((await put('fallback_pricing_enabled', 'true')).body.message).toContain(fallback);
    expect((await put('fallback_single_price', '0.01')).body.message).toContain(fallback);
    expect((await put('fallback_completion_ratio', '3')).body.success).toBe(true);
    expect((await put('fallback_pricing_enabled', 'true')).body.success).toBe(true);
    // Single price instead: clear the ratios first.
    await put('fallback_input_ratio', '0');
    await put('fallback_completion_ratio', '0');
    expect((await put('fallback_single_price', '0.01')).body.success).toBe(true);
    expect((await put('fallback_input_ratio', '1')).body.message).toContain(fallback);
    expect((await put('fallback_single_price', '-1')).body.success).toBe(false);
  });

  it('a sign-in method cannot be switched on before its configuration', async () => {
    const r = await put('oidc.enabled', 'true');
    expect(r.body.message).toContain('无法启用 OIDC 登录');
  });

  it('a value that is not a string is "无效的参数" (HTTP 400)', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/option/',
      headers,
      payload: { key: 'QuotaForNewUser', value: 5 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: '无效的参数' });
  });

  it('POST /api/option/rest_model_ratio puts the default model ratios back', async () => {
    await put('ModelRatio', '{"only-model":1}');
    const res = await t.app.inject({ method: 'POST', url: '/api/option/rest_model_ratio', headers });
    expect(res.json()).toEqual({ success: true, message: '重置模型倍率成功' });
    expect(await stored('ModelRatio')).not.toContain('only-model');
  });
});

describe('options.fetchOidcConfig', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/.well-known/openid-configuration') {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            issuer: base,
            authorization_endpoint: `${base}/authorize`,
            token_endpoint: `${base}/token`,
            userinfo_endpoint: `${base}/userinfo`,
          }),
        );
      } else {
        res.statusCode = 404;
        res.end('no');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('fills the endpoints from the discovery document', async () => {
    const root = await t.deps.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', ROOT_USERNAME)
      .executeTakeFirstOrThrow();
    const caller = trpcCaller(t, root);
    await expect(
      caller.options.fetchOidcConfig({ wellKnown: `${base}/.well-known/openid-configuration` }),
    ).resolves.toEqual({
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      user_info_endpoint: `${base}/userinfo`,
    });
    await expect(caller.options.fetchOidcConfig({ wellKnown: `${base}/missing` })).rejects.toThrow(
      '获取 OIDC 配置失败',
    );
    await expect(caller.options.fetchOidcConfig({ wellKnown: 'idp.example.com' })).rejects.toThrow(
      'http:// 或 https://',
    );
  });
});
