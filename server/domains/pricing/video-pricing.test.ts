import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType } from '../../../shared/channel-types.ts';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { insertChannel } from '../../../test/relay-fixtures.ts';
import { loginAs, setupRoot, trpcCaller } from '../../../test/users.ts';

type Item = {
  model_name: string;
  quota_type: number;
  model_price: number;
  unit: string;
  callable: boolean;
  supported_endpoint_types: string[];
};

/*
 * Issue 40: a video model's ModelPrice is per second of video unless VideoPriceUnit names it "job";
 * the pricing endpoints (REST for new-api's consoles and ours, tRPC) say which, as the server decides.
 */
describe('video model pricing', () => {
  let t: TestApp;

  const pricing = async (): Promise<Map<string, Item>> => {
    const res = await t.app.inject({ method: 'GET', url: '/api/pricing' });
    return new Map((res.json().data as Item[]).map((i) => [i.model_name, i]));
  };
  const setOption = async (key: string, value: object) => {
    await t.deps.services.options.update(key, JSON.stringify(value));
  };

  beforeAll(async () => {
    t = await createTestApp();
    await setupRoot(t);
    // A video-only type serves its models whatever their names; on a chat type, the name says video.
    await insertChannel(t.deps, {
      type: ChannelType.Kling,
      key: 'ak|sk',
      baseUrl: 'http://127.0.0.1:9',
      models: ['kling-v2-1', 'my-house-video'],
    });
    await insertChannel(t.deps, {
      type: ChannelType.OpenAI,
      baseUrl: 'http://127.0.0.1:9',
      models: ['sora-2', 'gpt-4o', 'dall-e-3', 'renamed-veo', 'no-price-chat'],
    });
    await setOption('ModelPrice', { 'kling-v2-1': 0.14, 'my-house-video': 0.5, 'sora-2': 0.1, 'dall-e-3': 0.04 });
    await setOption('ModelRatio', { 'gpt-4o': 1.25, 'renamed-veo': 1 });
  });
  afterAll(() => t.close());

  it('prices a video model per second by default, and keeps chat and image models as they were', async () => {
    const by = await pricing();
    expect(by.get('kling-v2-1')).toMatchObject({
      quota_type: 1,
      model_price: 0.14,
      unit: 'second',
      callable: true,
      // new-api's endpoint type for video models, which its model square and our playground read.
      supported_endpoint_types: ['openai-video'],
    });
    // Served by a video-only type: a video model though its name says nothing.
    expect(by.get('my-house-video')).toMatchObject({ quota_type: 1, model_price: 0.5, unit: 'second' });
    // sora-2 on an OpenAI channel: the name says video.
    expect(by.get('sora-2')).toMatchObject({ quota_type: 1, model_price: 0.1, unit: 'second' });
    expect(by.get('gpt-4o')).toMatchObject({ quota_type: 0, unit: 'token' });
    expect(by.get('gpt-4o')?.supported_endpoint_types).not.toContain('openai-video');
    expect(by.get('dall-e-3')).toMatchObject({ quota_type: 1, unit: 'image' });
  });

  it('says "per video" once the operator prices a model per job, on REST and tRPC alike', async () => {
    await setOption('VideoPriceUnit', { 'sora-2': 'job', 'renamed-veo': 'job' });
    const by = await pricing();
    expect(by.get('sora-2')).toMatchObject({ quota_type: 1, model_price: 0.1, unit: 'video' });
    expect(by.get('kling-v2-1')).toMatchObject({ unit: 'second' });
    const viaTrpc = await trpcCaller(t).pricing.list();
    expect(viaTrpc.data.find((i) => i.model_name === 'sora-2')).toMatchObject({ unit: 'video', model_price: 0.1 });
  });

  it('shows a video model without a ModelPrice as not available, as the video relay refuses it', async () => {
    // renamed-veo is named in VideoPriceUnit, so it is a video model; a ModelRatio does not price a video.
    const item = (await pricing()).get('renamed-veo');
    expect(item).toMatchObject({ quota_type: 1, model_price: 0, unit: 'video', callable: false });
    // Even for a user who accepts models without a price: that path does not exist for video.
    const { user } = await loginAs(t, Role.Common);
    await t.deps.db
      .updateTable('users')
      .set({ setting: JSON.stringify({ accept_unset_model_ratio_model: true }) })
      .where('id', '=', Number(user.id))
      .execute();
    const mine = await trpcCaller(t, { id: Number(user.id), role: Role.Common }).pricing.list();
    expect(mine.data.find((i) => i.model_name === 'no-price-chat')).toMatchObject({ callable: true });
    expect(mine.data.find((i) => i.model_name === 'renamed-veo')).toMatchObject({ callable: false });
  });

  it('lists the video models enabled channels serve for the price editor (admins only)', async () => {
    const admin = await loginAs(t, Role.Admin);
    const list = await trpcCaller(t, { id: Number(admin.user.id), role: Role.Admin }).pricing.videoModels();
    expect(list).toEqual(['kling-v2-1', 'my-house-video', 'sora-2']);
    await expect(trpcCaller(t, { id: 99, role: Role.Common }).pricing.videoModels()).rejects.toThrow();
  });
});
