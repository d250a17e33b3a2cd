import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType } from '../../../../shared/channel-types.ts';
import { FAKE_GEMINI_IMAGE_KEY, startFakeGoogleImages } from '../../../../scripts/fake-upstream/images/google.ts';
import { fakePng, labelOf } from '../../../../scripts/fake-upstream/images/shared.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { payer, quotaOf } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';

/*
 * Imagen and Gemini's image models on a Gemini channel (type 24, issue 44) through the official
 * `openai` SDK, against the strict Google image fake: what reaches Google (Imagen's :predict body,
 * generateContent with image output and the edit's pictures inline), the pictures the client gets,
 * Google's refusals as clear errors charging nothing, and the charge: ModelPrice per Imagen picture,
 * the reported tokens for a Gemini image model priced by ModelRatio.
 */

const IMAGEN = 'imagen-4.0-generate-001';
const ULTRA = 'imagen-4.0-ultra-generate-001';
const FLASH = 'gemini-2.5-flash-image';
const PRICE = { [IMAGEN]: 0.04, [ULTRA]: 0.06, 'imagen-bad-key': 0.04, 'imagen-fo': 0.04, 'ultra-flaky': 0.06 };
const R = { model: 15, completion: 8 }; // $30 per million output tokens: gemini-2.5-flash-image's price
const perImage = (model: keyof typeof PRICE, n = 1) => Math.round(PRICE[model] * 500_000) * n;

let h: RelayHarness;
let fake: FakeUpstream;

const png = (b64: string) => Buffer.from(b64, 'base64');
const dims = (b: Buffer) => [b.readUInt32BE(16), b.readUInt32BE(20)];
/** The error a call failed with; a call that succeeds fails the test. */
const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('the call succeeded');
    },
    (e: unknown) => e as { status?: number; message: string },
  );
const callsSince = (before: number) => fake.requests.slice(before);

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeGoogleImages();
  await setOptions(h.deps, {
    ModelPrice: JSON.stringify(PRICE),
    ModelRatio: JSON.stringify({ [FLASH]: R.model }),
    CompletionRatio: JSON.stringify({ [FLASH]: R.completion }),
  });
  const ch = { type: ChannelType.Gemini, key: FAKE_GEMINI_IMAGE_KEY, baseUrl: fake.url };
  await insertChannel(h.deps, { ...ch, name: 'gemini', models: [IMAGEN, ULTRA, FLASH] });
  await insertChannel(h.deps, {
    ...ch,
    name: 'gemini-bad-key',
    key: 'AIzaSy-revoked',
    models: ['imagen-bad-key'],
    modelMapping: { 'imagen-bad-key': IMAGEN },
    autoBan: false,
  });
  // A busy channel first (higher priority), then one that answers.
  await insertChannel(h.deps, {
    ...ch,
    name: 'gemini-busy',
    models: ['imagen-fo'],
    modelMapping: { 'imagen-fo': `${IMAGEN}+overloaded` },
    priority: 10,
    autoBan: false,
  });
  await insertChannel(h.deps, {
    ...ch,
    name: 'gemini-spare',
    models: ['imagen-fo'],
    modelMapping: { 'imagen-fo': IMAGEN },
  });
  await insertChannel(h.deps, {
    ...ch,
    name: 'gemini-flaky',
    models: ['ultra-flaky'],
    modelMapping: { 'ultra-flaky': `${ULTRA}+busy-every-other` },
    autoBan: false,
  });
});
afterAll(async () => {
  await fake.close();
  await h.close();
});

