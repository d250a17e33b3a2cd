import { aspectRatioOf, imagesAnswer } from '../../images/image-answer.ts';
import { type ImageRequest, pixelSize } from '../../images/image-request.ts';
import type { ImageUpstream } from '../../images/upstream.ts';
import { syntheticAnswer } from '../../upstream.ts';
import { openAIUrl } from '../openai/adapter.ts';
import { unparsableUpstreamJson } from '../shared/error-body.ts';
import { concurrentCalls, exchange, takeCallCount, withCallCount } from '../shared/image-calls.ts';

/*
 * SiliconFlow's images API (channel type 40): `POST /v1/images/generations` with its own fields,
 * `{model, prompt, negative_prompt, image_size: "1024x1024", batch_size, seed, num_inference_steps,
 * guidance_scale, cfg, image, image2, image3}`, answering `{images: [{url}], timings, seed}`. OpenAI's
 * `size` becomes `image_size` (the model's nearest size by shape when it is not one of the model's),
 * `n` becomes `batch_size` where the model takes one (Kolors, 1..4) and `n` calls at once elsewhere;
 * an edit's pictures go as data URIs in `image`, `image2`, `image3` (Qwen-Image-Edit, Kolors' image to
 * image). The URLs are public (an hour) and pass through. Errors `{code, message, data}` and a bare
 * "Invalid token" are read by the chat adapter's mapError.
 */

type Json = Record<string, unknown>;

/** The sizes each model family takes (SiliconFlow's API reference); an unknown model gets the size as asked. */
const SIZES: [RegExp, string[]][] = [
  [/kolors/i, ['1024x1024', '960x1280', '768x1024', '720x1440', '720x1280']],
  [/qwen-image(?!-edit)/i, ['1328x1328', '1664x928', '928x1664', '1472x1140', '1140x1472', '1584x1056', '1056x1584']],
  [/flux/i, ['1024x1024', '512x1024', '768x512', '768x1024', '1024x576', '576x1024']],
];

/** Models that refuse image_size (the output follows the input picture). */
const takesNoSize = (model: string) => /qwen-image-edit/i.test(model);
/** Models that make several pictures in one call. */
const takesBatch = (model: string) => /kolors/i.test(model);
const MAX_BATCH = 4;

/** The fields of SiliconFlow's request a client may send beside OpenAI's. */
const OWN_FIELDS = ['num_inference_steps', 'guidance_scale', 'cfg', 'image_size', 'batch_size', 'prompt_enhancement'];

export function siliconflowImageSize(model: string, req: ImageRequest): string | undefined {
  if (takesNoSize(model)) return undefined;
  const px = pixelSize(req.size);
  const ratio = req.aspectRatio?.split(':').map(Number);
  const want = px ?? (ratio && ratio[0] > 0 && ratio[1] > 0 ? { width: ratio[0], height: ratio[1] } : undefined);
  if (!want) return undefined;
  const sizes = SIZES.find(([re]) => re.test(model))?.[1];
  if (!sizes) return px ? `${px.width}x${px.height}` : undefined;
  if (px && sizes.includes(`${px.width}x${px.height}`)) return `${px.width}x${px.height}`;
  const ratios = sizes.map((s) => s.replace('x', ':'));
  return aspectRatioOf(want.width, want.height, ratios).replace(':', 'x');
}

const dataUri = (img: { mediaType: string; data: string }) => `data:${img.mediaType};base64,${img.data}`;

export const siliconflowImages: ImageUpstream = {
  id: 'siliconflow',
  modes: ['images', 'image_edits'],

  buildRequest(ctx, req) {
    const model = ctx.upstreamModel;
    const body: Json = { model, prompt: req.prompt };
    if (req.negativePrompt) body.negative_prompt = req.negativePrompt;
    const size = siliconflowImageSize(model, req);
    if (size) body.image_size = size;
    if (req.seed !== undefined) body.seed = req.seed;
    for (const k of OWN_FIELDS) if (req.extra[k] !== undefined) body[k] = req.extra[k];
    req.images.slice(0, 3).forEach((img, i) => (body[i === 0 ? 'image' : `image${i + 1}`] = dataUri(img)));
    const batch = takesBatch(model) && req.n <= MAX_BATCH;
    if (batch && req.n > 1) body.batch_size = req.n;
    return {
      url: openAIUrl({ ...ctx, mode: 'images' }),
      method: 'POST',
      headers: withCallCount(
        { 'content-type': 'application/json', authorization: `Bearer ${ctx.key}` },
        batch ? 1 : req.n,
      ),
      body: JSON.stringify(body),
    };
  },

  async send(ctx, sent, signal) {
    const { req, count } = takeCallCount(sent);
    const done = await concurrentCalls(count, () => exchange(req, signal, ctx.headersTimeoutMs));
    if ('failed' in done) return syntheticAnswer(done.failed.status, done.failed.text);
    const answers = done.ok.map((a) => parse(a.text));
    return syntheticAnswer(200, JSON.stringify({ ...answers[0], images: answers.flatMap(imagesOf) }));
  },

  convertResponse(_ctx, text) {
    const urls = imagesOf(parse(text)).flatMap((i) => (typeof i.url === 'string' ? [{ url: i.url }] : []));
    return { body: imagesAnswer(urls) };
  },
};

interface SfAnswer {
  images?: { url?: unknown }[];
  data?: { url?: unknown }[];
}

const parse = (text: string): SfAnswer => {
  try {
    return JSON.parse(text) as SfAnswer;
  } catch {
    throw unparsableUpstreamJson();
  }
};

/** `images` (SiliconFlow's own), or `data` (its OpenAI-compatible mirror of the same list). */
const imagesOf = (a: SfAnswer) => (Array.isArray(a.images) ? a.images : Array.isArray(a.data) ? a.data : []);
