import { refusal } from '../../errors.ts';
import type { ImageUpstream } from '../../images/upstream.ts';
import { sendUpstream, syntheticAnswer } from '../../upstream.ts';
import { baseModel } from '../anthropic/request.ts';
import {
  buildGoogleImageRequest,
  convertGoogleImages,
  type GoogleImageTarget,
  sendGoogleImages,
} from '../gemini/images.ts';
import { vertexGeminiRequest, withVertexAuth } from './adapter.ts';
import { isClaude } from './urls.ts';

/*
 * Vertex AI's images (issue 44): the same Imagen `:predict` and Gemini image generateContent bodies as
 * the Gemini API (gemini/images.ts), on the Google publisher's regional URL with the service account's
 * bearer token (or express mode's API key). Vertex's Imagen 3 -001 models still take a negative prompt.
 */

const NEGATIVE_PROMPT = /^imagen-3\.0-(fast-)?generate-001$|^imagegeneration@/;

const onVertex: GoogleImageTarget = (ctx, action) => {
  if (isClaude(baseModel(ctx.upstreamModel)))
    throw refusal(
      400,
      `${ctx.upstreamModel} does not draw pictures`,
      `${ctx.upstreamModel} 不支持生成图片`,
      'model_not_supported',
    );
  return vertexGeminiRequest(
    { ...ctx, stream: false },
    { url: '', method: 'POST', headers: { 'content-type': 'application/json' } },
    action,
  );
};

export const vertexImages: ImageUpstream = {
  id: 'imagen + gemini-image (Vertex)',
  modes: ['images', 'image_edits'],
  buildRequest: (ctx, req) => buildGoogleImageRequest(ctx, req, onVertex, (m) => NEGATIVE_PROMPT.test(m)),
  // Each call carries the key's cached access token; a refused service account answers as a dead key.
  send: (ctx, req, signal) =>
    sendGoogleImages(ctx, req, signal, async (one) => {
      const auth = await withVertexAuth(ctx, one);
      if (auth.refused) return syntheticAnswer(auth.refused.refusedStatus, auth.refused.refusedBody);
      return sendUpstream(auth.req!, signal, ctx.headersTimeoutMs);
    }),
  convertResponse: (_ctx, text) => convertGoogleImages(text),
};
