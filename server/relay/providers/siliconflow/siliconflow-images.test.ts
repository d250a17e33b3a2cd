import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_SILICONFLOW_KEY,
  type FakeSiliconFlow,
  startFakeSiliconFlow,
} from '../../../../scripts/fake-upstream/images/siliconflow.ts';
import { fakePng, labelOf } from '../../../../scripts/fake-upstream/images/shared.ts';
import { payer } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';

/*
 * SiliconFlow channels (type 40) make pictures through OpenAI's images API, against the strict
 * SiliconFlow fake: `n` as Kolors' batch_size or one call per picture elsewhere, OpenAI's sizes as
 * each model's image_size, Qwen-Image-Edit edits from an uploaded file, links or base64 as asked,
 * and SiliconFlow's refusals charging nothing.
 */

const PRICE = 0.01;
const perImage = (n: number) => Math.round(PRICE * 500_000 * n);
const KOLORS = 'Kwai-Kolors/Kolors';
const FLUX = 'black-forest-labs/FLUX.1-schnell';
const EDIT = 'Qwen/Qwen-Image-Edit';
let h: RelayHarness;
let fake: FakeSiliconFlow;

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeSiliconFlow();
  const models = [KOLORS, FLUX, EDIT, 'sf-bad-key'];
  await setOptions(h.deps, { ModelPrice: JSON.stringify(Object.fromEntries(models.map((m) => [m, PRICE]))) });
  await insertChannel(h.deps, { type: 40, key: FAKE_SILICONFLOW_KEY, baseUrl: fake.url, models: models.slice(0, 3) });
  await insertChannel(h.deps, {
    type: 40,
    key: 'sk-revoked',
    baseUrl: fake.url,
    models: ['sf-bad-key'],
    modelMapping: { 'sf-bad-key': KOLORS },
  });
});
afterAll(async () => {
  await fake?.close();
  await h?.close();
});

const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
const posts = (since: number) => fake.requests.slice(since).filter((r) => r.method === 'POST');
type SdkError = { status?: number; message?: string };

describe('SiliconFlow images (type 40)', () => {
  it('Kolors n = 3 is one call with batch_size 3 and image_size; three different pictures as links, three charged', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h.client(p.key).images.generate({
      model: KOLORS,
      prompt: 'three lanterns',
      n: 3,
      size: '1024x1024',
      // SiliconFlow's own fields ride along (the SDK passes unknown body fields).
      ...({ negative_prompt: 'blurry', seed: 42, num_inference_steps: 20 } as object),
    });
    const sent = posts(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe('/v1/images/generations');
    expect(sent[0].headers.authorization).toBe(`Bearer ${FAKE_SILICONFLOW_KEY}`);
    expect(sent[0].body).toEqual({
      model: KOLORS,
      prompt: 'three lanterns',
      negative_prompt: 'blurry',
      image_size: '1024x1024',
      seed: 42,
      num_inference_steps: 20,
      batch_size: 3,
    });
    const pngs = await Promise.all(r.data!.map(async (d) => Buffer.from(await (await fetch(d.url!)).arrayBuffer())));
    expect(new Set(pngs.map(labelOf)).size).toBe(3);
    expect(await p.charges()).toEqual([perImage(3)]);
    const other = JSON.parse((await p.logs()).at(-1)!.other) as Record<string, unknown>;
    expect(other).toMatchObject({ image_count: 3 });
  });

  it("FLUX.1-schnell takes no batch: n = 2 at 1792x1024 is two calls at FLUX's 1024x576, answered as base64", async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h
      .client(p.key)
      .images.generate({ model: FLUX, prompt: 'a wide sea', n: 2, size: '1792x1024', response_format: 'b64_json' });
    const sent = posts(before);
    expect(sent.map((s) => s.body)).toEqual(
      Array(2).fill({ model: FLUX, prompt: 'a wide sea', image_size: '1024x576' }),
    );
    const pngs = r.data!.map((d) => Buffer.from(d.b64_json!, 'base64'));
    expect(pngs.map(pngSize)).toEqual(Array(2).fill({ width: 1024, height: 576 }));
    expect(new Set(pngs.map(labelOf)).size).toBe(2);
    expect(await p.charges()).toEqual([perImage(2)]);
  });

  it('an edit on Qwen-Image-Edit sends the uploaded picture as a data URI and answers a picture of its size', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const src = fakePng(320, 240, 'my-photo');
    const r = await h.client(p.key).images.edit({
      model: EDIT,
      prompt: 'add a hat',
      image: await toFile(src, 'photo.png', { type: 'image/png' }),
      response_format: 'b64_json',
    });
    expect(posts(before)[0].body).toEqual({
      model: EDIT,
      prompt: 'add a hat',
      image: `data:image/png;base64,${src.toString('base64')}`,
    });
    expect(pngSize(Buffer.from(r.data![0].b64_json!, 'base64'))).toEqual({ width: 320, height: 240 });
    expect(await p.charges()).toEqual([perImage(1)]);
  });

  it('a key SiliconFlow refuses is a 401 with its "Invalid token", and free', async () => {
    const p = await payer(h);
    const err = (await h
      .client(p.key)
      .images.generate({ model: 'sf-bad-key', prompt: 'x' })
      .catch((e: unknown) => e)) as SdkError;
    expect(err.status).toBe(401);
    expect(err.message).toContain('Invalid token');
    expect(err.message).not.toContain('sk-revoked');
    expect(await p.charges()).toEqual([]);
  });
});
