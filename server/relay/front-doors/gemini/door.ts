import type { FastifyRequest } from 'fastify';
import { relayRefusal, schemaRefusal } from '../../errors.ts';
import { convertGoogleImages } from '../../providers/gemini/images.ts';
import { nativeSupportFor } from '../../providers/native-support.ts';
import { isImageMode } from '../../images/image-request.ts';
import { completionTextOf } from '../../usage.ts';
import type { FrontDoor } from '../types.ts';
import { dropRepeatedResponses } from './repeated-responses.ts';
import { asksImages, geminiImageRequest, geminiImagesAnswer, nativeImageCount, sseEvent } from './images.ts';
import { convertGeminiRequest, geminiBody, nativeOnlyOf } from './request.ts';
import { openAIToGeminiResponse } from './response.ts';
import { toGeminiStream } from './stream.ts';

/** `/v1beta/models/{model}:{action}` -> model and whether the client streams. */
export function geminiTarget(req: FastifyRequest): { model: string; stream: boolean } {
  const rest = (req.params as { '*'?: string })['*'] ?? '';
  const m = /^(.+):(generateContent|streamGenerateContent)$/.exec(decodeURIComponent(rest));
  if (!m) throw relayRefusal(404, 'relay.endpoint_unsupported', 'not_found', { path: req.url.split('?')[0] });
  // Vertex AI express mode's `/v1beta1/publishers/{publisher}/models/{model}`: Google's models by
  // their name, another publisher's (an `owner/name` model) as `publisher/model`.
  const pub = req.url.startsWith('/v1beta1/') ? /^([^/]+)\/models\/(.+)$/.exec(m[1]) : null;
  const model = pub ? (pub[1] === 'google' ? pub[2] : `${pub[1]}/${pub[2]}`) : m[1].replace(/^models\//, '');
  return { model, stream: m[2] === 'streamGenerateContent' };
}

/** POST /v1beta/models/{model}:generateContent and :streamGenerateContent (relay.md §1). */
export const geminiDoor: FrontDoor = {
  protocol: 'gemini',

  parse(req) {
    const { model, stream } = geminiTarget(req);
    const parsed = geminiBody.safeParse(req.body ?? {});
    if (!parsed.success) throw schemaRefusal(parsed.error.issues[0]?.message, 'invalid_argument');
    // A Gemini channel gets the repaired body too: Gemini refuses the repeats as much as any other upstream.
    const contents = dropRepeatedResponses(parsed.data.contents);
    const body = contents === parsed.data.contents ? parsed.data : { ...parsed.data, contents };
    // An image model, or image output asked for: an image call (images.ts), the body kept for Gemini channels.
    if (asksImages(model, body)) return geminiImageRequest(model, stream, body);
    const { canonical, unconvertible } = convertGeminiRequest(model, stream, body);
    return { canonical, body, nativeOnly: nativeOnlyOf(unconvertible) };
  },

  convertResponse(ok, text, _canonical, request) {
    if (ok.native && isImageMode(ok.ctx.mode)) {
      const images = nativeImageCount(text);
      // No picture: refused with Google's reason (IMAGE_SAFETY, a text-only answer...), worded as the
      // converted path words it (convertGoogleImages throws for an answer without a picture).
      if (images === 0) convertGoogleImages(text);
      const usage = nativeSupportFor(ok.adapter, 'gemini')?.usageOf(text);
      return { body: request?.sse ? sseEvent(text) : text, usage, images };
    }
    if (ok.native)
      return { body: text, usage: nativeSupportFor(ok.adapter, 'gemini')?.usageOf(text), produced: nativeText(text) };
    const inner = ok.adapter.convertResponse(ok.ctx, text);
    const body = openAIToGeminiResponse(inner.body, inner.usage, ok.ctx.upstreamModel);
    return { body, usage: inner.usage, produced: completionTextOf(inner.body) };
  },

  convertImages: (ok, answer, request) => geminiImagesAnswer(answer, ok.ctx.upstreamModel, request),

  createStreamConverter(ok) {
    const support = ok.native ? nativeSupportFor(ok.adapter, 'gemini') : undefined;
    if (support) return support.createStreamWatcher(ok.ctx);
    return toGeminiStream(ok.adapter.createStreamConverter(ok.ctx, true), ok.ctx.upstreamModel);
  },
};

function nativeText(text: string): string {
  try {
    const r = JSON.parse(text) as {
      candidates?: { content?: { parts?: { text?: string; functionCall?: unknown }[] } }[];
    };
    return (r.candidates?.[0]?.content?.parts ?? [])
      .map((p) => p.text ?? JSON.stringify(p.functionCall ?? ''))
      .join('');
  } catch {
    return '';
  }
}
