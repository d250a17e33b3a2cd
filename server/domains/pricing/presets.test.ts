import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '../../../shared/constants.ts';
import { SHIPPED_PRICE_COUNT } from '../../../shared/preset-prices.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import {
  createUser,
  login,
  loginAs,
  restHeaders,
  ROOT_PASSWORD,
  setOption,
  setupRoot,
  trpcCaller,
} from '../../../test/users.ts';

/*
 * Issue 39 item 4: a fresh install prices 53 models with providers' list prices the operator
 * never set. Root sees which ones are still exactly the shipped presets and clears them in one
 * call (tRPC and REST); a price the operator changed is never cleared; nobody below root may clear.
 */

type Maps = Record<string, Record<string, number>>;

describe('preset prices', () => {
  let t: TestApp;
  let root: Awaited<ReturnType<typeof setupRoot>>;
  beforeAll(async () => {
    t = await createTestApp();
    root = await setupRoot(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const storedMaps = async (): Promise<Maps> => {
    const list = await trpcCaller(t, root).options.list();
    const get = (k: string) => JSON.parse(list.find((o) => o.key === k)?.value ?? '{}') as Record<string, number>;
    return {
      ModelPrice: get('ModelPrice'),
      ModelRatio: get('ModelRatio'),
      CompletionRatio: get('CompletionRatio'),
      CacheRatio: get('CacheRatio'),
      CacheCreationRatio: get('CacheCreationRatio'),
    };
  };

  it('a fresh install lists every shipped price as a preset, gpt-4o-mini and the Midjourney tasks included', async () => {
    const presets = await trpcCaller(t, root).pricing.presets();
    expect(presets.reviewed).toBe(false);
    expect(presets.models).toHaveLength(SHIPPED_PRICE_COUNT);
    expect(SHIPPED_PRICE_COUNT).toBe(53);
    expect(presets.models).toEqual(expect.arrayContaining(['gpt-4o-mini', 'mj_imagine', 'claude-3-haiku-20240307']));
  });

  it('an admin or a user may neither list nor clear them (tRPC and REST)', async () => {
    for (const role of [Role.Admin, Role.Common]) {
      const who = await createUser(t, { role });
      const caller = trpcCaller(t, { id: who.id, role });
      await expect(caller.pricing.presets()).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(caller.pricing.clearPresets()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
    const { headers } = await loginAs(t, Role.Admin);
    const res = await t.app.inject({ method: 'POST', url: '/api/option/clear_preset_prices', headers, payload: {} });
    expect(res.json()).toMatchObject({ success: false });
    expect((await storedMaps()).ModelRatio['gpt-4o-mini']).toBe(0.075);
  });

  it('clearing removes only prices still exactly the shipped presets; edited and added prices stay', async () => {
    const before = await storedMaps();
    // The operator changed gpt-4o's ratio, gpt-4.1's completion ratio and a Claude cache ratio, and added a model.
    await setOption(t, 'ModelRatio', JSON.stringify({ ...before.ModelRatio, 'gpt-4o': 1.5, 'house-model': 2 }));
    await setOption(t, 'CompletionRatio', JSON.stringify({ ...before.CompletionRatio, 'gpt-4.1': 5 }));
    await setOption(t, 'CacheRatio', JSON.stringify({ ...before.CacheRatio, 'claude-3-haiku-20240307': 0.2 }));
    await setOption(t, 'ModelPrice', JSON.stringify({ ...before.ModelPrice, mj_upscale: 0.07 }));

    const listed = (await trpcCaller(t, root).pricing.presets()).models;
    expect(listed).not.toContain('gpt-4o');
    expect(listed).not.toContain('gpt-4.1');
    expect(listed).not.toContain('claude-3-haiku-20240307');
    expect(listed).not.toContain('mj_upscale');
    expect(listed).toHaveLength(SHIPPED_PRICE_COUNT - 4);

    const session = await login(t, root.username, ROOT_PASSWORD);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/option/clear_preset_prices',
      headers: restHeaders(session),
      payload: {},
    });
    const body = res.json<{ success: boolean; data: { cleared: string[] } }>();
    expect(body.success).toBe(true);
    expect(body.data.cleared).toEqual(listed);

    const after = await storedMaps();
    expect(after.ModelRatio).toEqual({
      'gpt-4o': 1.5,
      'gpt-4.1': 1,
      'house-model': 2,
      'claude-3-haiku-20240307': 0.125,
    });
    expect(after.CompletionRatio).toEqual({ 'gpt-4o': 4, 'gpt-4.1': 5, 'claude-3-haiku-20240307': 5 });
    expect(after.CacheRatio).toEqual({ 'claude-3-haiku-20240307': 0.2 });
    expect(after.CacheCreationRatio).toEqual({ 'claude-3-haiku-20240307': 1.25 });
    expect(after.ModelPrice).toEqual({ mj_upscale: 0.07 });

    // gpt-4o-mini now has no price: the operator's list of unpriced models names it, and nothing is left to review.
    const unpriced = await trpcCaller(t, root).pricing.unpriced({ models: ['gpt-4o-mini', 'gpt-4o'] });
    expect(unpriced.models.map((m) => m.model)).toEqual(['gpt-4o-mini']);
    expect(await trpcCaller(t, root).pricing.presets()).toEqual({ models: [], reviewed: true });
  });
});
