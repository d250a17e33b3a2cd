import type { RelayCancel } from '../../cancel.ts';
import { refusal } from '../../errors.ts';
import { aspectRatioOf, type GeneratedImage, imagesAnswer } from '../../images/image-answer.ts';
import { type ImageRequest, pixelSize } from '../../images/image-request.ts';
import type { ImageUpstream } from '../../images/upstream.ts';
import { sendUpstream, syntheticAnswer, type UpstreamResponse } from '../../upstream.ts';
import { unparsableUpstreamJson } from '../shared/error-body.ts';
import type { AttemptContext, UpstreamRequest, Usage } from '../types.ts';
import { geminiUrl, isImagenModel } from './adapter.ts';
import { parseGeminiUsage, type GeminiUsage } from './usage.ts';

/*
 * Google's two image APIs (issue 44), shared by the Gemini API (type 24, here) and Vertex AI (type 41,
 * vertex/images.ts, which only changes the URL and the credential):
 * - Imagen (`imagen-*`): `:predict` with {instances: [{prompt}], parameters}. `n` -> sampleCount (4 at
 *   most a call, 1 for Ultra: more are split over several calls), `size` -> the nearest of Imagen's
 *   five aspect ratios (new-api maps a few sizes by name and sends 3:2 for 1536x1024, which Imagen
 *   refuses; the nearest ratio is what it meant), `quality` hd/high or a long edge over 1536 px ->
 *   imageSize 2K (not on Fast, which has one size), `output_format` -> outputOptions.mimeType.
 *   Imagen only generates here: an edit is refused before anything is sent.
 * - Gemini's image models (`gemini-*-image*`, any other name): generateContent asking for TEXT and
 *   IMAGE, the edit's pictures and mask as inline parts after the prompt; image models answer one
 *   candidate, so `n` pictures are `n` calls. Usage is reported (1290 tokens a picture on 2.5 Flash
 *   Image), for models billed by tokens.
 * A picture-less answer (filtered, refused, text only) is an error with Google's reason, never a charge.
 */

type Json = Record<string, unknown>;

const IMAGEN_RATIOS = ['1:1', '3:4', '4:3', '9:16', '16:9'] as const;
const GEMINI_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'] as const;

/** Where the Google request goes: AI Studio's or Vertex's URL for this action. */
export type GoogleImageTarget = (ctx: AttemptContext, action: 'predict' | 'generateContent') => UpstreamRequest;

/** The calls one image request needs (Imagen's sampleCount per call, or 1 per Gemini call), per attempt. */
const SPLITS = new WeakMap<AttemptContext, number[]>();

function split(n: number, most: number): number[] {
  const calls: number[] = [];
  for (let left = n; left > 0; left -= most) calls.push(Math.min(most, left));
  return calls;
}

const ratioOf = (req: ImageRequest, allowed: readonly string[]) => {
  if (req.aspectRatio) return req.aspectRatio;
  if (req.size?.includes(':')) return req.size; // new-api takes a ratio given as the size
  const px = pixelSize(req.size);
  return px ? aspectRatioOf(px.width, px.height, allowed) : undefined;
};
const longEdge = (req: ImageRequest) => Math.max(pixelSize(req.size)?.width ?? 0, pixelSize(req.size)?.height ?? 0);

const MIME: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', jpg: 'image/jpeg' };

/** Imagen's `:predict` body; `negativePrompt`: whether this model still takes one (Vertex's Imagen 3 -001 only). */
export function imagenBody(req: ImageRequest, model: string, negativePrompt: boolean): Json {
  const parameters: Json = { sampleCount: req.n, includeRaiReason: true };
  const ratio = ratioOf(req, IMAGEN_RATIOS);
  if (ratio) parameters.aspectRatio = ratio;
  if (req.personGeneration) parameters.personGeneration = req.personGeneration;
  if (req.negativePrompt) {
    if (!negativePrompt)
      throw refusal(
        400,
        `${model} does not take a negative prompt: describe what to leave out in the prompt itself`,
        `${model} 不支持反向提示词（negative_prompt）：请在提示词中说明要避免的内容`,
        'unsupported_parameter',
      );
    parameters.negativePrompt = req.negativePrompt;
  }
  const big = ['hd', 'high', '2K'].includes(req.quality ?? '') || longEdge(req) > 1536;
  if (big && !/fast/i.test(model)) parameters.imageSize = '2K';
  if (req.outputFormat) {
    const mime = MIME[req.outputFormat.toLowerCase()];
    if (!mime)
      throw refusal(
        400,
        `Imagen draws png or jpeg pictures, not ${req.outputFormat}`,
        `Imagen 只能输出 png 或 jpeg 图片，不支持 ${req.outputFormat}`,
        'unsupported_parameter',
      );
    parameters.outputOptions = { mimeType: mime };
  }
  return { instances: [{ prompt: req.prompt }], parameters };
}

