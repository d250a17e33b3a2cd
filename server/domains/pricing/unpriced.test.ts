import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertChannel,
  insertToken,
  insertUser,
  ledger,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';
import { createUser, trpcCaller } from '../../../test/users.ts';

/*
 * Issue 28 item 5: the pricing page and the relay agree on which models can be called, and the
 * operator can list the enabled models that have no price. Real SQLite, a fake OpenAI upstream on
 * loopback and the official openai SDK against the relay.
 */

const PRICED = 'gpt-4o-mini'; // in the default ModelRatio
const UNPRICED = 'house-model';
const IMAGE = 'flux-pro';
const PER_IMAGE_USD = 0.05;

describe('models without a price', () => {
  let h: RelayHarness;
  let key: string;
  let userId: number;
  let tokenId: number;
  let channelId: number;

  const pricing = async () => (await trpcCaller(h.t).pricing.list()).data;
  const item = async (model: string) => (await pricing()).find((p) => p.model_name === model);
  const admin = () => trpcCaller(h.t, { id: 1, role: 100 });
  const chat = (client: OpenAI, model: string) =>
    client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });

  beforeAll(async () => {
    h = await startRelayHarness();
    await setOptions(h.deps, { ModelPrice: JSON.stringify({ [IMAGE]: PER_IMAGE_USD, mj_imagine: 0.1 }) });
    channelId = await insertChannel(h.deps, {
      name: 'local upstream',
      baseUrl: h.fake.url,
      models: [PRICED, UNPRICED, IMAGE],
    });
    const user = await insertUser(h.deps, { quota: 10_000_000 });
    const token = await insertToken(h.deps, user.id, { unlimited: true });
    key = token.key;
    userId = user.id;
    tokenId = token.id;
    h.t.deps.services.pricing.invalidate();
  });
  afterAll(() => h.close());

  it('selling mode: the page marks the unpriced model not callable, and the relay refuses exactly that one', async () => {
    const data = await pricing();
    expect(data.find((p) => p.model_name === UNPRICED)).toMatchObject({
      price_source: 'unset',
      callable: false,
      model_ratio: 0,
      model_price: 0,
    });
    expect(data.find((p) => p.model_name === PRICED)).toMatchObject({ price_source: 'model', callable: true });

    const client = h.client(key);
    const refused = await chat(client, UNPRICED).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((refused as InstanceType<typeof OpenAI.PermissionDeniedError>).status).toBe(403);
    expect(String((refused as Error).message)).toMatch(/no ratio or price is set|倍率或价格未配置/i);

    const ok = await chat(client, PRICED);
    expect(ok.choices[0].message.content).toBeTruthy();
  });

  it('a fixed price of an image model is per image: the page says so and n images cost n times the price', async () => {
    expect(await item(IMAGE)).toMatchObject({ quota_type: 1, model_price: PER_IMAGE_USD, unit: 'image' });
    // A fixed price of any other model is per call.
    await insertChannel(h.deps, { name: 'mj', baseUrl: h.fake.url, models: ['mj_imagine'] });
    h.t.deps.services.pricing.invalidate();
    expect(await item('mj_imagine')).toMatchObject({ quota_type: 1, unit: 'call' });

    await h.drain();
    const before = (await ledger(h.deps, userId, tokenId)).logQuota;
    const res = await h.client(key).images.generate({ model: IMAGE, prompt: 'a lighthouse', n: 3 });
    expect(res.data).toHaveLength(3);
    await h.drain();
    const charged = (await ledger(h.deps, userId, tokenId)).logQuota - before;
    expect(charged).toBe(Math.round(PER_IMAGE_USD * 500_000) * 3);
  });

  it('lists the enabled models without a price, with their channels, for admins only', async () => {
    const all = await admin().pricing.unpriced();
    expect(all.outcome).toBe('refused');
    expect(all.models).toEqual([{ model: UNPRICED, channels: [{ id: channelId, name: 'local upstream' }] }]);

    // A channel form's list before saving: only the names without a price, trimmed and once each.
    const some = await admin().pricing.unpriced({ models: [PRICED, ' brand-new ', 'brand-new', IMAGE, UNPRICED] });
    expect(some.models.map((m) => m.model)).toEqual(['brand-new', UNPRICED]);
    expect(some.models[0].channels).toEqual([]);

    const u = await createUser(h.t);
    await expect(trpcCaller(h.t, { id: u.id, role: 1 }).pricing.unpriced()).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(trpcCaller(h.t).pricing.unpriced()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('a price set through the options makes the model callable on the page and in the relay at once', async () => {
    await setOptions(h.deps, {
      ModelRatio: JSON.stringify({ ...h.deps.services.options.get('ModelRatio'), [UNPRICED]: 0.5 }),
    });
    expect(await item(UNPRICED)).toMatchObject({ price_source: 'model', callable: true, model_ratio: 0.5 });
    expect((await admin().pricing.unpriced()).models).toEqual([]);
    expect((await chat(h.client(key), UNPRICED)).choices).toHaveLength(1);
    const ratios = { ...h.deps.services.options.get('ModelRatio') };
    delete ratios[UNPRICED];
    await setOptions(h.deps, { ModelRatio: JSON.stringify(ratios) });
    expect(await item(UNPRICED)).toMatchObject({ callable: false });
  });

  it('a user who accepts models without a price sees them callable, and the relay serves them', async () => {
    const user = await insertUser(h.deps, { quota: 1_000_000, setting: { accept_unset_model_ratio_model: true } });
    const token = await insertToken(h.deps, user.id, { unlimited: true });
    const mine = await trpcCaller(h.t, { id: user.id, role: 1 }).pricing.list();
    expect(mine.data.find((p) => p.model_name === UNPRICED)).toMatchObject({ price_source: 'unset', callable: true });
    expect((await chat(h.client(token.key), UNPRICED)).choices).toHaveLength(1);
    // Visitors still see it as not callable.
    expect(await item(UNPRICED)).toMatchObject({ callable: false });
  });

  it('fallback pricing: the model shows the fallback price and the relay bills it', async () => {
    // The price first: the fallback cannot be switched on without one.
    await setOptions(h.deps, { fallback_single_price: '0.02', fallback_pricing_enabled: 'true' });
    try {
      expect(await item(UNPRICED)).toMatchObject({
        price_source: 'fallback',
        callable: true,
        quota_type: 1,
        model_price: 0.02,
        unit: 'call',
      });
      expect((await admin().pricing.unpriced()).outcome).toBe('fallback');
      await h.drain();
      const before = (await ledger(h.deps, userId, tokenId)).logQuota;
      await chat(h.client(key), UNPRICED);
      await h.drain();
      expect((await ledger(h.deps, userId, tokenId)).logQuota - before).toBe(10_000);
    } finally {
      await setOptions(h.deps, { fallback_pricing_enabled: 'false', fallback_single_price: '0' });
    }
  });

  it('self-use mode: no price needed, the model is callable for free', async () => {
    await setOptions(h.deps, { SelfUseModeEnabled: 'true' });
    try {
      expect(await item(UNPRICED)).toMatchObject({ price_source: 'self_use', callable: true, model_ratio: 0 });
      expect((await admin().pricing.unpriced()).outcome).toBe('free');
      await h.drain();
      const before = (await ledger(h.deps, userId, tokenId)).logQuota;
      expect((await chat(h.client(key), UNPRICED)).choices).toHaveLength(1);
      await h.drain();
      expect((await ledger(h.deps, userId, tokenId)).logQuota - before).toBe(0);
    } finally {
      await setOptions(h.deps, { SelfUseModeEnabled: 'false' });
    }
  });

  it('audio models show their audio ratios, which the billing applies to audio tokens', async () => {
    await setOptions(h.deps, {
      AudioRatio: JSON.stringify({ [PRICED]: 8 }),
      AudioCompletionRatio: JSON.stringify({ [PRICED]: 2 }),
    });
    try {
      expect(await item(PRICED)).toMatchObject({ unit: 'token', audio_ratio: 8, audio_completion_ratio: 2 });
    } finally {
      await setOptions(h.deps, { AudioRatio: '{}', AudioCompletionRatio: '{}' });
    }
    expect((await item(PRICED))?.audio_ratio).toBeUndefined();
  });
});