describe('Imagen on a Gemini channel', () => {
  it('one picture: :predict with the nearest aspect ratio, the picture in b64, ModelPrice charged once', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h
      .client(p.key)
      .images.generate({ model: IMAGEN, prompt: 'a lighthouse', size: '1792x1024', response_format: 'b64_json' });
    const [call] = callsSince(before);
    expect(call.path).toBe(`/v1beta/models/${IMAGEN}:predict`);
    expect(call.headers['x-goog-api-key']).toBe(FAKE_GEMINI_IMAGE_KEY);
    expect(call.body).toEqual({
      instances: [{ prompt: 'a lighthouse' }],
      parameters: { sampleCount: 1, includeRaiReason: true, aspectRatio: '16:9', imageSize: '2K' },
    });
    expect(r.data).toHaveLength(1);
    const picture = png(r.data![0].b64_json!);
    expect(labelOf(picture)).toBe(`${IMAGEN}#0`);
    expect(dims(picture)).toEqual([2816, 1536]); // 16:9 at 2K
    expect(await p.charges()).toEqual([perImage(IMAGEN)]);
    const [log] = await p.logs();
    expect(JSON.parse(log.other ?? '{}')).toMatchObject({ image_count: 1, image_size: '1792x1024' });
  });

  it('n = 4 is one call of sampleCount 4: four different pictures, person generation and jpeg passed on, charged four', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h.client(p.key).images.generate({
      model: IMAGEN,
      prompt: 'four seasons',
      n: 4,
      size: '1024x1024',
      output_format: 'jpeg',
      response_format: 'b64_json',
      ...({ person_generation: 'dont_allow' } as object),
    });
    const calls = callsSince(before);
    expect(calls).toHaveLength(1);
    expect(calls[0].body.parameters).toEqual({
      sampleCount: 4,
      includeRaiReason: true,
      aspectRatio: '1:1',
      personGeneration: 'dont_allow',
      outputOptions: { mimeType: 'image/jpeg' },
    });
    const labels = r.data!.map((d) => labelOf(png(d.b64_json!)));
    expect(labels).toEqual([0, 1, 2, 3].map((i) => `${IMAGEN}#${i}`));
    expect(await p.charges()).toEqual([perImage(IMAGEN, 4)]);
  });

  it('Ultra makes one picture a call: n = 2 is two calls, answered and charged as two pictures', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h
      .client(p.key)
      .images.generate({ model: ULTRA, prompt: 'a glacier', n: 2, size: '1024x1536', response_format: 'b64_json' });
    const calls = callsSince(before);
    expect(calls.map((c) => (c.body.parameters as { sampleCount: number; aspectRatio: string }).sampleCount)).toEqual([
      1, 1,
    ]);
    expect((calls[0].body.parameters as { aspectRatio: string }).aspectRatio).toBe('3:4');
    expect(r.data).toHaveLength(2);
    expect(await p.charges()).toEqual([perImage(ULTRA, 2)]);
  });

  it('one of two parallel Ultra calls failing: the other picture is answered and only it is charged', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h
      .client(p.key)
      .images.generate({ model: 'ultra-flaky', prompt: 'a canyon', n: 2, response_format: 'b64_json' });
    expect(callsSince(before)).toHaveLength(2);
    expect(r.data).toHaveLength(1);
    expect(await p.charges()).toEqual([perImage('ultra-flaky')]);
  });

  it('a picture filtered out of four is not charged: three pictures, three charged', async () => {
    const p = await payer(h);
    const r = await h
      .client(p.key)
      .images.generate({ model: IMAGEN, prompt: 'a crowd [filter-one]', n: 4, response_format: 'b64_json' });
    expect(r.data).toHaveLength(3);
    expect(await p.charges()).toEqual([perImage(IMAGEN, 3)]);
  });

  it("every picture filtered: a 400 with Google's reason, nothing charged", async () => {
    const p = await payer(h);
    const err = await failure(h.client(p.key).images.generate({ model: IMAGEN, prompt: 'a crowd [filtered]', n: 2 }));
    expect(err).toMatchObject({ status: 400 });
    expect(err.message).toMatch(/Google drew no picture: .*usage guidelines/);
    expect(await p.charges()).toEqual([]);
  });

  it('an Imagen edit, or a negative prompt the Gemini API does not take, is refused before any Google call', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const image = await toFile(fakePng(32, 32, 'photo'), 'photo.png', { type: 'image/png' });
    const edit = await failure(h.client(p.key).images.edit({ model: IMAGEN, image, prompt: 'add a boat' }));
    expect(edit).toMatchObject({ status: 400 });
    expect(edit.message).toMatch(/only generates pictures: edit with a Gemini image model/);
    const negative = await failure(
      h.client(p.key).images.generate({
        model: IMAGEN,
        prompt: 'a meadow',
        ...({ negative_prompt: 'people' } as object),
      }),
    );
    expect(negative).toMatchObject({ status: 400 });
    expect(negative.message).toMatch(/does not take a negative prompt/);
    expect(callsSince(before)).toHaveLength(0);
    expect(await p.charges()).toEqual([]);
  });

  it("Google's 503 fails over to the next channel, which draws and is the only one charged", async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h
      .client(p.key)
      .images.generate({ model: 'imagen-fo', prompt: 'a mill', response_format: 'b64_json' });
    expect(callsSince(before).map((c) => c.path)).toEqual([
      `/v1beta/models/${IMAGEN}+overloaded:predict`,
      `/v1beta/models/${IMAGEN}:predict`,
    ]);
    expect(labelOf(png(r.data![0].b64_json!))).toBe(`${IMAGEN}#0`);
    expect(await p.charges()).toEqual([perImage('imagen-fo')]);
  });

  it("a revoked key: Google's refusal, neither the key nor Google's address shown, nothing charged", async () => {
    const p = await payer(h);
    const err = await failure(h.client(p.key).images.generate({ model: 'imagen-bad-key', prompt: 'a fox' }));
    // Google answers a wrong key with 400 (ErrorInfo API_KEY_INVALID), passed on as for chat.
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/API key not valid/);
    expect(err.message).not.toContain('AIzaSy-revoked');
    expect(err.message).not.toContain(fake.url);
    expect(await p.charges()).toEqual([]);
  });
});

