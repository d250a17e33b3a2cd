import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType } from '../../../../shared/channel-types.ts';
import { startFakeGoogleImages } from '../../../../scripts/fake-upstream/images/google.ts';
import { fakePng, labelOf } from '../../../../scripts/fake-upstream/images/shared.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { FAKE_VERTEX_API_KEY, fakeServiceAccount } from '../../../../scripts/fake-upstream/vertex/index.ts';
import { payer, quotaOf } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';

/*
 * Imagen and Gemini's image models on a Vertex AI channel (type 41, issue 44) through the official
 * `openai` SDK, against the strict Google image fake in its Vertex form: the regional publisher URLs,
 * the bearer token got with the service account's signed JWT (or express mode's API key), Vertex's
 * Imagen 3 negative prompt, the edit's pictures inline, and the charges.
 */

const IMAGEN = 'imagen-4.0-generate-001';
const IMAGEN3 = 'imagen-3.0-generate-001';
const FLASH = 'gemini-2.5-flash-image';
const PRICE = { [IMAGEN]: 0.04, [IMAGEN3]: 0.04, 'vx-express-imagen': 0.04, 'vx-refused': 0.04 };
const R = { model: 15, completion: 8 };
const perImage = (model: keyof typeof PRICE, n = 1) => Math.round(PRICE[model] * 500_000) * n;
const PUBLISHER = '/v1/projects/switchyard-test/locations/us-central1/publishers/google/models';

let h: RelayHarness;
let fake: FakeUpstream;

const png = (b64: string) => Buffer.from(b64, 'base64');
/** The error a call failed with; a call that succeeds fails the test. */
const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('the call succeeded');
    },
    (e: unknown) => e as { status?: number; message: string },
  );
const callsSince = (before: number) => fake.requests.slice(before).filter((r) => r.path !== '/token');

beforeAll(async () => {
  h = await startRelayHarness();
  fake = await startFakeGoogleImages();
  await setOptions(h.deps, {
    ModelPrice: JSON.stringify(PRICE),
    ModelRatio: JSON.stringify({ [FLASH]: R.model }),
    CompletionRatio: JSON.stringify({ [FLASH]: R.completion }),
  });
  const ch = { type: ChannelType.VertexAI, key: fakeServiceAccount(fake.url), other: 'us-central1', baseUrl: fake.url };
  await insertChannel(h.deps, { ...ch, name: 'vertex', models: [IMAGEN, IMAGEN3, FLASH] });
  await insertChannel(h.deps, {
    ...ch,
    name: 'vertex-express',
    key: FAKE_VERTEX_API_KEY,
    models: ['vx-express-imagen'],
    modelMapping: { 'vx-express-imagen': IMAGEN },
  });
  await insertChannel(h.deps, {
    ...ch,
    name: 'vertex-refused',
    key: fakeServiceAccount(fake.url, { refused: true }),
    models: ['vx-refused'],
    modelMapping: { 'vx-refused': IMAGEN },
    autoBan: false,
  });
});
afterAll(async () => {
  await fake.close();
  await h.close();
});

