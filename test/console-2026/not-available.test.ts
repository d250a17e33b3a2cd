import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { env, openConsoles } from './consoles.ts';
import { type TestApp } from '../app.ts';
import { LegacyConsole } from '../legacy-console/console-client.ts';
import { insertToken } from '../relay-fixtures.ts';
import { setOption } from '../users.ts';

/*
 * Calls of today's new-api console (and of tools written for it) that Switchyard answers without
 * a feature behind them, or from a small one: each answer is read the way its caller reads it.
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

describe('GET /api/usage/token/ (a key asks about itself, as the "query my key" pages do)', () => {
  it('answers the key holder its granted, used and left quota, limits and expiry, with CORS open', async () => {
    const token = await insertToken(t.deps, userId, { name: 'ci', remainQuota: 7000, modelLimits: ['gpt-4o'] });
    await t.deps.db.updateTable('tokens').set({ used_quota: 3000 }).where('id', '=', token.id).execute();
    const res = await fetch(`${base}/api/usage/token/`, {
      headers: { authorization: `Bearer ${token.key}`, origin: 'https://key-checker.example' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({
      code: true,
      message: 'ok',
      data: {
        object: 'token_usage',
        name: 'ci',
        total_granted: 10000,
        total_used: 3000,
        total_available: 7000,
        unlimited_quota: false,
        model_limits: { 'gpt-4o': true },
        model_limits_enabled: true,
        expires_at: 0,
      },
    });
  });

  it('refuses a call without a bearer key with 401, and an unknown key in the envelope', async () => {
    const none = await fetch(`${base}/api/usage/token/`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ success: false, message: 'No Authorization header' });
    const basic = await fetch(`${base}/api/usage/token/`, { headers: { authorization: 'Basic abc' } });
    expect(basic.status).toBe(401);
    const unknown = await fetch(`${base}/api/usage/token/`, { headers: { authorization: 'Bearer sk-nope' } });
    expect(await unknown.json()).toEqual({ success: false, message: '令牌不存在' });
  });
});

describe("GET /api/ratio_config (another gateway copying this one's prices)", () => {
  it('is refused until the operator exposes the ratios, then answers them', async () => {
    expect(env(await user.get('/api/ratio_config'))).toEqual({ success: false, message: '倍率配置接口未启用' });
    await setOption(t, 'ModelRatio', JSON.stringify({ 'gpt-4o': 1.25 }));
    await setOption(t, 'ExposeRatioEnabled', 'true');
    const res = env(await new LegacyConsole(base).get('/api/ratio_config'));
    expect(res.success).toBe(true);
    const data = res.data as Record<string, Record<string, number>>;
    expect(Object.keys(data).sort()).toEqual(['cache_ratio', 'completion_ratio', 'model_price', 'model_ratio']);
    expect(data.model_ratio).toEqual({ 'gpt-4o': 1.25 });
  });
});

describe("features of today's console that Switchyard does not have answer a sentence saying so", () => {
  it.each([
    ['POST', '/api/channel/codex/oauth/start', 'Codex OAuth'],
    ['GET', '/api/channel/1/codex/usage', 'Codex OAuth'],
    ['POST', '/api/channel/ollama/pull', 'Ollama'],
    ['GET', '/api/channel/ollama/version/1', 'Ollama'],
    ['POST', '/api/channel/upstream_updates/detect_all', '获取模型列表'],
  ])('%s %s (admin)', async (method, url, words) => {
    const res = await root.send(method, url, method === 'POST' ? {} : undefined);
    expect(res.status).toBe(200);
    expect(env(res).success).toBe(false);
    expect(env(res).message).toContain(words);
  });

  it('the channel tools stay admin-only', async () => {
    const res = env(await user.post('/api/channel/ollama/pull', {}));
    expect(res.success).toBe(false);
    expect(res.message).not.toContain('Ollama');
  });

  it.each([
    ['/api/user/stripe/pay', 'Stripe'],
    ['/api/user/stripe/amount', 'Stripe'],
    ['/api/user/creem/pay', 'Creem'],
    ['/api/user/waffo/pay', 'Waffo'],
  ])('%s names the provider and what to use instead', async (url, provider) => {
    const res = env(await user.post(url, { amount: 10 }));
    expect(res).toEqual({ success: false, message: `Switchyard 未接入 ${provider} 支付，请使用易支付或兑换码` });
  });

  it('custom OAuth JWT and header sign-in are refused, and unknown providers are "not switched on"', async () => {
    const jwt = env(await new LegacyConsole(base).post('/api/auth/external/acme/jwt/login', { token: 'x' }));
    expect(jwt.success).toBe(false);
    expect(jwt.message).toContain('JWT');
    const discord = env(await new LegacyConsole(base).get('/api/oauth/discord?code=x&state=y'));
    expect(discord).toEqual({ success: false, message: '管理员未开启通过 discord 登录以及注册' });
  });
});

describe("the bind calls today's console POSTs reach the same flows as the April 2025 GETs", () => {
  it('POST /api/oauth/email/bind checks the code like GET does', async () => {
    const get = env(await user.get('/api/oauth/email/bind?email=a%40example.com&code=123456'));
    const post = env(await user.post('/api/oauth/email/bind', { email: 'a@example.com', code: '123456' }));
    expect(get.success).toBe(false);
    expect(post).toEqual(get);
  });

  it('POST /api/oauth/wechat/bind says WeChat is not configured, like GET', async () => {
    const post = env(await user.post('/api/oauth/wechat/bind', { code: 'abc' }));
    expect(post).toEqual(env(await user.get('/api/oauth/wechat/bind?code=abc')));
    expect(post.message).toContain('微信');
  });

  it("POST /api/user/epay/notify takes the gateway's form fields (a forged notice fails)", async () => {
    const res = await fetch(`${base}/api/user/epay/notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'out_trade_no=nope&trade_status=TRADE_SUCCESS&sign=bad',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('fail');
  });
});
