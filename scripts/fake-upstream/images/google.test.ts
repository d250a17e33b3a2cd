import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../server.ts';
import { FAKE_VERTEX_API_KEY } from '../vertex/index.ts';
import { FAKE_GEMINI_IMAGE_KEY, startFakeGoogleImages } from './google.ts';
import { fakePng, labelOf } from './shared.ts';

/*
 * The Google image fake refuses what Google refuses (so an adapter bug cannot pass the provider tests
 * by luck), with Google's status and error shape: every case is one request the adapter must never send.
 */

let fake: FakeUpstream;
beforeAll(async () => {
  fake = await startFakeGoogleImages();
});
afterAll(() => fake.close());

const IMAGEN = '/v1beta/models/imagen-4.0-generate-001:predict';
const FLASH = '/v1beta/models/gemini-2.5-flash-image:generateContent';
const imagen = (parameters: object = {}) => ({ instances: [{ prompt: 'a fox' }], parameters });
const flash = (generationConfig: object, parts: object[] = [{ text: 'a fox' }]) => ({
  contents: [{ role: 'user', parts }],
  generationConfig,
});
const inline = (mimeType = 'image/png') => ({
  inlineData: { mimeType, data: fakePng(8, 8, 'in').toString('base64') },
});

async function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = { 'x-goog-api-key': FAKE_GEMINI_IMAGE_KEY },
) {
  const res = await fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { error?: { status: string; message: string } } & Record<string, unknown>,
  };
}

describe('the Google image fake', () => {
  it.each([
    ['a wrong key', IMAGEN, imagen(), { 'x-goog-api-key': 'AIza-wrong' }, 400, /API key not valid/],
    ['no key', IMAGEN, imagen(), {}, 403, /unregistered callers/],
    ['an unknown Imagen', '/v1beta/models/imagen-9:predict', imagen(), undefined, 404, /not supported for predict/],
    [
      'an Imagen on generateContent',
      '/v1beta/models/imagen-4.0-generate-001:generateContent',
      flash({}),
      undefined,
      404,
      /not found/,
    ],
    ['malformed JSON', IMAGEN, '{"instances": [', undefined, 400, /Invalid JSON payload/],
    ['five samples', IMAGEN, imagen({ sampleCount: 5 }), undefined, 400, /sampleCount/],
    [
      'two Ultra samples',
      '/v1beta/models/imagen-4.0-ultra-generate-001:predict',
      imagen({ sampleCount: 2 }),
      undefined,
      400,
      /\[1, 1\]/,
    ],
    ['a ratio Imagen lacks', IMAGEN, imagen({ aspectRatio: '3:2' }), undefined, 400, /aspect ratio/],
    ['a negative prompt on the Gemini API', IMAGEN, imagen({ negativePrompt: 'x' }), undefined, 400, /negativePrompt/],
    ['an unknown parameter', IMAGEN, imagen({ quality: 'hd' }), undefined, 400, /Unknown parameter: quality/],
    [
      'a size on Imagen Fast',
      '/v1beta/models/imagen-4.0-fast-generate-001:predict',
      imagen({ imageSize: '2K' }),
      undefined,
      400,
      /imageSize/,
    ],
    ['webp out of Imagen', IMAGEN, imagen({ outputOptions: { mimeType: 'image/webp' } }), undefined, 400, /mimeType/],
    [
      'no IMAGE modality',
      FLASH,
      flash({ responseModalities: ['TEXT'] }),
      undefined,
      400,
      /responseModalities includes IMAGE/,
    ],
    [
      'two candidates',
      FLASH,
      flash({ responseModalities: ['IMAGE'], candidateCount: 2 }),
      undefined,
      400,
      /Multiple candidates/,
    ],
    [
      'a size on 2.5 Flash Image',
      FLASH,
      flash({ responseModalities: ['IMAGE'], imageConfig: { imageSize: '2K' } }),
      undefined,
      400,
      /imageSize/,
    ],
    [
      'an unknown imageConfig field',
      FLASH,
      flash({ responseModalities: ['IMAGE'], imageConfig: { size: '1K' } }),
      undefined,
      400,
      /Unknown name "size"/,
    ],
    [
      'four input pictures',
      FLASH,
      flash({ responseModalities: ['IMAGE'] }, [{ text: 'x' }, inline(), inline(), inline(), inline()]),
      undefined,
      400,
      /at most 3/,
    ],
    [
      'a PDF as a picture',
      FLASH,
      flash({ responseModalities: ['IMAGE'] }, [{ text: 'x' }, inline('application/pdf')]),
      undefined,
      400,
      /MIME type/,
    ],
    [
      'an unknown request field',
      FLASH,
      { ...flash({ responseModalities: ['IMAGE'] }), n: 2 },
      undefined,
      400,
      /Unknown name "n"/,
    ],
    [
      'Vertex without a token',
      '/v1/projects/switchyard-test/locations/us-central1/publishers/google/models/imagen-4.0-generate-001:predict',
      imagen(),
      {},
      401,
      /invalid authentication/,
    ],
    [
      'Vertex express with a wrong key',
      '/v1/publishers/google/models/imagen-4.0-generate-001:predict',
      imagen(),
      { 'x-goog-api-key': 'nope' },
      400,
      /API key not valid/,
    ],
  ])('refuses %s', async (_name, path, body, headers, status, message) => {
    const r = await post(path, body, headers);
    expect(r.status).toBe(status);
    expect(r.body.error?.message).toMatch(message);
  });

  it('answers Imagen with as many pictures as samples, Vertex express mode too', async () => {
    const r = await post(IMAGEN, imagen({ sampleCount: 2, aspectRatio: '9:16' }));
    expect(r.status).toBe(200);
    const predictions = r.body.predictions as { bytesBase64Encoded: string; mimeType: string }[];
    expect(predictions.map((p) => labelOf(Buffer.from(p.bytesBase64Encoded, 'base64')))).toEqual([
      'imagen-4.0-generate-001#0',
      'imagen-4.0-generate-001#1',
    ]);
    const express = await post(
      '/v1/publishers/google/models/imagen-3.0-generate-001:predict',
      imagen({ negativePrompt: 'x' }),
      {
        'x-goog-api-key': FAKE_VERTEX_API_KEY,
      },
    );
    expect(express.status).toBe(200);
  });

  it('answers a Gemini image model with a picture and its IMAGE tokens', async () => {
    const r = await post(FLASH, flash({ responseModalities: ['IMAGE'] }));
    expect(r.status).toBe(200);
    expect(r.body.usageMetadata).toMatchObject({ candidatesTokensDetails: [{ modality: 'IMAGE', tokenCount: 1290 }] });
  });

  it("answers a Gemini image model asked with no generationConfig at all (as Google's own examples call it)", async () => {
    const r = await post(FLASH, { contents: [{ role: 'user', parts: [{ text: 'a fox' }] }] });
    expect(r.status).toBe(200);
    expect(r.body.usageMetadata).toMatchObject({ candidatesTokensDetails: [{ modality: 'IMAGE', tokenCount: 1290 }] });
  });
});
