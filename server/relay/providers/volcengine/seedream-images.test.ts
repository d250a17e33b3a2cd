import { GoogleGenAI } from '@google/genai';
import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType } from '../../../../shared/channel-types.ts';
import { FAKE_ARK_KEY, type FakeArkImages, startFakeArkImages } from '../../../../scripts/fake-upstream/images/ark.ts';
import { fakePng, labelOf } from '../../../../scripts/fake-upstream/images/shared.ts';
import { payer } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';

/*
 * Seedream and SeedEdit on a VolcEngine channel (type 45, issue 44) through the official `openai` SDK,
 * against the strict Ark image fake: what reaches Ark (no `n`, sizes in Ark's form, input images as
 * data URLs), the pictures the client gets (url or b64_json), one call per picture for n > 1, Ark's
 * refusals as clear errors, and the charge: ModelPrice per picture returned, nothing for a failure.
 */

const S4 = 'doubao-seedream-4-0-250828';
const S3 = 'doubao-seedream-3-0-t2i-250415';
const EDIT = 'doubao-seededit-3-0-i2i-250628';
const PRICE = { [S4]: 0.03, [S3]: 0.02, [EDIT]: 0.025, 'seedream-bad-key': 0.02, 'seedream-fo': 0.02 };
const perImage = (model: keyof typeof PRICE, n = 1) => Math.round(PRICE[model] * 500_000) * n;

let h: RelayHarness;
let ark: FakeArkImages;

const png = (b64: string) => Buffer.from(b64, 'base64');
const failure = (p: Promise<unknown>) => p.catch((e: { status?: number; message?: string }) => e);

/** A Gemini API client (@google/genai) on the gateway: generateContent on an image model. */
const gemini = (key: string) =>
  new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: h.baseURL.replace(/\/v1$/, '') } });
/** The inline pictures of a Gemini answer. */
const inlinePictures = (r: { candidates?: { content?: { parts?: { inlineData?: { data?: string } }[] } }[] }) =>
  (r.candidates ?? [])
    .flatMap((c) => c.content?.parts ?? [])
    .filter((x) => x.inlineData?.data)
    .map((x) => Buffer.from(x.inlineData!.data!, 'base64'));

beforeAll(async () => {
  h = await startRelayHarness();
  ark = await startFakeArkImages();
  await setOptions(h.deps, { ModelPrice: JSON.stringify(PRICE) });
  const ch = { type: ChannelType.VolcEngine, key: FAKE_ARK_KEY, baseUrl: ark.url };
  await insertChannel(h.deps, { ...ch, name: 'ark', models: [S4, S3, EDIT] });
  await insertChannel(h.deps, {
    ...ch,
    name: 'ark-bad-key',
    key: 'ark-wrong-key',
    models: ['seedream-bad-key'],
    modelMapping: { 'seedream-bad-key': S3 },
    autoBan: false,
  });
  for (const name of ['fo-1', 'fo-2'])
    await insertChannel(h.deps, { ...ch, name, models: ['seedream-fo'], modelMapping: { 'seedream-fo': S3 } });
});
afterAll(async () => {
  await ark.close();
  await h.close();
});