describe('Vertex AI image calls', () => {
  it("Imagen: the regional :predict URL with the service account's bearer token, n = 4 in one call", async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h
      .client(p.key)
      .images.generate({ model: IMAGEN, prompt: 'a harbour', n: 4, size: '1024x768', response_format: 'b64_json' });
    const calls = callsSince(before);
    expect(calls).toHaveLength(1);
    expect(calls[0].path).toBe(`${PUBLISHER}/${IMAGEN}:predict`);
    expect(calls[0].headers.authorization).toMatch(/^Bearer ya29\.fake-/);
    expect(calls[0].headers['x-goog-user-project']).toBe('switchyard-test');
    expect(calls[0].body).toEqual({
      instances: [{ prompt: 'a harbour' }],
      parameters: { sampleCount: 4, includeRaiReason: true, aspectRatio: '4:3' },
    });
    expect(r.data!.map((d) => labelOf(png(d.b64_json!)))).toEqual([0, 1, 2, 3].map((i) => `${IMAGEN}#${i}`));
    expect(await p.charges()).toEqual([perImage(IMAGEN, 4)]);
  });

  it('Imagen 3 -001 takes a negative prompt on Vertex; Imagen 4 refuses it before Google is called', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const negative = { negative_prompt: 'cars' } as object;
    const r = await h
      .client(p.key)
      .images.generate({ model: IMAGEN3, prompt: 'a street', response_format: 'b64_json', ...negative });
    expect(callsSince(before)[0].body.parameters).toMatchObject({ negativePrompt: 'cars' });
    expect(r.data).toHaveLength(1);
    const err = await failure(h.client(p.key).images.generate({ model: IMAGEN, prompt: 'a street', ...negative }));
    expect(err).toMatchObject({ status: 400 });
    expect(err.message).toMatch(/does not take a negative prompt/);
    expect(callsSince(before)).toHaveLength(1);
    expect(await p.charges()).toEqual([perImage(IMAGEN3)]);
  });

  it('gemini-2.5-flash-image edits an uploaded picture through generateContent, billed by its tokens', async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const image = await toFile(fakePng(40, 40, 'vx-photo'), 'photo.png', { type: 'image/png' });
    const r = await h
      .client(p.key)
      .images.edit({ model: FLASH, image, prompt: 'add snow', size: '1024x1024', response_format: 'b64_json' });
    const [call] = callsSince(before);
    expect(call.path).toBe(`${PUBLISHER}/${FLASH}:generateContent`);
    const parts = (call.body.contents as { parts: { text?: string; inlineData?: { data: string } }[] }[])[0].parts;
    expect(parts[0]).toEqual({ text: 'add snow' });
    expect(labelOf(png(parts[1].inlineData!.data))).toBe('vx-photo');
    expect(call.body.generationConfig).toEqual({
      responseModalities: ['TEXT', 'IMAGE'],
      imageConfig: { aspectRatio: '1:1' },
    });
    expect(labelOf(png(r.data![0].b64_json!))).toBe(`${FLASH}#0<vx-photo`);
    // 'add snow' is 2 tokens and the input picture 258; 1290 for the picture and 5 of text out.
    expect(r.usage).toMatchObject({ input_tokens: 260, output_tokens: 1295 });
    expect(await p.charges()).toEqual([quotaOf({ prompt: 260, completion: 1295 }, R)]);
  });

  it("express mode: the project-less URL with the channel's API key", async () => {
    const p = await payer(h);
    const before = fake.requests.length;
    const r = await h
      .client(p.key)
      .images.generate({ model: 'vx-express-imagen', prompt: 'a kite', response_format: 'b64_json' });
    const [call] = callsSince(before);
    expect(call.path).toBe(`/v1/publishers/google/models/${IMAGEN}:predict`);
    expect(call.headers['x-goog-api-key']).toBe(FAKE_VERTEX_API_KEY);
    expect(call.headers.authorization).toBeUndefined();
    expect(r.data).toHaveLength(1);
    expect(await p.charges()).toEqual([perImage('vx-express-imagen')]);
  });

  it('a service account Google refuses: an authentication error without the key, nothing charged', async () => {
    const p = await payer(h);
    const err = await failure(h.client(p.key).images.generate({ model: 'vx-refused', prompt: 'a kite' }));
    expect(err.status).toBe(401);
    expect(err.message).toMatch(/refused the channel's service account/);
    expect(err.message).not.toContain('PRIVATE KEY');
    expect(await p.charges()).toEqual([]);
  });

  it("a filtered Gemini picture on Vertex: a 400 naming Google's reason, nothing charged", async () => {
    const p = await payer(h);
    const err = await failure(h.client(p.key).images.generate({ model: FLASH, prompt: 'a storm [image-safety]' }));
    expect(err).toMatchObject({ status: 400 });
    expect(err.message).toMatch(/IMAGE_SAFETY/);
    expect(await p.charges()).toEqual([]);
  });
});
