import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertChannel,
  insertToken,
  insertUser,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';

/*
 * What chat front ends running in a browser need from the relay: CORS (they call it from the
 * user's own page) and OpenAI's legacy billing calls, which they show as the key's balance.
 */
let h: RelayHarness;
let origin: string;

beforeAll(async () => {
  h = await startRelayHarness();
  origin = h.baseURL.replace(/\/v1$/, '');
  await setOptions(h.deps, { ModelRatio: JSON.stringify({ 'cors-model': 1 }), QuotaPerUnit: '500000' });
  await insertChannel(h.deps, { baseUrl: h.fake.url, models: ['cors-model'] });
});
afterAll(() => h.close());

describe('CORS on the relay', () => {
  it('answers a preflight from any page without a token, and marks the answer readable cross-origin', async () => {
    const pre = await fetch(`${h.baseURL}/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://chat.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    expect(pre.headers.get('access-control-allow-credentials')).toBeNull();

    const user = await insertUser(h.deps);
    const token = await insertToken(h.deps, user.id);
    const res = await fetch(`${h.baseURL}/chat/completions`, {
      method: 'POST',
      headers: {
        origin: 'https://chat.example',
        authorization: `Bearer ${token.key}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ model: 'cors-model', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('x-request-id');
    // A converted answer names the tools it left out; a browser client may read that too.
    expect(res.headers.get('access-control-expose-headers')).toContain('x-switchyard-dropped-tools');
    // A refusal is readable by the page too, or it could not show why.
    const bad = await fetch(`${h.baseURL}/models`, { headers: { authorization: 'Bearer sk-wrong' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('leaves the console API and the session-based playground without CORS', async () => {
    for (const path of ['/api/status', '/pg/chat/completions']) {
      const res = await fetch(`${origin}${path}`, { headers: { origin: 'https://chat.example' } });
      await res.arrayBuffer();
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
    }
  });
});

describe("OpenAI's legacy billing calls", () => {
  const get = async (path: string, key: string) => {
    const res = await fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("show a limited token's limit and usage in dollars, on both paths", async () => {
    const user = await insertUser(h.deps, { quota: 10_000_000 });
    const token = await insertToken(h.deps, user.id, { remainQuota: 750_000 });
    await h.deps.db.updateTable('tokens').set({ used_quota: 250_000 }).where('id', '=', token.id).execute();
    for (const prefix of ['', '/v1']) {
      const sub = await get(`${prefix}/dashboard/billing/subscription`, token.key);
      expect(sub).toEqual({
        status: 200,
        body: {
          object: 'billing_subscription',
          has_payment_method: true,
          soft_limit_usd: 2,
          hard_limit_usd: 2,
          system_hard_limit_usd: 2,
          access_until: 0,
        },
      });
      expect(await get(`${prefix}/dashboard/billing/usage`, token.key)).toEqual({
        status: 200,
        body: { object: 'list', total_usage: 50 },
      });
    }
  });

  it("shows the user's balance when token statistics are off, and quota units when currency display is off", async () => {
    const user = await insertUser(h.deps, { quota: 1_000_000 });
    await h.deps.db.updateTable('users').set({ used_quota: 500_000 }).where('id', '=', user.id).execute();
    const token = await insertToken(h.deps, user.id, { remainQuota: 5 });
    await setOptions(h.deps, { DisplayTokenStatEnabled: 'false', DisplayInCurrencyEnabled: 'false' });
    try {
      const sub = await get('/v1/dashboard/billing/subscription', token.key);
      expect(sub.body.hard_limit_usd).toBe(1_500_000);
      expect((await get('/v1/dashboard/billing/usage', token.key)).body.total_usage).toBe(50_000_000);
    } finally {
      await setOptions(h.deps, { DisplayTokenStatEnabled: 'true', DisplayInCurrencyEnabled: 'true' });
    }
  });

  it('refuses a wrong key in the OpenAI error shape', async () => {
    const r = await get('/v1/dashboard/billing/subscription', 'sk-wrong');
    expect(r.status).toBe(401);
    expect(r.body.error).toMatchObject({ type: 'authentication_error' });
  });
});
