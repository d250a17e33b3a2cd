import type { IncomingHttpHeaders } from 'node:http';
import { sendJson, startRecordingServer } from '../native-http.ts';
import type { FakeUpstream } from '../server.ts';
import { validateGemini } from '../strict/index.ts';
import { isObject, type Json } from '../strict/types.ts';
import { checkAuth, googleError } from '../vertex/index.ts';
import { createTokenIssuer } from '../vertex/token.ts';
import { fakePng, labelOf } from './shared.ts';

/*
 * Google's image APIs (issue 44), as strict as the real ones, on AI Studio (the Gemini API) and
 * Vertex AI:
 * - Imagen `:predict` {instances: [{prompt}], parameters: {sampleCount, aspectRatio, personGeneration,
 *   negativePrompt (Vertex's Imagen 3.0 -001 models only: later models and the Gemini API refuse it),
 *   imageSize (Standard and Ultra only), outputOptions{mimeType}, includeRaiReason...}} answering
 *   {predictions: [{bytesBase64Encoded, mimeType}]}; a filtered picture is left out, or reported as
 *   {raiFilteredReason} when includeRaiReason is set; all filtered = no `predictions` at all.
 * - Gemini image models `:generateContent` (generationConfig.responseModalities, when given, holding IMAGE;
 *   absent = text and image) and imageConfig{aspectRatio, imageSize (3 Pro only)}, input images as inlineData parts (3 at most
 *   for 2.5 Flash Image); one candidate only. The answer: a text part and an inlineData PNG, usage with
 *   1290 IMAGE candidate tokens per picture (gemini-2.5-flash-image's rate), 258 per input image;
 *   finishReason IMAGE_SAFETY or NO_IMAGE when refused.
 * Prompt markers drive the failure modes: `[filtered]` (every picture), `[filter-one]` (the first of
 * several), `[image-safety]`, `[no-image]`, `[blocked]` (promptFeedback), `[overloaded]` (503); so does a
 * model name ending in `+overloaded` (one channel busy, the next one not); `+busy-every-other` answers 503 to
 * every other call it gets (one of several parallel calls fails).
 * Each picture is a fakePng of the ratio's pixel size labelled `{model}#{i}` (an edit:
 * `{model}#{i}<{labels of the input images, comma-separated}`).
 */

export const FAKE_GEMINI_IMAGE_KEY = 'AIzaSy-fake-gemini-image-key';

const IMAGEN_AI_STUDIO = ['imagen-4.0-generate-001', 'imagen-4.0-ultra-generate-001', 'imagen-4.0-fast-generate-001'];
const IMAGEN_VERTEX = [
  ...IMAGEN_AI_STUDIO,
  'imagen-3.0-generate-002',
  'imagen-3.0-generate-001',
  'imagen-3.0-fast-generate-001',
];
/** Vertex's Imagen models that still take a negative prompt. */
const NEGATIVE_PROMPT = ['imagen-3.0-generate-001', 'imagen-3.0-fast-generate-001'];
const IMAGEN_PIXELS: Record<string, [number, number]> = {
  '1:1': [1024, 1024],
  '3:4': [896, 1280],
  '4:3': [1280, 896],
  '9:16': [768, 1408],
  '16:9': [1408, 768],
};
const IMAGEN_PARAMETERS = new Set([
  'sampleCount',
  'aspectRatio',
  'personGeneration',
  'negativePrompt',
  'imageSize',
  'sampleImageSize',
  'outputOptions',
  'includeRaiReason',
  'includeSafetyAttributes',
  'safetySetting',
  'seed',
  'addWatermark',
  'enhancePrompt',
  'language',
  'guidanceScale',
  'storageUri',
]);

