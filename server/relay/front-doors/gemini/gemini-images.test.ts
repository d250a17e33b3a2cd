import { GoogleGenAI, type GenerateContentResponse } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_GEMINI_IMAGE_KEY, startFakeGoogleImages } from '../../../../scripts/fake-upstream/images/google.ts';
import { type FakeOpenAIImages, startFakeOpenAIImages } from '../../../../scripts/fake-upstream/images/openai.ts';
import { fakePng, labelOf } from '../../../../scripts/fake-upstream/images/shared.ts';
import type { FakeUpstream } from '../../../../scripts/fake-upstream/server.ts';
import { payer } from '../../../../test/provider-fixtures.ts';
import { insertChannel, type RelayHarness, setOptions, startRelayHarness } from '../../../../test/relay-fixtures.ts';

/*
 * Google's clients asking pictures through the gateway (issue 44) with the official @google/genai:
 * generateContent with image output and generateImages (Imagen's :predict, which the SDK sends on
 * Vertex AI's paths), on an OpenAI channel (the strict OpenAI images fake) and on a Gemini channel
 * (the strict Google images fake: gemini-*-image natively, Imagen through its image upstream).
 */

let h: RelayHarness;
let openai: FakeOpenAIImages;
let google: FakeUpstream;
const UNIT = 500_000;
const PRICE = { 'dall-e-3': 0.04, 'gemini-2.5-flash-image': 0.039, 'imagen-4.0-generate-001': 0.04 };
const R = { model: 2.5, completion: 8 };

beforeAll(async () => {
  h = await startRelayHarness();
  openai = await startFakeOpenAIImages();
  google = await startFakeGoogleImages();
  await setOptions(h.deps, {
    ModelPrice: JSON.stringify(PRICE),
    ModelRatio: JSON.stringify({ 'gpt-image-1': R.model, 'gemini-2.5-flash-image-preview': R.model }),
    CompletionRatio: JSON.stringify({ 'gpt-image-1': R.completion, 'gemini-2.5-flash-image-preview': R.completion }),
  });
  await insertChannel(h.deps, { type: 1, baseUrl: openai.url, key: 'sk-openai', models: ['dall-e-3', 'gpt-image-1'] });
  await insertChannel(h.deps, {
    type: 24,
    baseUrl: google.url,
    key: FAKE_GEMINI_IMAGE_KEY,
    models: ['gemini-2.5-flash-image', 'gemini-2.5-flash-image-preview', 'imagen-4.0-generate-001'],
  });
});
afterAll(async () => {
  await h.close();
  await openai.close();
  await google.close();
});

const gateway = () => h.baseURL.replace(/\/v1$/, '');
/** The Gemini API's client (generateContent). */
// In English: the relay answers Chinese by default (issue 45) and these tests read its English wording.
const gemini = (key: string) =>
  new GoogleGenAI({
    apiKey: key,
    httpOptions: { baseUrl: gateway(), headers: { 'accept-language': 'en-US,en;q=0.9' } },
  });
/** Vertex AI express mode's client: @google/genai sends generateImages only there. */
const vertex = (key: string) => new GoogleGenAI({ vertexai: true, apiKey: key, httpOptions: { baseUrl: gateway() } });

/** The pictures of an answer's parts: their labels and pixel sizes. */
function pictures(r: GenerateContentResponse) {
  return (r.candidates ?? [])
    .flatMap((c) => c.content?.parts ?? [])
    .filter((p) => p.inlineData)
    .map((p) => {
      const png = Buffer.from(p.inlineData!.data!, 'base64');
      return {
        mime: p.inlineData!.mimeType,
        label: labelOf(png),
        width: png.readUInt32BE(16),
        height: png.readUInt32BE(20),
      };
    });
}

const leaks = (value: unknown) => {
  const text = JSON.stringify(value);
  expect(text).not.toContain(openai.url);
  expect(text).not.toContain(google.url);
  expect(text).not.toContain(FAKE_GEMINI_IMAGE_KEY);
};

