import type {
  AttemptContext,
  ProviderAdapter,
  SseEvent,
  StreamConverter,
  UpstreamError,
  UpstreamRequest,
} from '../types.ts';
import { baseModel, toAnthropicRequest } from './request.ts';
import { fromAnthropicResponse } from './response.ts';
import { createAnthropicStreamConverter } from './stream.ts';
import { type AnthropicUsage, parseAnthropicUsage } from './usage.ts';
import { mapErrorBody } from '../shared/error-body.ts';
import { anthropicCountTokens } from './count-tokens.ts';
import { anthropicModels } from './models.ts';

export const ANTHROPIC_VERSION = '2023-06-01';

/** `{base}/v1/messages`; a base URL that already ends in /v1 is used as given. */
export const anthropicUrl = (base: string) => (/\/v1$/.test(base) ? `${base}/messages` : `${base}/v1/messages`);

/** Headers for one call: the key, the API version, and per-model extras (claude.model_headers_settings). */
export function anthropicHeaders(ctx: AttemptContext, model: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: ctx.stream ? 'text/event-stream' : 'application/json',
    'x-api-key': ctx.key,
    'anthropic-version': ANTHROPIC_VERSION,
  };
  const extra = ctx.options('claude.model_headers_settings')[model] ?? {};
  for (const [k, v] of Object.entries(extra)) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : v;
  return headers;
}

/** `{"type":"error","error":{"type","message"}}` -> UpstreamError (529 overloaded stays a retryable 5xx). */
export function mapAnthropicError(status: number, text: string): UpstreamError {
  return mapErrorBody(status, text, (json) => {
    const e = (json as { error?: { type?: string; message?: string } } | null)?.error;
    return e && typeof e === 'object' ? { message: e.message ?? text.slice(0, 500), type: e.type } : undefined;
  });
}

/** Watches a native Anthropic stream passing through: frames unchanged, usage and text noted. */
export function anthropicWatcher(): StreamConverter {
  let usage: AnthropicUsage | undefined;
  const text: string[] = [];
  return {
    frames: true,
    push(e: SseEvent) {
      try {
        const ev = JSON.parse(e.data) as {
          type?: string;
          message?: { usage?: AnthropicUsage };
          usage?: AnthropicUsage;
          delta?: { text?: string; thinking?: string; partial_json?: string };
        };
        if (ev.type === 'message_start') usage = { ...ev.message?.usage };
        else if (ev.type === 'message_delta') {
          for (const [k, v] of Object.entries(ev.usage ?? {}))
            if (v !== null && v !== undefined) (usage ??= {})[k as keyof AnthropicUsage] = v as number;
        } else if (ev.type === 'content_block_delta')
          text.push(ev.delta?.text ?? ev.delta?.thinking ?? ev.delta?.partial_json ?? '');
      } catch {
        // Not JSON: forwarded untouched all the same.
      }
      return [`${e.event ? `event: ${e.event}\n` : ''}data: ${e.data}\n\n`];
    },
    end: () => [],
    usage: () => parseAnthropicUsage(usage),
    producedText: () => text.join(''),
    errorFrames: (message) => [
      `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message } })}\n\n`,
    ],
  };
}

/** Usage of a native Messages answer (JSON). */
export function anthropicUsageOf(text: string) {
  try {
    return parseAnthropicUsage((JSON.parse(text) as { usage?: AnthropicUsage }).usage);
  } catch {
    return undefined;
  }
}

/** Anthropic Messages (type 14), relay.md §8. */
export const anthropicAdapter: ProviderAdapter = {
  id: 'anthropic',
  supports: (mode) => mode === 'chat',

  async buildRequest(ctx, body): Promise<UpstreamRequest> {
    const out = await toAnthropicRequest(ctx, body);
    return {
      url: anthropicUrl(ctx.channel.baseUrl),
      method: 'POST',
      headers: anthropicHeaders(ctx, String(out.model)),
      body: JSON.stringify(out),
    };
  },

  convertResponse: (ctx, text) => fromAnthropicResponse(ctx, text, baseModel(ctx.upstreamModel)),
  createStreamConverter: (ctx, clientWantsUsage) =>
    createAnthropicStreamConverter(ctx, baseModel(ctx.upstreamModel), clientWantsUsage),
  mapError: mapAnthropicError,
  retryableStatuses: [400], // relay.md §4: 400 is retried only for Anthropic channels
  countTokens: anthropicCountTokens,
  models: anthropicModels,

  native: {
    protocol: 'anthropic',
    buildRequest(ctx, body, clientHeaders) {
      const model = baseModel(ctx.upstreamModel);
      const headers = anthropicHeaders(ctx, model);
      const beta = clientHeaders?.['anthropic-beta'];
      // The client's betas join the ones the operator configured for the model.
      if (beta) headers['anthropic-beta'] = headers['anthropic-beta'] ? `${headers['anthropic-beta']},${beta}` : beta;
      return {
        url: anthropicUrl(ctx.channel.baseUrl),
        method: 'POST',
        headers,
        body: JSON.stringify({ ...body, model }),
      };
    },
    usageOf: anthropicUsageOf,
    createStreamWatcher: anthropicWatcher,
  },
};