const GEMINI_IMAGE_MODELS: Record<string, { maxInputs: number; sizes: boolean }> = {
  'gemini-2.5-flash-image': { maxInputs: 3, sizes: false },
  'gemini-2.5-flash-image-preview': { maxInputs: 3, sizes: false },
  'gemini-3-pro-image-preview': { maxInputs: 14, sizes: true },
};
const GEMINI_PIXELS: Record<string, [number, number]> = {
  '1:1': [1024, 1024],
  '2:3': [832, 1248],
  '3:2': [1248, 832],
  '3:4': [864, 1184],
  '4:3': [1184, 864],
  '4:5': [896, 1152],
  '5:4': [1152, 896],
  '9:16': [768, 1344],
  '16:9': [1344, 768],
  '21:9': [1536, 672],
};
const IMAGE_TOKENS = 1290;
const INPUT_IMAGE_TOKENS = 258;
const INPUT_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'];

type Answer = { status: number; body: unknown };
const invalid = (message: string): Answer => ({ status: 400, body: googleError(400, 'INVALID_ARGUMENT', message) });
const overloaded: Answer = {
  status: 503,
  body: googleError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'),
};

/** `[WxH] at 1K`, doubled at 2K (the 4K of Gemini 3 Pro: four times). */
const scaled = ([w, h]: [number, number], size: unknown) => {
  const k = size === '2K' ? 2 : size === '4K' ? 4 : 1;
  return [w * k, h * k] as const;
};

function imagen(model: string, body: Json, vertex: boolean): Answer {
  const instances = body.instances;
  if (!Array.isArray(instances) || instances.length !== 1 || !isObject(instances[0]))
    return invalid('instances: exactly one instance is required.');
  const prompt = instances[0].prompt;
  if (typeof prompt !== 'string' || !prompt.trim()) return invalid('Prompt is required.');
  for (const k of Object.keys(instances[0]))
    if (k !== 'prompt') return invalid(`Invalid JSON payload received. Unknown name "${k}" at 'instances[0]'.`);
  const p = body.parameters ?? {};
  if (!isObject(p)) return invalid('parameters must be an object.');
  for (const k of Object.keys(p)) if (!IMAGEN_PARAMETERS.has(k)) return invalid(`Unknown parameter: ${k}.`);
  const count = p.sampleCount ?? 4; // Imagen's own default is four pictures
  const most = model.includes('ultra') ? 1 : 4;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > most)
    return invalid(`sampleCount must be an integer in [1, ${most}] for ${model}.`);
  const ratio = p.aspectRatio ?? '1:1';
  if (typeof ratio !== 'string' || !IMAGEN_PIXELS[ratio])
    return invalid(`Unsupported aspect ratio: ${String(ratio)}. Supported: 1:1, 3:4, 4:3, 9:16, 16:9.`);
  if (
    p.personGeneration !== undefined &&
    !['dont_allow', 'allow_adult', 'allow_all'].includes(String(p.personGeneration))
  )
    return invalid(`Invalid personGeneration: ${String(p.personGeneration)}.`);
  if (p.negativePrompt !== undefined && !(vertex && NEGATIVE_PROMPT.includes(model)))
    return invalid(`negativePrompt is not supported by ${model}.`);
  if (p.imageSize !== undefined && (model.includes('fast') || !['1K', '2K'].includes(String(p.imageSize))))
    return invalid(`Unsupported imageSize for ${model}: ${String(p.imageSize)}.`);
  const out = p.outputOptions;
  const mime = isObject(out) && out.mimeType !== undefined ? out.mimeType : 'image/png';
  if (mime !== 'image/png' && mime !== 'image/jpeg') return invalid(`Unsupported output mimeType: ${String(mime)}.`);
  if (prompt.includes('[overloaded]')) return overloaded;
  const [w, h] = scaled(IMAGEN_PIXELS[ratio], p.imageSize);
  const predictions: Json[] = [];
  for (let i = 0; i < count; i++) {
    const filtered = prompt.includes('[filtered]') || (prompt.includes('[filter-one]') && i === 0);
    if (filtered) {
      if (p.includeRaiReason === true)
        predictions.push({
          raiFilteredReason:
            "Unable to show generated images. All images were filtered out because they violated Vertex AI's usage guidelines. Support codes: 58061214",
        });
      continue;
    }
    // The fake always draws PNG bytes; the declared type is what was asked (a test checks it was sent).
    predictions.push({ bytesBase64Encoded: fakePng(w, h, `${model}#${i}`).toString('base64'), mimeType: mime });
  }
  return { status: 200, body: predictions.length ? { predictions } : {} };
}