describe('Gemini door: generateContent on an image model', () => {
  it('dall-e-3 on an OpenAI channel: the picture as an inline part, the 16:9 ratio as its wide size, charged per image', async () => {
    const p = await payer(h);
    const r = await gemini(p.key).models.generateContent({
      model: 'dall-e-3',
      contents: 'a red fox in the snow',
      config: { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { aspectRatio: '16:9' } },
    });
    expect(pictures(r)).toEqual([{ mime: 'image/png', label: 'dall-e-3#0', width: 1792, height: 1024 }]);
    expect(r.candidates?.[0]?.finishReason).toBe('STOP');
    // dall-e-3 gave its revised prompt: the text part before the picture.
    expect(r.text).toBe('a red fox in the snow');
    expect(openai.state.seen.at(-1)!.fields).toEqual({
      model: 'dall-e-3',
      prompt: 'a red fox in the snow',
      n: 1,
      size: '1792x1024',
      response_format: 'b64_json',
    });
    leaks(r);
    const [charge] = await p.charges();
    // dall-e-3 standard at 1792x1024 costs OpenAI 0.08 against 0.04 at 1024x1024.
    expect(charge).toBe(Math.round(PRICE['dall-e-3'] * UNIT * 2));
  });

  it('gpt-image-1 with an input picture is an edit; its token usage is billed by the model ratio', async () => {
    const p = await payer(h);
    const input = fakePng(64, 64, 'my-cat');
    const r = await gemini(p.key).models.generateContent({
      model: 'gpt-image-1',
      contents: [
        {
          role: 'user',
          parts: [{ inlineData: { mimeType: 'image/png', data: input.toString('base64') } }, { text: 'give it a hat' }],
        },
      ],
    });
    expect(pictures(r).map((x) => x.label)).toEqual(['gpt-image-1:edit(my-cat)#0']);
    const seen = openai.state.seen.at(-1)!;
    expect(seen.path).toBe('/images/edits');
    expect(seen.inputs).toEqual(['my-cat']);
    expect(seen.fields).toMatchObject({ model: 'gpt-image-1', prompt: 'give it a hat', n: '1' });
    const u = r.usageMetadata!;
    expect(u.candidatesTokenCount).toBe(1056);
    expect(u.promptTokenCount).toBeGreaterThan(0);
    expect(await p.charges()).toEqual([
      Math.round((u.promptTokenCount! + u.candidatesTokenCount! * R.completion) * R.model),
    ]);
  });

  it("a follow-up turn without a picture edits the conversation's last picture (a Gemini chat refining its answer)", async () => {
    const p = await payer(h);
    const earlier = fakePng(64, 64, 'first-draft').toString('base64');
    const r = await gemini(p.key).models.generateContent({
      model: 'gpt-image-1',
      contents: [
        { role: 'user', parts: [{ text: 'a cat' }] },
        { role: 'model', parts: [{ inlineData: { mimeType: 'image/png', data: earlier } }] },
        { role: 'user', parts: [{ text: 'now make it blue' }] },
      ],
      config: { responseModalities: ['IMAGE'] },
    });
    expect(pictures(r).map((x) => x.label)).toEqual(['gpt-image-1:edit(first-draft)#0']);
    const seen = openai.state.seen.at(-1)!;
    expect([seen.path, seen.fields.prompt, seen.inputs]).toEqual([
      '/images/edits',
      'now make it blue',
      ['first-draft'],
    ]);
    expect(await p.charges()).toHaveLength(1);
  });

  it('streamGenerateContent answers the pictures in one SSE event', async () => {
    const p = await payer(h);
    const chunks: GenerateContentResponse[] = [];
    for await (const c of await gemini(p.key).models.generateContentStream({
      model: 'dall-e-3',
      contents: 'a lighthouse',
    }))
      chunks.push(c);
    expect(chunks).toHaveLength(1);
    expect(pictures(chunks[0]).map((x) => [x.label, x.width])).toEqual([['dall-e-3#0', 1024]]);
    expect(await p.charges()).toEqual([Math.round(PRICE['dall-e-3'] * UNIT)]);
  });

  it('gemini-2.5-flash-image on a Gemini channel goes as the client sent it; the picture it returns is charged', async () => {
    const p = await payer(h);
    const r = await gemini(p.key).models.generateContent({
      model: 'gemini-2.5-flash-image',
      contents: 'a banana boat',
      config: { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { aspectRatio: '4:3' } },
    });
    const sent = google.requests.at(-1)!;
    expect(sent.path).toBe('/v1beta/models/gemini-2.5-flash-image:generateContent');
    expect(sent.body).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'a banana boat' }] }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'], imageConfig: { aspectRatio: '4:3' } },
    });
    expect(pictures(r)).toEqual([{ mime: 'image/png', label: 'gemini-2.5-flash-image#0', width: 1184, height: 864 }]);
    expect(r.usageMetadata?.candidatesTokenCount).toBeGreaterThanOrEqual(1290);
    leaks(r);
    expect(await p.charges()).toEqual([Math.round(PRICE['gemini-2.5-flash-image'] * UNIT)]);
  });

  it('imagen-4.0 on a Gemini channel through generateContent: Imagen has no generateContent, so it goes through :predict', async () => {
    const p = await payer(h);
    const r = await gemini(p.key).models.generateContent({
      model: 'imagen-4.0-generate-001',
      contents: 'a paper boat',
      config: { candidateCount: 2, imageConfig: { aspectRatio: '3:4' } },
    });
    expect(google.requests.at(-1)!.path).toBe('/v1beta/models/imagen-4.0-generate-001:predict');
    // Two candidates asked: one picture each.
    expect(r.candidates).toHaveLength(2);
    expect(pictures(r)).toEqual([
      { mime: 'image/png', label: 'imagen-4.0-generate-001#0', width: 896, height: 1280 },
      { mime: 'image/png', label: 'imagen-4.0-generate-001#1', width: 896, height: 1280 },
    ]);
    expect(await p.charges()).toEqual([Math.round(PRICE['imagen-4.0-generate-001'] * UNIT * 2)]);
    // The usage log says how many pictures the call made, and at which size (the ratio asked).
    const [row] = await p.logs();
    expect(JSON.parse(row.other ?? '{}')).toMatchObject({ image_count: 2, image_size: '3:4' });
  });

  it("Vertex AI express mode's client reaches the same door (/v1beta1/publishers/google/models)", async () => {
    const p = await payer(h);
    const r = await vertex(p.key).models.generateContent({
      model: 'dall-e-3',
      contents: 'a windmill',
      config: { responseModalities: ['IMAGE'] },
    });
    expect(pictures(r).map((x) => x.label)).toEqual(['dall-e-3#0']);
    expect(await p.charges()).toEqual([Math.round(PRICE['dall-e-3'] * UNIT)]);
  });

  it('a Gemini image model priced by tokens is charged the image tokens Google reports', async () => {
    const p = await payer(h);
    const r = await gemini(p.key).models.generateContent({
      model: 'gemini-2.5-flash-image-preview',
      contents: 'a lantern',
      config: { responseModalities: ['TEXT', 'IMAGE'] },
    });
    expect(pictures(r)).toHaveLength(1);
    const u = r.usageMetadata!;
    expect(u.candidatesTokenCount).toBeGreaterThanOrEqual(1290);
    expect(await p.charges()).toEqual([
      Math.round((u.promptTokenCount! + u.candidatesTokenCount! * R.completion) * R.model),
    ]);
  });

  it("a Gemini channel's answer without a picture says why (IMAGE_SAFETY) and charges nothing", async () => {
    const p = await payer(h);
    const err = await gemini(p.key)
      .models.generateContent({
        model: 'gemini-2.5-flash-image',
        contents: 'a cat [image-safety]',
        config: { responseModalities: ['TEXT', 'IMAGE'] },
      })
      .then(
        () => undefined,
        (e: unknown) => e as Error & { status?: number },
      );
    expect(err?.status).toBe(400);
    expect(err?.message).toMatch(/Google drew no picture: .*IMAGE_SAFETY/);
    expect(await p.charges()).toEqual([]);
  });

  it('a failed generation answers in Google shape and charges nothing', async () => {
    const p = await payer(h);
    const err = await gemini(p.key)
      .models.generateContent({ model: 'dall-e-3', contents: 'something blocked by policy' })
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(err).toBeInstanceOf(Error);
    if (!err) return;
    expect(err.message).toMatch(/safety system/);
    expect(err.message).not.toContain(openai.url);
    expect(await p.charges()).toEqual([]);
  });
});