describe("Gemini's image models on a Gemini channel", () => {
  it('generates through generateContent with image output; the tokens Google reports are billed', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h
      .client(p.key)
      .images.generate({ model: FLASH, prompt: 'a paper boat', size: '1536x1024', response_format: 'b64_json' });
    const [call] = callsSince(before);
    expect(call.path).toBe(`/v1beta/models/${FLASH}:generateContent`);
    expect(call.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'a paper boat' }] }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { aspectRatio: '3:2' } },
    });
    const picture = png(r.data![0].b64_json!);
    expect(labelOf(picture)).toBe(`${FLASH}#0`);
    expect(dims(picture)).toEqual([1248, 832]);
    // 1290 image tokens and the fake's 5 text tokens; the prompt's 12 characters are 3 tokens.
    expect(r.usage).toMatchObject({ input_tokens: 3, output_tokens: 1295, total_tokens: 1298 });
    expect(await p.charges()).toEqual([quotaOf({ prompt: 3, completion: 1295 }, R)]);
  });

  it('edits an uploaded picture and its mask: both reach Google as inline parts, the answer is drawn from them', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const image = await toFile(fakePng(64, 48, 'my-photo'), 'photo.png', { type: 'image/png' });
    const mask = await toFile(fakePng(64, 48, 'my-mask'), 'mask.png', { type: 'image/png' });
    const r = await h
      .client(p.key)
      .images.edit({ model: FLASH, image, mask, prompt: 'paint the sky red', response_format: 'b64_json' });
    const [call] = callsSince(before);
    const parts = (
      call.body.contents as { parts: { text?: string; inlineData?: { mimeType: string; data: string } }[] }[]
    )[0].parts;
    expect(parts[0]).toEqual({ text: 'paint the sky red' });
    const inline = parts.filter((x) => x.inlineData).map((x) => x.inlineData!);
    expect(inline.map((d) => d.mimeType)).toEqual(['image/png', 'image/png']);
    expect(inline.map((d) => labelOf(png(d.data)))).toEqual(['my-photo', 'my-mask']);
    expect(labelOf(png(r.data![0].b64_json!))).toBe(`${FLASH}#0<my-photo,my-mask`);
    expect(await p.charges()).toHaveLength(1);
  });

  it('n = 2 is two calls (one candidate each): two pictures, the usage of both billed', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h.client(p.key).images.generate({ model: FLASH, prompt: 'twin kites', n: 2 });
    expect(callsSince(before)).toHaveLength(2);
    expect(r.data).toHaveLength(2);
    expect(r.usage).toMatchObject({ input_tokens: 6, output_tokens: 2590 });
    expect(await p.charges()).toEqual([quotaOf({ prompt: 6, completion: 2590 }, R)]);
  });

  it('a picture as a link: the gateway serves it without showing Google', async () => {
    const p = await payer(h);
    const r = await h.client(p.key).images.generate({ model: FLASH, prompt: 'a link please', response_format: 'url' });
    const url = r.data![0].url!;
    expect(url).not.toContain(fake.url);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(labelOf(Buffer.from(await res.arrayBuffer()))).toBe(`${FLASH}#0`);
  });

  it('IMAGE_SAFETY, NO_IMAGE and a blocked prompt: clear 400s naming the reason, nothing charged', async () => {
    const p = await payer(h);
    const cases = [
      ['a beach [image-safety]', /stopped without one \(IMAGE_SAFETY\)/],
      ['a beach [no-image]', /stopped without one \(NO_IMAGE\)/],
      ['a beach [blocked]', /the prompt was blocked \(SAFETY\)/],
    ] as const;
    for (const [prompt, why] of cases) {
      const err = await failure(h.client(p.key).images.generate({ model: FLASH, prompt }));
      expect(err).toMatchObject({ status: 400 });
      expect(err.message).toMatch(why);
    }
    expect(await p.charges()).toEqual([]);
  });
});