const textOf = (parts: Json[]) =>
  parts
    .map((p) => p.text)
    .filter((t) => typeof t === 'string')
    .join(' ');

function geminiImage(model: string, path: string, headers: IncomingHttpHeaders, body: Json): Answer {
  const strict = validateGemini(path, headers, body);
  if (strict) return strict;
  const spec = GEMINI_IMAGE_MODELS[model];
  const gen = isObject(body.generationConfig) ? body.generationConfig : {};
  const modalities = gen.responseModalities;
  // Absent, 2.5 Flash Image answers text and image (Google's own examples send no config); named, IMAGE must be in it.
  if (
    modalities !== undefined &&
    (!Array.isArray(modalities) || !modalities.map((m) => String(m).toUpperCase()).includes('IMAGE'))
  )
    return invalid(`${model} generates images only when responseModalities includes IMAGE.`);
  if (gen.candidateCount !== undefined && gen.candidateCount !== 1)
    return invalid(`Multiple candidates is not enabled for models/${model}`);
  const img = gen.imageConfig ?? {};
  if (!isObject(img)) return invalid('imageConfig must be an object.');
  for (const k of Object.keys(img))
    if (k !== 'aspectRatio' && k !== 'imageSize')
      return invalid(
        `Invalid JSON payload received. Unknown name "${k}" at 'generation_config.image_config': Cannot find field.`,
      );
  const ratio = img.aspectRatio ?? '1:1';
  if (typeof ratio !== 'string' || !GEMINI_PIXELS[ratio]) return invalid(`Unsupported aspect ratio: ${String(ratio)}.`);
  if (img.imageSize !== undefined && (!spec.sizes || !['1K', '2K', '4K'].includes(String(img.imageSize))))
    return invalid(`imageSize is not supported for ${model}: ${String(img.imageSize)}.`);
  const contents = (body.contents as Json[]).filter((c) => c.role !== 'model');
  const parts = contents.flatMap((c) => (Array.isArray(c.parts) ? (c.parts as Json[]) : []));
  const inputs = parts.filter((p) => isObject(p.inlineData)).map((p) => p.inlineData as Json);
  if (inputs.length > spec.maxInputs) return invalid(`${model} takes at most ${spec.maxInputs} input images.`);
  for (const d of inputs)
    if (!INPUT_TYPES.includes(String(d.mimeType))) return invalid(`Unsupported MIME type: ${String(d.mimeType)}`);
  const prompt = textOf(parts);
  if (prompt.includes('[overloaded]')) return overloaded;
  const promptTokens = Math.max(1, Math.ceil(prompt.length / 4)) + inputs.length * INPUT_IMAGE_TOKENS;
  const usage = (images: number, text: number) => ({
    promptTokenCount: promptTokens,
    candidatesTokenCount: images * IMAGE_TOKENS + text,
    totalTokenCount: promptTokens + images * IMAGE_TOKENS + text,
    promptTokensDetails: [
      { modality: 'TEXT', tokenCount: promptTokens - inputs.length * INPUT_IMAGE_TOKENS },
      ...(inputs.length ? [{ modality: 'IMAGE', tokenCount: inputs.length * INPUT_IMAGE_TOKENS }] : []),
    ],
    ...(images ? { candidatesTokensDetails: [{ modality: 'IMAGE', tokenCount: images * IMAGE_TOKENS }] } : {}),
  });
  const version = { modelVersion: model, responseId: `fake-${Date.now().toString(36)}` };
  if (prompt.includes('[blocked]'))
    return { status: 200, body: { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: usage(0, 0), ...version } };
  for (const reason of ['IMAGE_SAFETY', 'NO_IMAGE'])
    if (prompt.includes(`[${reason.toLowerCase().replace('_', '-')}]`))
      return {
        status: 200,
        body: { candidates: [{ finishReason: reason, index: 0 }], usageMetadata: usage(0, 0), ...version },
      };
  const from = inputs.map((d) => labelOf(Buffer.from(String(d.data), 'base64')) ?? '?');
  const label = `${model}#0${from.length ? `<${from.join(',')}` : ''}`;
  const [w, h] = scaled(GEMINI_PIXELS[ratio], img.imageSize);
  const data = fakePng(w, h, label).toString('base64');
  const out: Json[] = [{ inlineData: { mimeType: 'image/png', data } }];
  const wantsText =
    modalities === undefined || (modalities as unknown[]).map((m) => String(m).toUpperCase()).includes('TEXT');
  if (wantsText) out.unshift({ text: 'Here is the picture.' });
  return {
    status: 200,
    body: {
      candidates: [{ content: { role: 'model', parts: out }, finishReason: 'STOP', index: 0 }],
      usageMetadata: usage(1, wantsText ? 5 : 0),
      ...version,
    },
  };
}

