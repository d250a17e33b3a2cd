import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_ZHIPU_V4_KEY,
  type FakeZhipuImages,
  startFakeZhipuImages,
  ZHIPU_UNSAFE,
} from '../../../../scripts/fake-upstream/images/zhipu.ts';
import { labelOf } from '../../../../scripts/fake-upstream/images/shared.ts';
import { payer } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';

/*
 * Zhipu v4 channels (type 26) make CogView pictures through OpenAI's images API, against the strict
 * CogView fake: one call per picture (CogView has no `n`), OpenAI's sizes as CogView's, quality on
 * cogview-4 only, links passed through or turned into base64, and Zhipu's refusals as clear errors
 * that charge nothing.
 */

const PRICE = 0.06;
const perImage = (n: number) => Math.round(PRICE * 500_000 * n);
let h: RelayHarness;
let fake: FakeZhipuImages;

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeZhipuImages();
  const models = ['cogview-4-250304', 'cogview-3-flash', 'cogview-bad-key'];
  await setOptions(h.deps, { ModelPrice: JSON.stringify(Object.fromEntries(models.map((m) => [m, PRICE]))) });
  await insertChannel(h.deps, { type: 26, key: FAKE_ZHIPU_V4_KEY, baseUrl: fake.url, models: models.slice(0, 2) });
  await insertChannel(h.deps, {
    type: 26,
    key: 'wrongid.wrongsecret',
    baseUrl: fake.url,
    models: ['cogview-bad-key'],
    modelMapping: { 'cogview-bad-key': 'cogview-4-250304' },
  });
});
afterAll(async () => {
  await fake?.close();
  await h?.close();
});

const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
const generations = (since: number) => fake.requests.slice(since).filter((r) => r.method === 'POST');
type SdkError = { status?: number; message?: string };

describe('CogView on Zhipu v4 channels (type 26)', () => {
  it('n = 2 is two CogView calls at once; two different pictures, their public links passed through, two charged', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h
      .client(p.key)
      .images.generate({ model: 'cogview-4-250304', prompt: 'a panda', n: 2, size: '1024x1024', quality: 'hd' });
    const sent = generations(before);
    expect(sent.map((s) => s.path)).toEqual(Array(2).fill('/api/paas/v4/images/generations'));
    for (const s of sent) {
      expect(s.headers.authorization).toBe(`Bearer ${FAKE_ZHIPU_V4_KEY}`);
      expect(s.headers['x-switchyard-image-calls']).toBeUndefined();
      expect(s.body).toEqual({ model: 'cogview-4-250304', prompt: 'a panda', size: '1024x1024', quality: 'hd' });
    }
    const urls = r.data!.map((d) => d.url!);
    expect(urls.every((u) => u.startsWith(`${fake.url}/aigc-files/`))).toBe(true);
    const pngs = await Promise.all(urls.map(async (u) => Buffer.from(await (await fetch(u)).arrayBuffer())));
    expect(new Set(pngs.map(labelOf)).size).toBe(2);
    expect(await p.charges()).toEqual([perImage(2)]);
    const other = JSON.parse((await p.logs()).at(-1)!.other) as Record<string, unknown>;
    expect(other).toMatchObject({ image_count: 2 });
  });

  it("OpenAI's 1792x1024 becomes CogView's 1344x768 on cogview-3-flash, which takes no quality; b64_json answers the picture itself", async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h.client(p.key).images.generate({
      model: 'cogview-3-flash',
      prompt: 'a wide valley',
      size: '1792x1024',
      quality: 'hd',
      response_format: 'b64_json',
      user: 'user-12345',
    });
    expect(generations(before)[0].body).toEqual({
      model: 'cogview-3-flash',
      prompt: 'a wide valley',
      size: '1344x768',
      user_id: 'user-12345',
    });
    expect(pngSize(Buffer.from(r.data![0].b64_json!, 'base64'))).toEqual({ width: 1344, height: 768 });
    expect(await p.charges()).toEqual([perImage(1)]);
  });

  it("a prompt Zhipu's safety check refuses is a 400 with Zhipu's reason, and free", async () => {
    const p = await payer(h);
    const err = (await h
      .client(p.key)
      .images.generate({ model: 'cogview-4-250304', prompt: 'something [unsafe]' })
      .catch((e: unknown) => e)) as SdkError;
    expect(err.status).toBe(400);
    expect(err.message).toContain(ZHIPU_UNSAFE.message);
    expect(await p.charges()).toEqual([]);
  });

  it('a key Zhipu refuses is a 401, free, and the key is not shown', async () => {
    const p = await payer(h);
    const err = (await h
      .client(p.key)
      .images.generate({ model: 'cogview-bad-key', prompt: 'x' })
      .catch((e: unknown) => e)) as SdkError;
    expect(err.status).toBe(401);
    expect(err.message).toContain('身份验证失败');
    expect(err.message).not.toContain('wrongsecret');
    expect(await p.charges()).toEqual([]);
  });
});
