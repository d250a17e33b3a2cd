import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../services.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  ledger,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';
import { createUser, login } from '../../../test/users.ts';

let h: RelayHarness;
beforeAll(async () => {
  h = await startRelayHarness();
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify({ 'auth-model': 1, 'other-model': 1, 'no-channel': 1 }),
    GroupRatio: JSON.stringify({ default: 1, vip: 2 }),
    UserUsableGroups: JSON.stringify({ default: '默认' }),
  });
  await insertChannel(h.deps, {
    baseUrl: h.fake.url,
    models: ['auth-model', 'other-model', 'unpriced'],
    groups: ['default', 'vip'],
  });
});
afterAll(async () => {
  await h.close();
});

const chat = (key: string, model = 'auth-model') =>
  h.client(key).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
const tokenRow = (id: number) =>
  h.deps.db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('token checks, in order, each with its own error', () => {
  it('unknown key: 401 Invalid token', async () => {
    await expect(chat('sk-doesnotexist')).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('disabled, expired (-> status 3), exhausted (-> status 4)', async () => {
    const user = await insertUser(h.deps);
    const disabled = await insertToken(h.deps, user.id, { status: 2 });
    await expect(chat(disabled.key)).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining('This token is not enabled'),
    });
    const expired = await insertToken(h.deps, user.id, { expiredTime: Math.floor(Date.now() / 1000) - 10 });
    await expect(chat(expired.key)).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining('This token has expired'),
    });
    await expect.poll(async () => (await tokenRow(expired.id)).status).toBe(3);
    const empty = await insertToken(h.deps, user.id, { remainQuota: 0 });
    await expect(chat(empty.key)).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining('This token has used up its quota'),
    });
    await expect.poll(async () => (await tokenRow(empty.id)).status).toBe(4);
  });

  it('allow_ips: exact IPs and CIDR ranges', async () => {
    const user = await insertUser(h.deps);
    const blocked = await insertToken(h.deps, user.id, { allowIps: '10.0.0.1\n192.168.0.0/16' });
    await expect(chat(blocked.key)).rejects.toMatchObject({ status: 403, code: 'ip_not_allowed' });
    const cidr = await insertToken(h.deps, user.id, { allowIps: '10.0.0.1\n127.0.0.0/8' });
    await expect(chat(cidr.key)).resolves.toBeDefined();
  });

  it('model limits, banned users and unusable groups', async () => {
    const user = await insertUser(h.deps);
    const limited = await insertToken(h.deps, user.id, { modelLimits: ['other-model'] });
    await expect(chat(limited.key)).rejects.toMatchObject({ status: 403, code: 'model_not_allowed' });
    await expect(chat(limited.key, 'other-model')).resolves.toBeDefined();
    const banned = await insertUser(h.deps, { status: 2 });
    const bannedToken = await insertToken(h.deps, banned.id);
    await expect(chat(bannedToken.key)).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining('This user has been banned'),
    });
    const vip = await insertToken(h.deps, user.id, { group: 'vip' });
    await expect(chat(vip.key)).rejects.toMatchObject({ status: 403, code: 'group_not_allowed' });
  });

  it('a group named like what every object inherits (toString, constructor) is not usable', async () => {
    const user = await insertUser(h.deps);
    for (const group of ['toString', 'constructor']) {
      const token = await insertToken(h.deps, user.id, { group });
      await expect(chat(token.key), group).rejects.toMatchObject({ status: 403, code: 'group_not_allowed' });
    }
  });

  it('unset prices, missing channels, insufficient user quota, unsupported paths', async () => {
    const user = await insertUser(h.deps, { quota: 100 });
    const token = await insertToken(h.deps, user.id);
    await expect(chat(token.key, 'unpriced')).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining('No ratio or price is set for model unpriced'),
    });
    // No channel of the group lists the model: a 404 model_not_found, which SDKs do not retry (issue 28).
    await expect(chat(token.key, 'no-channel')).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
      message: expect.stringContaining('The model no-channel does not exist or is not served in group default'),
    });
    // No channel and no price: the missing channel is what the client hears (relay.md §3).
    await expect(chat(token.key, 'no-channel-no-price')).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining('The model no-channel-no-price does not exist'),
    });
    // 100 quota left, more reserved: the answer says so instead of "not enough" (issue 28).
    await expect(chat(token.key)).rejects.toMatchObject({ status: 403, code: 'insufficient_quota_for_request' });
    const res = await request(`${h.baseURL}/files`, {
      method: 'GET',
      headers: { authorization: `Bearer ${token.key}` },
    });
    expect(res.statusCode).toBe(501);
    expect(((await res.body.json()) as { error: { message: string; code: string } }).error).toMatchObject({
      message: expect.stringContaining('该接口尚未实现'),
      code: 'api_not_implemented',
    });
  });
});