const AI_STUDIO = /^\/(v1beta|v1)\/models\/([^/:]+):(predict|generateContent)$/;
const VERTEX =
  /^\/v1\/(?:projects\/([^/]+)\/locations\/([^/]+)\/)?publishers\/google\/models\/([^/:]+):(predict|generateContent)$/;

const notFound = (name: string, version: string, action: string): Answer => ({
  status: 404,
  body: googleError(
    404,
    'NOT_FOUND',
    `${name} is not found for API version ${version}, or is not supported for ${action}. Call ListModels to see the list of available models and their supported methods.`,
  ),
});

/**
 * The fake: AI Studio's `/{v1beta|v1}/models/{m}:{predict|generateContent}` with FAKE_GEMINI_IMAGE_KEY,
 * Vertex's `/v1/projects/{p}/locations/{l}/publishers/google/models/{m}:{action}` with the bearer token
 * its `POST /token` issued for fakeServiceAccount (vertex/token.ts), express mode with its API key.
 */
export async function startFakeGoogleImages(): Promise<FakeUpstream> {
  const tokens = createTokenIssuer();
  let everyOther = 0;
  return startRecordingServer(async (req, res, body, raw) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const answer = (a: Answer) => sendJson(res, a.status, a.body);
    if (req.method === 'POST' && url.pathname === '/token') return answer(tokens.exchange(raw));
    const studio = AI_STUDIO.exec(url.pathname);
    const vertex = VERTEX.exec(url.pathname);
    if (req.method !== 'POST' || (!studio && !vertex))
      return answer({ status: 404, body: googleError(404, 'NOT_FOUND', `${url.pathname} was not found.`) });
    if (studio) {
      const key = String(req.headers['x-goog-api-key'] ?? url.searchParams.get('key') ?? '');
      if (!key)
        return answer({
          status: 403,
          body: googleError(
            403,
            'PERMISSION_DENIED',
            "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
          ),
        });
      if (key !== FAKE_GEMINI_IMAGE_KEY)
        return answer({
          status: 400,
          body: googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'API_KEY_INVALID',
              domain: 'googleapis.com',
            },
          ]),
        });
    } else {
      const refused = checkAuth(req.headers, url, vertex![1], tokens.valid);
      if (refused) return answer(refused);
    }
    if (raw.trim() && !isObject(safeJson(raw))) return answer(invalid('Invalid JSON payload received.'));
    const [version, modelPart, action] = studio ? [studio[1], studio[2], studio[3]] : ['v1', vertex![3], vertex![4]];
    // A behaviour token after the name (`imagen-4.0-generate-001+overloaded`): Google busy, for failover tests.
    const [model, behaviour] = decodeURIComponent(modelPart).split('+');
    if (behaviour === 'overloaded' || (behaviour === 'busy-every-other' && everyOther++ % 2 === 0))
      return answer(overloaded);
    const imagenModels = studio ? IMAGEN_AI_STUDIO : IMAGEN_VERTEX;
    if (action === 'predict')
      return answer(
        imagenModels.includes(model) ? imagen(model, body, !studio) : notFound(`models/${model}`, version, 'predict'),
      );
    if (!GEMINI_IMAGE_MODELS[model]) return answer(notFound(`models/${model}`, version, 'generateContent'));
    return answer(geminiImage(model, `/v1beta/models/${model}:generateContent`, req.headers, body));
  });
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
