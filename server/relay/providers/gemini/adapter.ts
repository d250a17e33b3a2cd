import type {
  AttemptContext,
  ProviderAdapter,
  SseEvent,
  StreamConverter,
  UpstreamError,
  UpstreamRequest,
} from '../types.ts';
import { thinkingOf, toGeminiRequest } from './request.ts';
import { fromGeminiResponse } from './response.ts';
import { createGeminiStreamConverter } from './stream.ts';
import { type GeminiUsage, parseGeminiUsage } from './usage.ts';
import { mapErrorBody } from '../shared/error-body.ts';
import { geminiModels } from './models.ts';
import { geminiCountTokens } from './count-tokens.ts';

/** Imagen models, which only take :predict (never the Gemini door's native generateContent body). */
export const isImagenModel = (model: string) => /^imagen-/i.test(model);

/** `{base}/{version}/models/{model}:generateContent` or `:streamGenerateContent?alt=sse`; version per gemini.version_settings. */
export function geminiUrl(ctx: AttemptContext, model: string): string {
  const versions = ctx.options('gemini.version_settings');
  const base = ctx.channel.baseUrl;
  const prefix = /\/v\d+(beta|alpha)?$/.test(base)
    ? base
    : `${base}/${versions[model] ?? versions.default ?? 'v1beta'}`;
  return `${prefix}/models/${model}:${ctx.stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
}

const headers = (ctx: AttemptContext) => ({
  'content-type': 'application/json',
  accept: ctx.stream ? 'text/event-stream' : 'application/json',
  'x-goog-api-key': ctx.key,
});

/**
 * `{"error":{"code","message","status"}}` -> UpstreamError (status such as PERMISSION_DENIED as the code).
 * Google answers a wrong or revoked API key with a 400 whose ErrorInfo reason is API_KEY_INVALID: a dead
 * key (an authentication error), not a bad request.
 */
export function mapGeminiError(status: number, text: string): UpstreamError {
  return mapErrorBody(status, text, (json) => {
    type Body = { error?: { message?: string; status?: string; details?: { reason?: string }[] } } | null;
    const e = Array.isArray(json) ? (json[0] as Body)?.error : (json as Body)?.error;
    if (!e || typeof e !== 'object') return undefined;
    const deadKey = e.details?.some((d) => d?.reason === 'API_KEY_INVALID') ?? false;
    return {
      message: e.message ?? text.slice(0, 500),
      code: e.status,
      ...(deadKey ? { type: 'authentication_error' } : {}),
    };
  });
}

/** Watches a native Gemini stream passing through: `data:` frames unchanged, the last usageMetadata kept. */
function geminiWatcher(): StreamConverter {
  let usage: GeminiUsage | undefined;
  const text: string[] = [];
  return {
    frames: true,
    push(e: SseEvent) {
      try {
        const r = JSON.parse(e.data) as {
          usageMetadata?: GeminiUsage;
          candidates?: { content?: { parts?: { text?: string }[] } }[];
        };
        if (r.usageMetadata) usage = r.usageMetadata;
        for (const p of r.candidates?.[0]?.content?.parts ?? []) text.push(p.text ?? '');
      } catch {
        // Forwarded untouched all the same.
      }
      return [`data: ${e.data}\n\n`];
    },
    end: () => [],
    usage: () => parseGeminiUsage(usage),
    producedText: () => text.join(''),
    errorFrames: (message) => [`data: ${JSON.stringify({ error: { code: 502, message, status: 'UNAVAILABLE' } })}\n\n`],
  };
}

/** Google Gemini (type 24), relay.md §8. */
export const geminiAdapter: ProviderAdapter = {
  id: 'gemini',
  supports: (mode) => mode === 'chat',

  async buildRequest(ctx, body): Promise<UpstreamRequest> {
    const { model, body: out } = await toGeminiRequest(ctx, body);
    return { url: geminiUrl(ctx, model), method: 'POST', headers: headers(ctx), body: JSON.stringify(out) };
  },
  convertResponse: (ctx, text) => fromGeminiResponse(text, thinkingOf(ctx, undefined).model, ctx.carry),
  createStreamConverter: (ctx, clientWantsUsage) =>
    createGeminiStreamConverter(thinkingOf(ctx, undefined).model, clientWantsUsage, ctx.carry),
  mapError: mapGeminiError,
  deadKeyStatuses: [403], // relay.md §4: Gemini answers a dead or blocked key with 403
  models: geminiModels,
  countTokens: geminiCountTokens,

  native: {
    protocol: 'gemini',
    // Imagen has no generateContent: a Gemini client's image call on it goes through :predict (images.ts).
    serves: (model) => !isImagenModel(model),
    buildRequest(ctx, body) {
      const { model, config } = thinkingOf(ctx, undefined);
      let out = body;
      if (config) {
        const gen = (body.generationConfig ?? {}) as Record<string, unknown>;
        out = {
          ...body,
          generationConfig: { ...gen, thinkingConfig: { ...config, ...(gen.thinkingConfig as object) } },
        };
      }
      return { url: geminiUrl(ctx, model), method: 'POST', headers: headers(ctx), body: JSON.stringify(out) };
    },
    usageOf(text) {
      try {
        return parseGeminiUsage((JSON.parse(text) as { usageMetadata?: GeminiUsage }).usageMetadata);
      } catch {
        return undefined;
      }
    },
    createStreamWatcher: geminiWatcher,
  },
};