describe('the language of refusals (issue 22)', () => {
  const post = async (key: string, body: unknown, lang?: string) => {
    const res = await request(`${h.baseURL}/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        ...(lang ? { 'accept-language': lang } : {}),
      },
      body: JSON.stringify(body),
    });
    return {
      status: res.statusCode,
      message: ((await res.body.json()) as { error: { message: string } }).error.message,
    };
  };
  const hi = (model: string) => ({ model, messages: [{ role: 'user', content: 'hi' }] });

  it('Chinese to API callers by default (issue 45), English when Accept-Language prefers it', async () => {
    const user = await insertUser(h.deps, { quota: 100 });
    const disabled = await insertToken(h.deps, user.id, { status: 2 });
    const token = await insertToken(h.deps, user.id);
    const broke = await insertToken(h.deps, (await insertUser(h.deps, { quota: 0 })).id);
    // The relay's own refusal, the billing step's (an AppError of the console side) and a schema's.
    const cases: [string, unknown, string, string][] = [
      [disabled.key, hi('auth-model'), 'This token is not enabled', '该令牌状态不可用'],
      [broke.key, hi('auth-model'), 'Your quota is not enough', '用户额度不足'],
      [token.key, hi('auth-model'), 'but your account has only $0.0002 left', '但账户仅剩 $0.0002'],
      [token.key, { messages: [] }, 'model is required', 'model 不能为空'],
    ];
    for (const [key, body, en, zh] of cases) {
      const english = await post(key, body, 'en-US,en;q=0.9');
      expect(english.message).toContain(en);
      expect(english.message).not.toMatch(/[\u4e00-\u9fff]/);
      expect((await post(key, body)).message).toContain(zh);
      expect((await post(key, body, 'zh-CN,zh;q=0.9,en;q=0.8')).message).toContain(zh);
    }
  });
});

describe('rate limits', () => {
  it('model request rate limit per user: 429 in OpenAI shape', async () => {
    await setOptions(h.deps, { ModelRequestRateLimitEnabled: 'true', ModelRequestRateLimitCount: '2' });
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    await chat(token.key);
    await chat(token.key);
    await expect(chat(token.key)).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    await setOptions(h.deps, { ModelRequestRateLimitEnabled: 'false' });
  });

  it('per-token rate limit (successes)', async () => {
    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id, { rateLimit: { period: 60, count: 100, success: 1 } });
    await chat(token.key);
    await expect(chat(token.key)).rejects.toMatchObject({ status: 429 });
  });
});

describe('playground and start-up', () => {
  it('POST /pg/chat/completions bills the session user without a token', async () => {
    const user = await createUser(h.t, { quota: 1_000_000 });
    await h.deps.db
      .updateTable('users')
      .set({ setting: JSON.stringify({ show_ip_in_logs: true }) })
      .where('id', '=', user.id)
      .execute();
    const { cookie } = await login(h.t, user.username, user.password);
    const res = await request(`${h.baseURL.replace('/v1', '')}/pg/chat/completions`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'auth-model', messages: [{ role: 'user', content: 'hi' }], group: 'default' }),
    });
    expect(res.statusCode).toBe(200);
    await res.body.text();
    expect(h.fake.requests.at(-1)!.body.group).toBeUndefined();
    await h.drain();
    const l = await ledger(h.deps, user.id, 0);
    expect(l.logs).toHaveLength(1);
    expect(l.logs[0]).toMatchObject({ token_id: 0, ip: '127.0.0.1' });
    expect(Number(l.user.used_quota)).toBe(Number(l.logs[0].quota));
  });

  it('refunds a reservation left by a crash when services start', async () => {
    const user = await insertUser(h.deps, { quota: 1000 });
    const token = await insertToken(h.deps, user.id, { remainQuota: 1000 });
    // What a crash between reservation and settlement leaves behind.
    await h.deps.db.updateTable('users').set({ quota: 700 }).where('id', '=', user.id).execute();
    await h.deps.db.updateTable('tokens').set({ remain_quota: 700 }).where('id', '=', token.id).execute();
    await h.deps.db
      .insertInto('quota_reservations')
      .values({ id: 'crash-1', user_id: user.id, token_id: token.id, quota: 300, created_at: 1 })
      .execute();
    await createServices(h.deps);
    const l = await ledger(h.deps, user.id, token.id);
    expect(Number(l.user.quota)).toBe(1000);
    expect(Number(l.token!.remain_quota)).toBe(1000);
    expect(l.reservations).toHaveLength(0);
  });
});
