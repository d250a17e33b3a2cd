import type { z } from 'zod';
import { isImageModel } from '../../../../shared/image-models.ts';
import { type ImagesAnswer } from '../../images/image-answer.ts';
import { sniffMime } from '../../images/image-request.ts';
import type { Usage } from '../../providers/types.ts';
import type { InlineImage } from '../../providers/shared/images.ts';
import { doorImageBody, formatOfMime } from '../image-body.ts';
import type { DoorRequest } from '../types.ts';
import type { geminiBody } from './request.ts';
import { usageMetadataOf } from './response.ts';

/*
 * Gemini's generateContent on an image model (issue 44). Google's clients ask pictures of
 * gemini-*-image through generateContent (image output in the answer's parts), and nothing stops a
 * @google/genai user from naming any other image model the gateway sells the same way. Such a call
 * runs as an image call (priced per image, relayed to every image upstream through the canonical
 * OpenAI images body) while a Gemini channel that serves the model still gets the client's body as
 * it came; the pictures come back as inlineData parts.
 */

type Body = z.infer<typeof geminiBody>;
type Part = { text?: string; thought?: boolean; inlineData?: { mimeType?: string; data?: string } };
type Content = { role?: string; parts?: Part[] };
type ImageConfig = { aspectRatio?: string; personGeneration?: string; imageOutputOptions?: { mimeType?: string } };

/**
 * Whether the client asks pictures: image output asked for, or an image model named (any upstream's:
 * a Gemini client naming gpt-image-1 or Seedream without responseModalities still gets pictures).
 */
export function asksImages(model: string, body: Body): boolean {
  const gen = (body.generationConfig ?? body.generation_config ?? {}) as { responseModalities?: unknown };
  const modalities = Array.isArray(gen.responseModalities) ? gen.responseModalities : [];
  return isImageModel(model) || modalities.some((m) => String(m).toUpperCase() === 'IMAGE');
}

const imagesOf = (c: Content | undefined): InlineImage[] =>
  (c?.parts ?? [])
    .filter((p) => p.inlineData?.data && (p.inlineData.mimeType ?? 'image/png').startsWith('image/'))
    .map((p) => ({ mediaType: p.inlineData!.mimeType ?? 'image/png', data: p.inlineData!.data! }));

/**
 * The image call a generateContent body asks: the prompt is the last user turn's text; its pictures
 * make it an edit, and a turn without pictures after an answer with one edits that answer (how a
 * Gemini chat refines its last picture). candidateCount is the number of pictures.
 */
export function geminiImageRequest(model: string, stream: boolean, body: Body): DoorRequest {
  const contents = body.contents as Content[];
  const lastUser = contents.findLastIndex((c) => c.role !== 'model');
  const turn = contents[lastUser];
  const prompt = (turn?.parts ?? [])
    .filter((p) => typeof p.text === 'string' && !p.thought)
    .map((p) => p.text)
    .join('\n')
    .trim();
  let images = imagesOf(turn);
  if (images.length === 0)
    for (const c of contents.slice(0, Math.max(lastUser, 0)).reverse()) {
      images = imagesOf(c).slice(-1);
      if (images.length) break;
    }
  const gen = (body.generationConfig ?? body.generation_config ?? {}) as {
    candidateCount?: unknown;
    imageConfig?: ImageConfig;
  };
  const image = gen.imageConfig ?? {};
  const n = typeof gen.candidateCount === 'number' && gen.candidateCount > 0 ? gen.candidateCount : 1;
  const { mode, canonical } = doorImageBody({
    model,
    prompt,
    n,
    aspectRatio: image.aspectRatio,
    personGeneration: image.personGeneration,
    outputFormat: formatOfMime(image.imageOutputOptions?.mimeType),
    images,
  });
  return { mode, canonical, body, sse: stream, state: { candidates: n } };
}

const mimeOfBase64 = (b64: string) => sniffMime(Buffer.from(b64.slice(0, 24), 'base64'));

/** One picture of the canonical answer as a Gemini part (a URL only if delivery left one). */
function partOf(d: ImagesAnswer['data'][number]) {
  if (d.b64_json) return { inlineData: { mimeType: d._mime ?? mimeOfBase64(d.b64_json), data: d.b64_json } };
  return { fileData: { mimeType: d._mime ?? 'image/png', fileUri: d.url ?? '' } };
}

/** The upstream's image tokens as Gemini reports them (output tokens are image tokens here). */
function usageOf(answer: ImagesAnswer) {
  const u = answer.usage;
  if (!u) return usageMetadataOf(undefined);
  const usage: Usage = {
    promptTokens: u.input_tokens ?? 0,
    completionTokens: u.output_tokens ?? 0,
    cachedTokens: 0,
    cacheCreationTokens: 0,
  };
  return {
    ...usageMetadataOf(usage),
    ...(usage.completionTokens
      ? { candidatesTokensDetails: [{ modality: 'IMAGE', tokenCount: usage.completionTokens }] }
      : {}),
  };
}

/**
 * The canonical images answer as Gemini's generateContent answer: the pictures as inlineData parts
 * (after the revised prompt's text, if any) of one candidate, or one candidate per picture when the
 * client asked several candidates; one SSE event when the client streams.
 */
export function geminiImagesAnswer(answer: ImagesAnswer, model: string, request?: DoorRequest): string {
  const many = ((request?.state as { candidates?: number } | undefined)?.candidates ?? 1) > 1;
  const text = answer.data.map((d) => d.revised_prompt).find(Boolean);
  const candidate = (parts: unknown[], index: number) => ({
    content: { role: 'model', parts },
    finishReason: 'STOP',
    index,
  });
  const pictures = answer.data.map(partOf);
  const lead = text ? [{ text }] : [];
  const candidates = many
    ? pictures.map((p, i) => candidate([...(i === 0 ? lead : []), p], i))
    : [candidate([...lead, ...pictures], 0)];
  const out = JSON.stringify({ candidates, usageMetadata: usageOf(answer), modelVersion: model });
  return request?.sse ? sseEvent(out) : out;
}

/** One SSE event of a JSON answer (on one line: an SSE data line cannot hold a newline). */
export const sseEvent = (json: string) => `data: ${JSON.stringify(JSON.parse(json))}\n\n`;

/** Pictures in a native Gemini answer (what the call is charged for; a thinking model's draft pictures are thoughts, not answers). */
export function nativeImageCount(text: string): number {
  try {
    const r = JSON.parse(text) as { candidates?: { content?: { parts?: Part[] } }[] };
    return (r.candidates ?? [])
      .flatMap((c) => c.content?.parts ?? [])
      .filter((p) => !p.thought && p.inlineData?.data && (p.inlineData.mimeType ?? '').startsWith('image/')).length;
  } catch {
    return 0;
  }
}
