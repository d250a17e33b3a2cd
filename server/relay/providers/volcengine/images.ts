import { refusal } from '../../errors.ts';
import { type GeneratedImage, imagesAnswer } from '../../images/image-answer.ts';
import { type ImageRequest, pixelSize } from '../../images/image-request.ts';
import type { ImageUpstream } from '../../images/upstream.ts';
import { syntheticAnswer } from '../../upstream.ts';
import { unparsableUpstreamJson } from '../shared/error-body.ts';
import type { UpstreamError } from '../types.ts';
import { exchange } from '../shared/image-calls.ts';
import { bodyOfCall, callsOf, fanOut, mimeOfBase64, repeated } from './image-calls.ts';

/*
 * Seedream and SeedEdit on Volcengine Ark (channel type 45, issue 44): `POST /api/v3/images/generations`,
 * a Bearer key, OpenAI-like but not OpenAI's: no `n` (one picture per call, or a "sequential" group
 * the model sizes itself), sizes as "WxH" (Seedream 3: each side 512-2048; Seedream 4 also "1K"/"2K"/"4K"),
 * SeedEdit only "adaptive", input images as URLs or data URLs in `image`. `n` pictures are `n` calls
 * (image-calls.ts), unless the client asked for a sequential group itself. Ark's picture URLs are
 * public, signed TOS links valid 24 h: they pass to the client as they are.
 */

type Json = Record<string, unknown>;

/** Ark's fields a client may set through the OpenAI body (everything else of theirs is not Ark's). */
const PASSED = [
  'watermark',
  'guidance_scale',
  'sequential_image_generation',
  'sequential_image_generation_options',
  'optimize_prompt_options',
];

/** Sizes Ark recommends per aspect ratio (for a door that gives a ratio): Seedream 3 and Seedream 4 (2K). */
const RATIO_SIZES: Record<string, [string, string]> = {
  '1:1': ['1024x1024', '2048x2048'],
  '3:4': ['864x1152', '1728x2304'],
  '4:3': ['1152x864', '2304x1728'],
  '16:9': ['1280x720', '2560x1440'],
  '9:16': ['720x1280', '1440x2560'],
  '2:3': ['832x1248', '1664x2496'],
  '3:2': ['1248x832', '2496x1664'],
  '21:9': ['1512x648', '3024x1296'],
};

const isEditModel = (model: string) => /seededit/i.test(model);
const isGroupModel = (model: string) => /seedream-4|seedream-5/i.test(model);

/** `/api/v3` beside an operator's base URL, with or without it. */
const arkRoot = (baseUrl: string) => baseUrl.replace(/\/+$/, '').replace(/\/api\/v3$/, '');

function sizeFor(model: string, req: ImageRequest): string | undefined {
  if (isEditModel(model)) return 'adaptive';
  if (req.size && req.size !== 'auto') {
    // "1024x1024" is Ark's own form; "1K"/"2K"/"4K" (Seedream 4) pass as given, Ark judges them.
    const px = pixelSize(req.size);
    return px ? `${px.width}x${px.height}` : req.size;
  }
  if (req.aspectRatio) {
    const pair = RATIO_SIZES[req.aspectRatio];
    if (!pair)
      throw refusal(
        400,
        `Seedream has no aspect ratio ${req.aspectRatio} (it takes ${Object.keys(RATIO_SIZES).join(', ')})`,
        `Seedream 不支持宽高比 ${req.aspectRatio}（可选 ${Object.keys(RATIO_SIZES).join('、')}）`,
      );
    return pair[isGroupModel(model) ? 1 : 0];
  }
  return undefined;
}