/** A Gemini image model's generateContent body: the prompt, then the edit's pictures and mask inline. */
export function geminiImageBody(req: ImageRequest, model: string): Json {
  const parts: Json[] = [{ text: req.prompt }];
  for (const img of req.images) parts.push({ inlineData: { mimeType: img.mediaType, data: img.data } });
  if (req.mask) {
    parts.push({ text: 'The next picture is the mask: change only where it is transparent.' });
    parts.push({ inlineData: { mimeType: req.mask.mediaType, data: req.mask.data } });
  }
  const imageConfig: Json = {};
  const ratio = ratioOf(req, GEMINI_RATIOS);
  if (ratio) imageConfig.aspectRatio = ratio;
  // Only Gemini 3's image models take a size (1K, 2K, 4K); 2.5 Flash Image refuses the field.
  const edge = longEdge(req);
  if (/^gemini-3/.test(model) && edge > 1024) imageConfig.imageSize = edge > 2048 ? '4K' : '2K';
  return {
    contents: [{ role: 'user', parts }],
    generationConfig: {
      responseModalities: ['TEXT', 'IMAGE'],
      ...(Object.keys(imageConfig).length ? { imageConfig } : {}),
    },
  };
}

/** Builds the request for either API, recording how many calls the attempt needs (`sendGoogleImages`). */
export function buildGoogleImageRequest(
  ctx: AttemptContext,
  req: ImageRequest,
  target: GoogleImageTarget,
  negativePrompt: (model: string) => boolean,
): UpstreamRequest {
  const model = ctx.upstreamModel;
  if (isImagenModel(model)) {
    if (req.edit)
      throw refusal(
        400,
        `${model} only generates pictures: edit with a Gemini image model such as gemini-2.5-flash-image`,
        `${model} 只能生成图片，不能编辑：请使用 Gemini 图像模型（如 gemini-2.5-flash-image）编辑图片`,
        'unsupported_image_edit',
      );
    const calls = split(req.n, /ultra/i.test(model) ? 1 : 4);
    SPLITS.set(ctx, calls);
    const body = imagenBody({ ...req, n: calls[0] }, model, negativePrompt(model));
    return { ...target(ctx, 'predict'), body: JSON.stringify(body) };
  }
  SPLITS.set(ctx, split(req.n, 1));
  return { ...target(ctx, 'generateContent'), body: JSON.stringify(geminiImageBody(req, model)) };
}

/** Key of the merged answer of several calls (never in Google's own answers). */
const CALLS = '_switchyard_calls';

/**
 * Sends the attempt's calls (one, or Imagen's batches / one per Gemini picture, in parallel) and answers
 * as one exchange: the merged 2xx answers, or the first failure when none succeeded.
 */
export async function sendGoogleImages(
  ctx: AttemptContext,
  req: UpstreamRequest,
  signal: AbortSignal | RelayCancel,
  sendOne: (req: UpstreamRequest) => Promise<UpstreamResponse> = (r) => sendUpstream(r, signal, ctx.headersTimeoutMs),
): Promise<UpstreamResponse> {
  const calls = SPLITS.get(ctx) ?? [1];
  if (calls.length < 2) return sendOne(req);
  const body = JSON.parse(String(req.body)) as Json;
  const answers = await Promise.all(
    calls.map(async (count) => {
      // The body after param_override, with this call's share of Imagen's sampleCount.
      const one = body.parameters
        ? { ...body, parameters: { ...(body.parameters as Json), sampleCount: count } }
        : body;
      const res = await sendOne({ ...req, body: JSON.stringify(one) });
      return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
    }),
  );
  const ok = answers.filter((a) => a.status >= 200 && a.status < 300);
  if (!ok.length) {
    const first = answers[0];
    const retryAfter = first.headers['retry-after'];
    return syntheticAnswer(first.status, first.text, {
      'content-type': 'application/json',
      ...(typeof retryAfter === 'string' ? { 'retry-after': retryAfter } : {}),
    });
  }
  return syntheticAnswer(200, JSON.stringify({ [CALLS]: ok.map((a) => a.text) }));
}

