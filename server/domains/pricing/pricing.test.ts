import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createUser, login, restHeaders, setupRoot, trpcCaller } from '../../../test/users.ts';

describe('model pricing', () => {
  let t: TestApp;

  const ability = (model: string, group: string, channel_id: number, enabled = 1) =>
    t.deps.db.insertInto('abilities').values({ model, group, channel_id, enabled }).execute();

  beforeAll(async () => {
    t = await createTestApp();
    await setupRoot(t);
    const { options } = t.deps.services;
    await options.update('ModelRatio', JSON.stringify({ 'gpt-4o': 1.25, 'only-disabled': 1 }));
    await options.update('CompletionRatio', JSON.stringify({ 'gpt-4o': 4 }));
    await options.update('ModelPrice', JSON.stringify({ 'dall-e-3': 0.04 }));
    await options.update('GroupRatio', JSON.stringify({ default: 1, vip: 0.8, svip: 0.5, secret: 3 }));
    await options.update('UserUsableGroups', JSON.stringify({ default: 'Default', vip: 'VIP' }));
    await ability('gpt-4o', 'default', 1);
    await ability('gpt-4o', 'vip', 1);
    await ability('gpt-4o', 'vip', 2);
    await ability('dall-e-3', 'svip', 2);
    await ability('no-ratio-model', 'default', 1);
    await ability('only-disabled', 'default', 3, 0);
    t.deps.services.pricing.invalidate();
  });
  afterAll(() => t.close());

  it('answers visitors with models of enabled abilities, usable groups only, and no message', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/pricing' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // new-api 2026 adds the marketplace's vendors, the endpoint map and the auto-group chain beside them.
    expect(Object.keys(body).sort()).toEqual([
      'auto_groups',
      'data',
      'group_ratio',
      'success',
      'supported_endpoint',
      'usable_group',
      'vendors',
    ]);
    expect(body.vendors).toEqual([]);
    expect(body.auto_groups).toEqual([]);
    expect(body.supported_endpoint.openai).toEqual({ path: '/v1/chat/completions', method: 'POST' });
    expect(body.success).toBe(true);
    expect(body.usable_group).toEqual({ default: 'Default', vip: 'VIP' });
    expect(body.group_ratio).toEqual({ default: 1, vip: 0.8 });
    expect(body.data.map((p: { model_name: string }) => p.model_name)).toEqual([
      'dall-e-3',
      'gpt-4o',
      'no-ratio-model',
    ]);
  });

  it('marks per-token (0) and per-call (1) models with their ratios and groups', async () => {
    const { data } = (await t.app.inject({ method: 'GET', url: '/api/pricing' })).json();
    const by = (name: string) => data.find((p: { model_name: string }) => p.model_name === name);
    expect(by('gpt-4o')).toEqual({
      model_name: 'gpt-4o',
      quota_type: 0,
      model_ratio: 1.25,
      model_price: 0,
      owner_by: '',
      completion_ratio: 4,
      price_source: 'model',
      unit: 'token',
      callable: true,
      enable_groups: ['default', 'vip'],
      supported_endpoint_types: ['openai', 'openai-response', 'anthropic', 'gemini'],
    });
    // A fixed price of an image model is charged per image (n images = n calls).
    expect(by('dall-e-3')).toMatchObject({
      quota_type: 1,
      model_price: 0.04,
      unit: 'image',
      enable_groups: ['svip'],
      supported_endpoint_types: ['image-generation'],
    });
    // Selling mode: no price means the relay refuses it; no amount is given for it.
    expect(by('no-ratio-model')).toMatchObject({ price_source: 'unset', callable: false, model_ratio: 0 });
  });

  it("adds a signed-in user's own group to the usable groups", async () => {
    const u = await createUser(t, { group: 'secret' });
    const headers = restHeaders(await login(t, u.username, u.password));
    const body = (await t.app.inject({ method: 'GET', url: '/api/pricing', headers })).json();
    expect(body.usable_group).toEqual({ default: 'Default', vip: 'VIP', secret: '用户分组' });
    expect(body.group_ratio).toEqual({ default: 1, vip: 0.8, secret: 3 });
    const viaTrpc = await trpcCaller(t, { id: u.id, role: 1, group: 'secret' }).pricing.list();
    expect(viaTrpc.data.find((p) => p.model_name === 'no-ratio-model')?.callable).toBe(false);
    expect(viaTrpc.group_ratio).toEqual(body.group_ratio);
    expect((await trpcCaller(t).pricing.list()).usable_group).toEqual({ default: 'Default', vip: 'VIP' });
  });

  it('drops the cache when options or channels change', async () => {
    await t.deps.services.options.update('ModelRatio', JSON.stringify({ 'gpt-4o': 2 }));
    let data = (await trpcCaller(t).pricing.list()).data;
    expect(data.find((p) => p.model_name === 'gpt-4o')?.model_ratio).toBe(2);
    // Let the options reload that the update triggers finish, so the next list is cached.
    await new Promise((r) => setTimeout(r, 50));
    await trpcCaller(t).pricing.list();
    await ability('new-model', 'default', 4);
    // Without a channel event the cached list stays (new-api caches for a minute)...
    data = (await trpcCaller(t).pricing.list()).data;
    expect(data.some((p) => p.model_name === 'new-model')).toBe(false);
    // ...and a channel change shows it at once.
    t.deps.bus.publish('channels');
    data = (await trpcCaller(t).pricing.list()).data;
    expect(data.some((p) => p.model_name === 'new-model')).toBe(true);
  });
});
