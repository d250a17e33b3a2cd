import { aspectRatioOf, imagesAnswer, parseImagesAnswer } from '../../images/image-answer.ts';
import { type ImageRequest, pixelSize } from '../../images/image-request.ts';
import type { ImageUpstream } from '../../images/upstream.ts';
import { syntheticAnswer } from '../../upstream.ts';
import { openAIUrl } from '../openai/adapter.ts';
import { concurrentCalls, exchange, takeCallCount, withCallCount } from '../shared/image-calls.ts';
import type { AttemptContext } from '../types.ts';

/*
 * Zhipu v4's CogView (channel type 26, whose chat is OpenAI's shape on /api/paas/v4): `POST
 * /api/paas/v4/images/generations` `{model, prompt, size, quality, user_id}` answers ONE picture
 * `{created, data: [{url}], content_filter}`; there is no `n`, so `n` pictures are `n` calls at once.
 * `size` must be one of CogView's (cogview-4 also takes any 512..2048 multiple of 16 up to 2^21
 * pixels); another size becomes the nearest of CogView's by shape. `quality` (hd/standard) is
 * cogview-4's only. The URLs are Zhipu's public CDN links (they expire in 30 days) and pass through.
 * Errors are OpenAI's shape (`{error: {code, message}}`), read by the chat adapter's mapError.
 */

/** The sizes every CogView model takes. */
export const COGVIEW_SIZES = ['1024x1024', '768x1344', '864x1152', '1344x768', '1152x864', '1440x720', '720x1440'];

const customSizeOk = (w: number, h: number) =>
  w >= 512 && w <= 2048 && h >= 512 && h <= 2048 && w % 16 === 0 && h % 16 === 0 && w * h <= 2 ** 21;

/** The client's size as CogView takes it; undefined leaves Zhipu's default (1024x1024). */
export function cogviewSize(model: string, req: ImageRequest): string | undefined {
  const px = pixelSize(req.size);
  let want = px;
  if (!want && req.aspectRatio) {
    const [w, h] = req.aspectRatio.split(':').map(Number);
    if (w > 0 && h > 0) want = { width: w, height: h };
  }
  if (!want) return undefined;
  const exact = `${want.width}x${want.height}`;
  if (px && COGVIEW_SIZES.includes(exact)) return exact;
  if (px && model.startsWith('cogview-4') && customSizeOk(px.width, px.height)) return exact;
  const ratios = COGVIEW_SIZES.map((s) => s.replace('x', ':'));
  return aspectRatioOf(want.width, want.height, ratios).replace(':', 'x');
}

/** OpenAI's quality words -> CogView's (hd is slower and finer); only cogview-4 takes it. */
function cogviewQuality(model: string, quality: string | undefined): string | undefined {
  if (!quality || !model.startsWith('cogview-4')) return undefined;
  if (quality === 'hd' || quality === 'high') return 'hd';
  if (quality === 'standard' || quality === 'low' || quality === 'medium') return 'standard';
  return undefined;
}

export const zhipuImages: ImageUpstream = {
  id: 'cogview',
  modes: ['images'],

  buildRequest(ctx: AttemptContext, req) {
    const body: Record<string, unknown> = { model: ctx.upstreamModel, prompt: req.prompt };
    const size = cogviewSize(ctx.upstreamModel, req);
    if (size) body.size = size;
    const quality = cogviewQuality(ctx.upstreamModel, req.quality);
    if (quality) body.quality = quality;
    // Zhipu's end-user id (6..128 characters) is OpenAI's `user`.
    const user = req.extra.user;
    if (typeof user === 'string' && user.length >= 6 && user.length <= 128) body.user_id = user;
    return {
      url: openAIUrl(ctx),
      method: 'POST',
      headers: withCallCount({ 'content-type': 'application/json', authorization: `Bearer ${ctx.key}` }, req.n),
      body: JSON.stringify(body),
    };
  },

  async send(ctx, sent, signal) {
    const { req, count } = takeCallCount(sent);
    const done = await concurrentCalls(count, () => exchange(req, signal, ctx.headersTimeoutMs));
    if ('failed' in done) return syntheticAnswer(done.failed.status, done.failed.text);
    // One answer of all the pictures, in Zhipu's shape.
    const answers = done.ok.map((a) => parseImagesAnswer(a.text));
    return syntheticAnswer(200, JSON.stringify({ ...answers[0], data: answers.flatMap((a) => a.data) }));
  },

  convertResponse(_ctx, text) {
    const a = parseImagesAnswer(text);
    const images = a.data.flatMap((d) => (typeof d.url === 'string' ? [{ url: d.url }] : []));
    return { body: imagesAnswer(images) };
  },
};