function arkBody(model: string, req: ImageRequest): Json {
  const body: Json = { model, prompt: req.prompt };
  const images = req.images.map((i) => `data:${i.mediaType};base64,${i.data}`);
  if (req.edit) {
    if (!images.length) throw refusal(400, 'An image edit needs an image', '图片编辑需要提供图片');
    if (!isEditModel(model) && !isGroupModel(model))
      throw refusal(
        400,
        `${model} does not edit images: use a SeedEdit or Seedream 4 model`,
        `${model} 不支持图片编辑，请使用 SeedEdit 或 Seedream 4 模型`,
      );
    if (req.mask)
      throw refusal(400, 'Seedream edits by the prompt and takes no mask', 'Seedream 按提示词编辑图片，不接受蒙版');
    if (isEditModel(model) && images.length > 1)
      throw refusal(400, `${model} edits one image at a time`, `${model} 一次只能编辑一张图片`);
    body.image = isGroupModel(model) ? images : images[0];
  }
  const size = sizeFor(model, req);
  if (size) body.size = size;
  if (req.seed !== undefined) body.seed = req.seed;
  body.response_format = req.responseFormat === 'b64_json' ? 'b64_json' : 'url';
  for (const k of PASSED) if (req.extra[k] !== undefined) body[k] = req.extra[k];
  return body;
}

interface ArkAnswer {
  data?: { url?: string; b64_json?: string; size?: string; error?: { code?: string; message?: string } }[];
  usage?: { generated_images?: number; output_tokens?: number };
  error?: { code?: string; message?: string };
}

const parse = (text: string): ArkAnswer => {
  try {
    return JSON.parse(text) as ArkAnswer;
  } catch {
    throw unparsableUpstreamJson();
  }
};

/** Ark's pictures: a group may hold items that failed (with their own error) among those made. */
const picturesOf = (a: ArkAnswer) => (a.data ?? []).filter((d) => d.url || d.b64_json);

/** Several calls' answers as one: their pictures in order, their tokens summed. */
function mergeAnswers(texts: string[]): string {
  const answers = texts.map(parse);
  return JSON.stringify({
    data: answers.flatMap((a) => a.data ?? []),
    usage: {
      generated_images: answers.reduce((s, a) => s + (a.usage?.generated_images ?? picturesOf(a).length), 0),
      output_tokens: answers.reduce((s, a) => s + (a.usage?.output_tokens ?? 0), 0),
    },
  });
}

export const seedreamImages: ImageUpstream = {
  id: 'seedream',
  modes: ['images', 'image_edits'],

  buildRequest(ctx, req) {
    const body = arkBody(ctx.upstreamModel, req);
    // A sequential group is one call whose size the model decides; otherwise one call per picture.
    const calls = body.sequential_image_generation === 'auto' ? 1 : req.n;
    return repeated(
      {
        url: `${arkRoot(ctx.channel.baseUrl)}/api/v3/images/generations`,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.key}` },
        body: JSON.stringify(body),
      },
      calls,
    );
  },

  async send(ctx, request, signal) {
    const { n, req } = callsOf(request);
    const res = await fanOut(
      n,
      (i) => exchange({ ...req, body: bodyOfCall(String(req.body), i) }, signal, ctx.headersTimeoutMs),
      mergeAnswers,
    );
    if (res.statusCode !== 200) return res;
    // Every picture of the answer failed its review: a failure, not an empty success (nothing is billed).
    const text = await res.body.text();
    const a = parse(text);
    if (picturesOf(a).length) return syntheticAnswer(200, text);
    const why = a.data?.find((d) => d.error)?.error;
    return syntheticAnswer(
      400,
      JSON.stringify({ error: { code: why?.code ?? 'NoImage', message: why?.message ?? 'Ark returned no image' } }),
    );
  },

  convertResponse(_ctx, text) {
    const a = parse(text);
    const images = picturesOf(a).map((d): GeneratedImage =>
      d.b64_json ? { b64: d.b64_json, mimeType: mimeOfBase64(d.b64_json) } : { url: d.url },
    );
    const tokens = a.usage?.output_tokens;
    const usage = tokens
      ? { promptTokens: 0, completionTokens: tokens, cachedTokens: 0, cacheCreationTokens: 0 }
      : undefined;
    return { body: imagesAnswer(images, usage) };
  },

  mapError(status, text): UpstreamError | undefined {
    let e: ArkAnswer['error'];
    try {
      e = (JSON.parse(text) as ArkAnswer).error;
    } catch {
      return undefined;
    }
    if (!e?.code) return undefined;
    return { status, message: `${e.message ?? 'Ark refused the request'} (${e.code})`, code: e.code };
  },
};
