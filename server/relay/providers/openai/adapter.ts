import type { AttemptContext, ProviderAdapter, RelayMode, UpstreamError, UpstreamRequest } from '../types.ts';
import { parseRerankUsage } from '../rerank/usage.ts';
import { audioTextResponse, multipartBody } from './audio.ts';
import { openAIImageBody } from './images.ts';
import { createResponsesStreamConverter } from './responses-stream.ts';
import { withResponsesBridge } from './responses-bridge/bridge.ts';
import { createOpenAIStreamConverter } from './stream.ts';
import { reasoningIntoContent, thinkingToContent } from './thinking.ts';
import { readAnswerReasoning, wantsCarriedDetails, withCarriedDetails } from './reasoning-field.ts';
import { renderChatBody } from './request.ts';
import { parseOpenAIUsage } from './usage.ts';
import { mapErrorBody, unparsableUpstreamJson } from '../shared/error-body.ts';
import { openAICompatibleBalances } from './balances/index.ts';
import { completionTextOf } from '../../usage.ts';

const taskPath: Record<RelayMode, string> = {
  chat: 'chat/completions',
  completions: 'completions',
  embeddings: 'embeddings',
  responses: 'responses',
  moderations: 'moderations',
  rerank: 'rerank',
  images: 'images/generations',
  image_edits: 'images/edits',
  speech: 'audio/speech',
  transcriptions: 'audio/transcriptions',
  translations: 'audio/translations',
};

/** Version prefixes of OpenAI-compatible providers that do not live under `/v1`. */
const versionPrefix: Record<number, string> = {
  26: '/api/paas/v4', // Zhipu v4
  27: '', // Perplexity
  45: '/api/v3', // VolcEngine Ark
  46: '/v2', // Baidu Qianfan v2
};

/** Full upstream URL; a base URL that already ends in a version segment (…/v1) is used as given. */
export function openAIUrl(ctx: AttemptContext): string {
  const base = ctx.channel.baseUrl;
  const prefix = /\/v\d+[a-z]*$/.test(base) ? '' : (versionPrefix[ctx.channel.type] ?? '/v1');
  return `${base}${prefix}/${taskPath[ctx.mode]}`;
}

/**
 * The adapter shared by OpenAI and every OpenAI-compatible channel type (relay.md §8), wrapped by
 * the reverse Responses bridge (responses-bridge/bridge.ts): chat clients on Responses-only models.
 */
export const openAIAdapter: ProviderAdapter = withResponsesBridge({
  supports: () => true,

  buildRequest(ctx, body) {
    // A tool loop of another dialect's client gets back the reasoning_details its calls came with (reasoning-field.ts).
    if (wantsCarriedDetails(ctx, body))
      return withCarriedDetails(ctx, body).then((withDetails) => buildOpenAIRequest(ctx, withDetails));
    return buildOpenAIRequest(ctx, body);
  },

  convertResponse(ctx, text) {
    if (ctx.mode === 'rerank') return { body: text, usage: parseRerankUsage(text) };
    if (ctx.mode === 'transcriptions' || ctx.mode === 'translations') return audioTextResponse(ctx, text);
    let parsed: { usage?: unknown; choices?: { message?: object }[] } | null;
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // A 200 the client could not parse either: an upstream failure, not an answer to pay for.
      throw unparsableUpstreamJson();
    }
    const usage = parseOpenAIUsage(parsed?.usage);
    // Another dialect's client reads reasoning from `reasoning_content`, whatever the vendor's spelling.
    if (ctx.clientProtocol !== undefined && ctx.mode === 'chat' && Array.isArray(parsed?.choices)) {
      if (readAnswerReasoning(ctx, parsed.choices))
        return { body: JSON.stringify(parsed), usage, produced: completionTextOf(text) };
    }
    if (thinkingToContent(ctx) && Array.isArray(parsed?.choices)) {
      let changed = false;
      for (const c of parsed.choices) if (c?.message && reasoningIntoContent(c.message)) changed = true;
      // Billed as the upstream answered: without usage, its own reasoning and content are counted.
      if (changed) return { body: JSON.stringify(parsed), usage, produced: completionTextOf(text) };
    }
    return { body: text, usage };
  },

  createStreamConverter: (ctx, clientWantsUsage) =>
    ctx.mode === 'responses'
      ? createResponsesStreamConverter()
      : createOpenAIStreamConverter(
          clientWantsUsage,
          thinkingToContent(ctx),
          ctx.clientProtocol !== undefined ? ctx.carry : undefined,
        ),

  mapError: mapOpenAIError,
  balances: openAICompatibleBalances,
});

/** The upstream request for a body in the internal form (or any other mode's plain body). */
function buildOpenAIRequest(ctx: AttemptContext, body: Record<string, unknown>): UpstreamRequest {
  // The internal form's extensions and what the upstream model refuses (request.ts); a plain body is itself.
  const src =
    ctx.mode === 'chat'
      ? renderChatBody(ctx, body)
      : ctx.mode === 'images' || ctx.mode === 'image_edits'
        ? openAIImageBody(ctx, body)
        : body;
  const out: Record<string, unknown> = { ...src, model: ctx.upstreamModel };
  // Only chat and completions know stream_options (the Responses API rejects it and reports usage anyway).
  if (ctx.stream && (ctx.mode === 'chat' || ctx.mode === 'completions')) {
    // Always ask for usage so billing never has to guess; the chunk is hidden from clients who did not ask.
    const so = (body.stream_options && typeof body.stream_options === 'object' ? body.stream_options : {}) as object;
    out.stream_options = { ...so, include_usage: true };
  }
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: ctx.stream ? 'text/event-stream' : 'application/json',
    authorization: `Bearer ${ctx.key}`,
  };
  if (ctx.channel.openaiOrganization) headers['openai-organization'] = ctx.channel.openaiOrganization;
  const form = multipartBody(ctx, src);
  if (form)
    return {
      url: openAIUrl(ctx),
      method: 'POST',
      headers: { ...headers, 'content-type': form.contentType },
      body: form.body,
    };
  return { url: openAIUrl(ctx), method: 'POST', headers, body: JSON.stringify(out) };
}

/** `{"error":{"message","type","code"}}` (or a bare text body) -> UpstreamError. */
export function mapOpenAIError(status: number, text: string): UpstreamError {
  return mapErrorBody(status, text, (json) => {
    const parsed = json as { error?: unknown; message?: unknown } | null;
    const e = parsed?.error;
    if (e && typeof e === 'object') {
      const o = e as { message?: unknown; type?: unknown; code?: unknown };
      return {
        message: typeof o.message === 'string' ? o.message : JSON.stringify(e),
        type: typeof o.type === 'string' ? o.type : undefined,
        code: o.code === undefined || o.code === null ? undefined : String(o.code),
      };
    }
    if (typeof e === 'string') return { message: e };
    if (typeof parsed?.message === 'string') return { message: parsed.message };
    return undefined;
  });
}
