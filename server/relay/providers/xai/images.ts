import { type GeneratedImage, imagesAnswer, parseImagesAnswer } from '../../images/image-answer.ts';
import type { ImageUpstream } from '../../images/upstream.ts';
import { openAIUrl } from '../openai/adapter.ts';

/*
 * xAI's images API (channel type 48): OpenAI's `POST /v1/images/generations` without `size`,
 * `quality` and `style`, which xAI refuses ("Argument not supported"): the gateway leaves them out, so
 * an OpenAI client's usual call works. It takes `model`, `prompt`, `n` (1..10), `response_format`
 * (url | b64_json) and `user`, and answers `{data: [{url | b64_json, revised_prompt}]}` (JPEGs; the URLs
 * are public imgen.x.ai links and pass through). Errors `{code, error}` are read by the chat adapter.
 */

export const xaiImages: ImageUpstream = {
  id: 'grok-image',
  modes: ['images'],

  buildRequest(ctx, req) {
    const body: Record<string, unknown> = { model: ctx.upstreamModel, prompt: req.prompt, n: req.n };
    if (req.responseFormat) body.response_format = req.responseFormat;
    if (typeof req.extra.user === 'string') body.user = req.extra.user;
    return {
      url: openAIUrl(ctx),
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.key}` },
      body: JSON.stringify(body),
    };
  },

  convertResponse(_ctx, text) {
    const a = parseImagesAnswer(text);
    const images = a.data.flatMap((d): GeneratedImage[] => {
      const revisedPrompt = d.revised_prompt;
      if (typeof d.b64_json === 'string') return [{ b64: d.b64_json, revisedPrompt }];
      if (typeof d.url === 'string') return [{ url: d.url, revisedPrompt }];
      return [];
    });
    return { body: imagesAnswer(images) };
  },
};