describe('Seedream images on a VolcEngine channel', () => {
  it('generates one picture at the asked size, sends Ark its own body and passes its public URL on', async () => {
    const p = await payer(h);
    const before = ark.requests.length;
    const r = await h
      .client(p.key)
      .images.generate({ model: S3, prompt: 'a red fox', size: '1024x768', ...({ seed: 7 } as object) });
    const calls = ark.requests.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0].path).toBe('/api/v3/images/generations');
    expect(calls[0].headers.authorization).toBe(`Bearer ${FAKE_ARK_KEY}`);
    expect(calls[0].body).toEqual({
      model: S3,
      prompt: 'a red fox',
      size: '1024x768',
      seed: 7,
      response_format: 'url',
    });
    expect(r.data).toHaveLength(1);
    const url = r.data![0].url!;
    expect(url.startsWith(`${ark.url}/tos/`)).toBe(true);
    const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(labelOf(bytes)).toMatch(new RegExp(`^ark:${S3}:a red fox:`));
    expect(bytes.readUInt32BE(16)).toBe(1024);
    expect(bytes.readUInt32BE(20)).toBe(768);
    expect(await p.charges()).toEqual([perImage(S3)]);
  });

  it('n = 3 is three Ark calls of one picture each, answered as three different b64 pictures and billed three', async () => {
    const p = await payer(h);
    const before = ark.requests.length;
    const r = await h
      .client(p.key)
      .images.generate({ model: S4, prompt: 'three cats', n: 3, size: '1280x720', response_format: 'b64_json' });
    const calls = ark.requests.slice(before);
    expect(calls.map((c) => c.body)).toEqual(
      Array(3).fill({ model: S4, prompt: 'three cats', size: '1280x720', response_format: 'b64_json' }),
    );
    const labels = r.data!.map((d) => labelOf(png(d.b64_json!)));
    expect(new Set(labels).size).toBe(3);
    for (const l of labels) expect(l).toMatch(new RegExp(`^ark:${S4}:three cats:`));
    expect(await p.charges()).toEqual([perImage(S4, 3)]);
    const [row] = await p.logs();
    expect(JSON.parse(row.other ?? '{}')).toMatchObject({ image_count: 3, image_size: '1280x720' });
  });

  it("Seedream 4's own sizes (2K) and group generation pass through as one call", async () => {
    const p = await payer(h);
    const before = ark.requests.length;
    const r = await h.client(p.key).images.generate({
      model: S4,
      prompt: 'a comic strip',
      size: '2K' as '1024x1024',
      response_format: 'b64_json',
      // Ark's own options, as a client sends them through the OpenAI SDK.
      ...({
        sequential_image_generation: 'auto',
        sequential_image_generation_options: { max_images: 2 },
        watermark: false,
      } as object),
    });
    const calls = ark.requests.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toMatchObject({
      size: '2K',
      sequential_image_generation: 'auto',
      sequential_image_generation_options: { max_images: 2 },
      watermark: false,
    });
    expect(r.data).toHaveLength(2);
    expect(png(r.data![0].b64_json!).readUInt32BE(16)).toBe(2048);
    expect(await p.charges()).toEqual([perImage(S4, 2)]);
  });

  it('n = 2 with a seed draws two different pictures: the second call gets the next seed', async () => {
    const p = await payer(h);
    const before = ark.requests.length;
    await h.client(p.key).images.generate({ model: S3, prompt: 'twins', n: 2, ...({ seed: 41 } as object) });
    expect(
      ark.requests
        .slice(before)
        .map((c) => c.body.seed)
        .sort(),
    ).toEqual([41, 42]);
    expect(await p.charges()).toEqual([perImage(S3, 2)]);
  });

  it('a group picture that fails review is left out and not billed', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).images.generate({
      model: S4,
      prompt: 'unsafe-one storyboard',
      size: '1280x720',
      ...({ sequential_image_generation: 'auto', sequential_image_generation_options: { max_images: 3 } } as object),
    });
    expect(r.data).toHaveLength(2);
    expect(r.data!.every((d) => d.url)).toBe(true);
    expect(await p.charges()).toEqual([perImage(S4, 2)]);
  });

  it('edits an uploaded picture with SeedEdit: the file reaches Ark as a data URL, the answer keeps its size', async () => {
    const p = await payer(h);
    const before = ark.requests.length;
    const input = await toFile(fakePng(640, 480, 'input-photo'), 'photo.png', { type: 'image/png' });
    const r = await h
      .client(p.key)
      .images.edit({ model: EDIT, image: input, prompt: 'make it night', response_format: 'b64_json' });
    const call = ark.requests.slice(before)[0];
    expect(call.body).toMatchObject({ model: EDIT, prompt: 'make it night', size: 'adaptive' });
    expect(String(call.body.image)).toMatch(/^data:image\/png;base64,/);
    expect(call.inputLabels).toEqual(['input-photo']);
    const out = png(r.data![0].b64_json!);
    expect([out.readUInt32BE(16), out.readUInt32BE(20)]).toEqual([640, 480]);
    expect(await p.charges()).toEqual([perImage(EDIT)]);
  });

  it('edits with several reference pictures on Seedream 4 (an array of images)', async () => {
    const p = await payer(h);
    const before = ark.requests.length;
    const files = await Promise.all(
      ['ref-a', 'ref-b'].map((l) => toFile(fakePng(32, 32, l), `${l}.png`, { type: 'image/png' })),
    );
    const r = await h.client(p.key).images.edit({ model: S4, image: files, prompt: 'merge them', size: '1280x720' });
    const call = ark.requests.slice(before)[0];
    expect(Array.isArray(call.body.image)).toBe(true);
    expect(call.inputLabels).toEqual(['ref-a', 'ref-b']);
    expect(r.data).toHaveLength(1);
    expect(await p.charges()).toEqual([perImage(S4)]);
  });

  it('an edit on the text-only Seedream 3 is refused with a clear 400 before any Ark call, charging nothing', async () => {
    const p = await payer(h);
    const before = ark.requests.length;
    const input = await toFile(fakePng(32, 32, 'x'), 'x.png', { type: 'image/png' });
    const e = await failure(h.client(p.key).images.edit({ model: S3, image: input, prompt: 'edit' }));
    expect(e).toMatchObject({ status: 400 });
    expect((e as Error).message).toContain('does not edit images');
    expect(ark.requests.length).toBe(before);
    expect(await p.charges()).toEqual([]);
  });

  it("Ark's content review refusal reaches the client with its code, and nothing is charged", async () => {
    const p = await payer(h);
    const e = await failure(h.client(p.key).images.generate({ model: S3, prompt: 'something sensitive' }));
    expect(e).toMatchObject({ status: 400 });
    expect((e as Error).message).toContain('InputTextSensitiveContentDetected');
    const out = await failure(h.client(p.key).images.generate({ model: S3, prompt: 'an unsafe-output scene' }));
    expect((out as Error).message).toContain('OutputImageSensitiveContentDetected');
    expect(await p.charges()).toEqual([]);
  });

  it('a key Ark refuses is a 401 naming neither the key nor the host, charging nothing', async () => {
    const p = await payer(h);
    const e = await failure(h.client(p.key).images.generate({ model: 'seedream-bad-key', prompt: 'a cat' }));
    expect(e).toMatchObject({ status: 401 });
    expect((e as Error).message).toContain('AuthenticationError');
    expect((e as Error).message).not.toContain('ark-wrong-key');
    expect((e as Error).message).not.toContain(ark.url);
    expect(await p.charges()).toEqual([]);
  });

  it('an Ark 429 fails over to the next channel; one failed call of n = 2 bills only the picture returned', async () => {
    const p = await payer(h);
    ark.failNext(429, 'RateLimitExceeded.EndpointRPMExceeded', 'Too many requests.');
    const r = await h.client(p.key).images.generate({ model: 'seedream-fo', prompt: 'a dog' });
    expect(r.data).toHaveLength(1);
    ark.failNext(500, 'InternalServiceError');
    const two = await h.client(p.key).images.generate({ model: S3, prompt: 'two dogs', n: 2 });
    expect(two.data).toHaveLength(1);
    expect(await p.charges()).toEqual([perImage('seedream-fo'), perImage(S3)]);
  });

  it("a Gemini client (@google/genai generateContent) gets Seedream's picture inline, its 16:9 as Ark's 2K size", async () => {
    const p = await payer(h);
    const before = ark.requests.length;
    const r = await gemini(p.key).models.generateContent({
      model: S4,
      contents: 'a harbour at dawn',
      config: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '16:9' } },
    });
    expect(ark.requests.slice(before).map((c) => c.body)).toEqual([
      expect.objectContaining({ model: S4, prompt: 'a harbour at dawn', size: '2560x1440' }),
    ]);
    const [pic] = inlinePictures(r);
    expect(labelOf(pic)).toMatch(new RegExp(`^ark:${S4}:a harbour at dawn:`));
    expect([pic.readUInt32BE(16), pic.readUInt32BE(20)]).toEqual([2560, 1440]);
    expect(JSON.stringify(r)).not.toContain(ark.url);
    expect(await p.charges()).toEqual([perImage(S4)]);
  });
});