interface Prediction {
  bytesBase64Encoded?: string;
  mimeType?: string;
  raiFilteredReason?: string;
  prompt?: string;
}
interface GeminiImageAnswer {
  candidates?: {
    content?: { parts?: { text?: string; thought?: boolean; inlineData?: { mimeType?: string; data?: string } }[] };
    finishReason?: string;
  }[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: GeminiUsage;
  predictions?: Prediction[];
}

const noPicture = (why: string, zh: string) =>
  refusal(400, `Google drew no picture: ${why}`, `Google 未生成图片：${zh}`, 'content_policy_violation');

/** Why an answer holds no picture, in the user's words. */
function whyNone(answers: GeminiImageAnswer[]) {
  for (const a of answers) {
    const filtered = a.predictions?.find((p) => p.raiFilteredReason)?.raiFilteredReason;
    if (filtered) return noPicture(filtered, filtered);
    const blocked = a.promptFeedback?.blockReason;
    if (blocked) return noPicture(`the prompt was blocked (${blocked})`, `提示词被拦截（${blocked}）`);
    const reason = a.candidates?.[0]?.finishReason;
    if (reason && reason !== 'STOP')
      return noPicture(`the model stopped without one (${reason})`, `模型未输出图片（${reason}）`);
    const text = a.candidates?.[0]?.content?.parts
      ?.map((p) => (p.thought ? '' : (p.text ?? '')))
      .join('')
      .trim();
    if (text)
      return noPicture(
        `the model answered with text only: ${text.slice(0, 300)}`,
        `模型只回复了文字：${text.slice(0, 300)}`,
      );
  }
  return noPicture("every picture was withheld by Google's safety filters", '所有图片均被 Google 的安全过滤器拦截');
}

/** One answer (or the merged answers of several calls) -> OpenAI's images JSON and the summed token usage. */
export function convertGoogleImages(text: string): { body: string; usage?: Usage } {
  let parsed: Json;
  try {
    parsed = JSON.parse(text) as Json;
  } catch {
    throw unparsableUpstreamJson();
  }
  const answers = (
    Array.isArray(parsed[CALLS]) ? (parsed[CALLS] as string[]).map((t) => JSON.parse(t) as Json) : [parsed]
  ) as GeminiImageAnswer[];
  const images: GeneratedImage[] = [];
  let usage: Usage | undefined;
  for (const a of answers) {
    for (const p of a.predictions ?? [])
      if (p.bytesBase64Encoded) images.push({ b64: p.bytesBase64Encoded, mimeType: p.mimeType ?? 'image/png' });
    for (const p of a.candidates?.[0]?.content?.parts ?? [])
      if (p.inlineData?.data && !p.thought)
        images.push({ b64: p.inlineData.data, mimeType: p.inlineData.mimeType ?? 'image/png' });
    const u = parseGeminiUsage(a.usageMetadata);
    if (u)
      usage = {
        promptTokens: (usage?.promptTokens ?? 0) + u.promptTokens,
        completionTokens: (usage?.completionTokens ?? 0) + u.completionTokens,
        cachedTokens: (usage?.cachedTokens ?? 0) + u.cachedTokens,
        cacheCreationTokens: 0,
      };
  }
  if (!images.length) throw whyNone(answers);
  return { body: imagesAnswer(images, usage), usage };
}

/** AI Studio's URL (the channel's API version, as for chat) and its API key. */
const aiStudio: GoogleImageTarget = (ctx, action) => ({
  url: geminiUrl({ ...ctx, stream: false }, ctx.upstreamModel).replace(/:generateContent$/, `:${action}`),
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json', 'x-goog-api-key': ctx.key },
});

/** Gemini API (type 24): Imagen and Gemini's image models; the Gemini API takes no negative prompt. */
export const geminiImages: ImageUpstream = {
  id: 'imagen + gemini-image',
  modes: ['images', 'image_edits'],
  buildRequest: (ctx, req) => buildGoogleImageRequest(ctx, req, aiStudio, () => false),
  send: (ctx, req, signal) => sendGoogleImages(ctx, req, signal),
  convertResponse: (_ctx, text) => convertGoogleImages(text),
};
