import type { NativeTokenCount, UpstreamRequest } from '../types.ts';
import { geminiUrl } from './adapter.ts';
import { thinkingOf } from './request.ts';

/*
 * Gemini's token counting (`POST /{version}/models/{model}:countTokens`), used for the Gemini door's
 * count requests on a Gemini channel. The body comes as the client sent it, in either of its two
 * forms: `{contents}` (what @google/genai sends) or `{generateContentRequest: {model, contents,
 * systemInstruction, tools, ...}}`, whose `model` must name the model counted with (`models/{name}`).
 * Only adapter.ts imports this module (it sets `countTokens`); the relay reaches it through the adapter.
 */
export const geminiCountTokens: NativeTokenCount = {
  protocol: 'gemini',

  buildRequest(ctx, body): UpstreamRequest {
    // A `-thinking` model name is the gateway's own suffix: the upstream counts with the base model.
    const { model } = thinkingOf(ctx, undefined);
    // The generateContent URL of the channel's version and base, with the count action instead.
    const url = geminiUrl({ ...ctx, stream: false }, model).replace(/:generateContent$/, ':countTokens');
    const inner = body.generateContentRequest as Record<string, unknown> | undefined;
    const out = inner ? { ...body, generateContentRequest: { ...inner, model: `models/${model}` } } : body;
    return {
      url,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-goog-api-key': ctx.key },
      body: JSON.stringify(out),
    };
  },

  inputTokensOf(text) {
    try {
      const n = (JSON.parse(text) as { totalTokens?: unknown }).totalTokens;
      return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
    } catch {
      return undefined;
    }
  },
};
