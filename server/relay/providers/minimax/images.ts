import { refusal } from '../../errors.ts';
import { aspectRatioOf, type GeneratedImage, imagesAnswer } from '../../images/image-answer.ts';
import { type ImageRequest, pixelSize } from '../../images/image-request.ts';
import type { ImageUpstream } from '../../images/upstream.ts';
import { unparsableUpstreamJson } from '../shared/error-body.ts';
import { sendReadingBodyErrors } from '../shared/errors-in-body.ts';
import type { UpstreamError } from '../types.ts';
import { mimeOfBase64 } from '../volcengine/image-calls.ts';

/*
 * MiniMax pictures (image-01, image-01-live) on a MiniMax channel (type 35, issue 44):
 * `POST /v1/image_generation` with a Bearer key. `n` is MiniMax's own (1-9); sizes are an aspect ratio,
 * or an exact width/height (512-2048, multiples of 8) on image-01; base64 or public links (24 h) that
 * pass on. MiniMax answers refusals with HTTP 200 and `base_resp.status_code`, read into a real status.
 * It has no edit: `subject_reference` (a character picture) makes new pictures of that person, it
 * does not change the picture given, so `/v1/images/edits` is refused with a 400 saying so; a client
 * passes `subject_reference` on a generation instead.
 */

type Json = Record<string, unknown>;

const RATIOS = ['1:1', '16:9', '4:3', '3:2', '2:3', '3:4', '9:16', '21:9'];
const PASSED = ['prompt_optimizer', 'subject_reference', 'aigc_watermark'];
const MAX_N = 9;

/** MiniMax's status codes as the HTTP status a client would have had. */
const CODE_STATUS: Record<number, number> = {
  1002: 429,
  1004: 401,
  2049: 401,
  // The channel's MiniMax balance is empty: another channel may serve.
  1008: 503,
  1026: 400,
  1027: 400,
  2013: 400,
};

const exactSize = (v: number) => v >= 512 && v <= 2048 && v % 8 === 0;

function sizeFields(model: string, req: ImageRequest): Json {
  const px = req.size && req.size !== 'auto' ? pixelSize(req.size) : undefined;
  if (req.size && req.size !== 'auto' && !px)
    throw refusal(
      400,
      `MiniMax takes a size as WIDTHxHEIGHT, not ${req.size}`,
      `MiniMax 的尺寸应为 宽x高，而不是 ${req.size}`,
    );
  const live = model !== 'image-01';
  if (px && !live && exactSize(px.width) && exactSize(px.height)) return { width: px.width, height: px.height };
  if (px) return { aspect_ratio: aspectRatioOf(px.width, px.height, live ? RATIOS.slice(0, -1) : RATIOS) };
  if (req.aspectRatio) {
    if (RATIOS.includes(req.aspectRatio)) return { aspect_ratio: req.aspectRatio };
    const [w, h] = req.aspectRatio.split(':').map(Number);
    if (w > 0 && h > 0) return { aspect_ratio: aspectRatioOf(w, h, RATIOS) };
  }
  return {};
}

function minimaxBody(model: string, req: ImageRequest): Json {
  if (req.edit)
    throw refusal(
      400,
      'MiniMax does not edit pictures: its subject_reference draws new pictures of a character, pass it on /v1/images/generations',
      'MiniMax 不支持图片编辑：其 subject_reference 用于生成同一角色的新图片，请在 /v1/images/generations 中传入',
    );
  if (req.n > MAX_N)
    throw refusal(400, `MiniMax makes 1 to ${MAX_N} pictures per call`, `MiniMax 每次可生成 1 到 ${MAX_N} 张图片`);
  const body: Json = { model, prompt: req.prompt, ...sizeFields(model, req) };
  body.response_format = req.responseFormat === 'b64_json' ? 'base64' : 'url';
  if (req.n > 1) body.n = req.n;
  if (req.seed !== undefined) body.seed = req.seed;
  for (const k of PASSED) if (req.extra[k] !== undefined) body[k] = req.extra[k];
  return body;
}

interface MiniMaxAnswer {
  data?: { image_urls?: string[]; image_base64?: string[] } | null;
  metadata?: { success_count?: string | number; failed_count?: string | number } | null;
  base_resp?: { status_code?: number; status_msg?: string };
}

const parse = (text: string): MiniMaxAnswer | undefined => {
  try {
    return JSON.parse(text) as MiniMaxAnswer;
  } catch {
    return undefined;
  }
};

const picturesOf = (a: MiniMaxAnswer) => (a.data?.image_base64?.length ?? 0) + (a.data?.image_urls?.length ?? 0);

/** The status a 200 answer really has: MiniMax's refusal code, or a 400 when every picture failed review. */
function errorStatusOf(text: string): number | undefined {
  const a = parse(text);
  if (!a) return undefined;
  const code = a.base_resp?.status_code ?? 0;
  if (code !== 0) return CODE_STATUS[code] ?? 500;
  return picturesOf(a) ? undefined : 400;
}

export const minimaxImages: ImageUpstream = {
  id: 'minimax-image',
  modes: ['images', 'image_edits'],

  buildRequest(ctx, req) {
    return {
      url: `${ctx.channel.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/image_generation`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.key}` },
      body: JSON.stringify(minimaxBody(ctx.upstreamModel, req)),
    };
  },

  send: (ctx, req, signal) => sendReadingBodyErrors(req, signal, errorStatusOf, ctx.headersTimeoutMs),

  convertResponse(_ctx, text) {
    const a = parse(text);
    if (!a) throw unparsableUpstreamJson();
    const images: GeneratedImage[] = [
      ...(a.data?.image_base64 ?? []).map((b64) => ({ b64, mimeType: mimeOfBase64(b64) })),
      ...(a.data?.image_urls ?? []).map((url) => ({ url })),
    ];
    return { body: imagesAnswer(images) };
  },

  mapError(status, text): UpstreamError | undefined {
    const a = parse(text);
    const base = a?.base_resp;
    if (!a || !base) return undefined;
    const code = base.status_code ?? 0;
    if (code === 0)
      return {
        status,
        message: `MiniMax made no picture: ${String(a.metadata?.failed_count ?? 'every one')} failed its content review`,
        code: 'no_image',
      };
    return { status, message: `MiniMax: ${base.status_msg ?? 'request refused'} (${code})`, code: String(code) };
  },
};
