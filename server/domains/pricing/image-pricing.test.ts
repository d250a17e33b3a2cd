import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType } from '../../../shared/channel-types.ts';
import { Role } from '../../../shared/constants.ts';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { insertChannel } from '../../../test/relay-fixtures.ts';
import { setupRoot, trpcCaller } from '../../../test/users.ts';

type Item = {
  model_name: string;
  quota_type: number;
  model_price: number;
  unit: string;
  supported_endpoint_types: string[];
};

/*
 * Issue 44: every image upstream's models read "per image" on the pricing page when they have a fixed
 * price, and Jimeng's image req_keys, served by a video-only channel type, are not video models.
 */
describe('image model pricing', () => {
  let t: TestApp;

  const pricing = async (): Promise<Map<string, Item>> => {
    const res = await t.app.inject({ method: 'GET', url: '/api/pricing' });
    return new Map((res.json().data as Item[]).map((i) => [i.model_name, i]));
  };

  const IMAGE_MODELS = [
    'imagen-4.0-generate-001',
    'gemini-2.5-flash-image',
    'grok-2-image-1212',
    'image-01',
    'doubao-seedream-4-0-250828',
    'doubao-seededit-3-0-i2i-250628',
    'Qwen/Qwen-Image',
    'black-forest-labs/flux-schnell',
    'Kwai-Kolors/Kolors',
    'cogview-4',
  ];

  beforeAll(async () => {
    t = await createTestApp();
    await setupRoot(t);
    await insertChannel(t.deps, {
      type: ChannelType.Jimeng,
      key: 'ak|sk',
      baseUrl: 'http://127.0.0.1:9',
      models: ['jimeng_t2i_v40', 'jimeng_i2i_v30', 'jimeng_vgfm_t2v_l20'],
    });
    await insertChannel(t.deps, {
      type: ChannelType.OpenAI,
      baseUrl: 'http://127.0.0.1:9',
      models: [...IMAGE_MODELS, 'gpt-4o', 'gemini-2.5-flash'],
    });
    const prices = Object.fromEntries(
      [...IMAGE_MODELS, 'jimeng_t2i_v40', 'jimeng_i2i_v30', 'jimeng_vgfm_t2v_l20'].map((m) => [m, 0.04]),
    );
    await t.deps.services.options.update('ModelPrice', JSON.stringify(prices));
    // Token-billed image output (Gemini's image models can be): a ModelRatio instead reads per token.
    await t.deps.services.options.update('ModelRatio', JSON.stringify({ 'gpt-4o': 1.25, 'gemini-2.5-flash': 0.15 }));
  });
  afterAll(() => t.close());

  it('prices the image models of every image upstream per image, called through the images API', async () => {
    const by = await pricing();
    for (const m of IMAGE_MODELS)
      expect(by.get(m), m).toMatchObject({ quota_type: 1, model_price: 0.04, unit: 'image' });
    expect(by.get('imagen-4.0-generate-001')?.supported_endpoint_types).toContain('image-generation');
    // A chat model of the same family stays a chat model.
    expect(by.get('gemini-2.5-flash')).toMatchObject({ quota_type: 0, unit: 'token' });
  });

  it("lists Jimeng's image req_keys per image, not per second of video, while its video models stay video", async () => {
    const by = await pricing();
    expect(by.get('jimeng_t2i_v40')).toMatchObject({ quota_type: 1, unit: 'image' });
    expect(by.get('jimeng_i2i_v30')).toMatchObject({ quota_type: 1, unit: 'image' });
    expect(by.get('jimeng_t2i_v40')?.supported_endpoint_types).not.toContain('openai-video');
    expect(by.get('jimeng_vgfm_t2v_l20')).toMatchObject({ unit: 'second', supported_endpoint_types: ['openai-video'] });
    // The price editor's "per second / per video" list leaves the image req_keys out too.
    const video = await trpcCaller(t, { id: 1, role: Role.Root }).pricing.videoModels();
    expect(video).toContain('jimeng_vgfm_t2v_l20');
    expect(video).not.toContain('jimeng_t2i_v40');
  });
});