describe('Imagen door: generateImages (:predict)', () => {
  it('imagen-4.0 on a Gemini channel: numberOfImages pictures, the ratio passed on, charged per image', async () => {
    const p = await payer(h);
    const r = await vertex(p.key).models.generateImages({
      model: 'imagen-4.0-generate-001',
      prompt: 'a teapot',
      config: { numberOfImages: 2, aspectRatio: '16:9' },
    });
    const labels = (r.generatedImages ?? []).map((g) => labelOf(Buffer.from(g.image!.imageBytes!, 'base64')));
    expect(labels).toEqual(['imagen-4.0-generate-001#0', 'imagen-4.0-generate-001#1']);
    expect(r.generatedImages![0].image!.mimeType).toBe('image/png');
    expect(google.requests.at(-1)!.body).toMatchObject({
      instances: [{ prompt: 'a teapot' }],
      parameters: { sampleCount: 2, aspectRatio: '16:9' },
    });
    leaks(r);
    expect(await p.charges()).toEqual([Math.round(PRICE['imagen-4.0-generate-001'] * UNIT * 2)]);
  });

  it('dall-e-3 through generateImages on an OpenAI channel', async () => {
    const p = await payer(h);
    const r = await vertex(p.key).models.generateImages({
      model: 'dall-e-3',
      prompt: 'a tall tower',
      config: { numberOfImages: 1, aspectRatio: '9:16' },
    });
    const png = Buffer.from(r.generatedImages![0].image!.imageBytes!, 'base64');
    expect([labelOf(png), png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual(['dall-e-3#0', 1024, 1792]);
    expect(await p.charges()).toEqual([Math.round(PRICE['dall-e-3'] * UNIT * 2)]);
  });

  it("an upstream's refusal reaches generateImages in Google's shape and charges nothing", async () => {
    const p = await payer(h);
    const err = await vertex(p.key)
      .models.generateImages({ model: 'dall-e-3', prompt: 'blocked by policy', config: { numberOfImages: 1 } })
      .then(
        () => undefined,
        (e: unknown) => e as Error & { status?: number },
      );
    expect(err?.status).toBe(400);
    expect(err?.message).toMatch(
      /"status":"INVALID_ARGUMENT".*safety system|safety system.*"status":"INVALID_ARGUMENT"/,
    );
    expect(err?.message).not.toContain(openai.url);
    expect(await p.charges()).toEqual([]);
  });

  it('refuses a body without instances in Google shape, before any charge', async () => {
    const p = await payer(h);
    const res = await fetch(`${gateway()}/v1beta/models/imagen-4.0-generate-001:predict`, {
      method: 'POST',
      headers: { 'x-goog-api-key': p.key, 'content-type': 'application/json' },
      body: JSON.stringify({ parameters: { sampleCount: 1 } }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: number; status: string; message: string } };
    expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(body.error.message).toMatch(/instances is required/);
    expect(await p.charges()).toEqual([]);
  });

  it('the Gemini API path of :predict answers predictions too', async () => {
    const p = await payer(h);
    const res = await fetch(`${gateway()}/v1beta/models/imagen-4.0-generate-001:predict`, {
      method: 'POST',
      headers: { 'x-goog-api-key': p.key, 'content-type': 'application/json' },
      body: JSON.stringify({ instances: [{ prompt: 'a kite' }], parameters: { sampleCount: 1 } }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { predictions: { bytesBase64Encoded: string; mimeType: string }[] };
    expect(body.predictions.map((x) => [labelOf(Buffer.from(x.bytesBase64Encoded, 'base64')), x.mimeType])).toEqual([
      ['imagen-4.0-generate-001#0', 'image/png'],
    ]);
    expect(await p.charges()).toEqual([Math.round(PRICE['imagen-4.0-generate-001'] * UNIT)]);
  });
});
