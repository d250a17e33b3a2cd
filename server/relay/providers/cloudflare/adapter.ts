import { refusal } from '../../errors.ts';
import { mapOpenAIError, openAIAdapter } from '../openai/adapter.ts';
import { mapErrorBody } from '../shared/error-body.ts';
import { embeddingsInFormat } from '../shared/embeddings.ts';
import type { ChannelQuery } from '../shared/channel-query.ts';
import type { AttemptContext, ProviderAdapter, UpstreamError } from '../types.ts';
import { fromWhisperAnswer, whisperRequest } from './whisper.ts';

/** The account's API root: `{base}/client/v4/accounts/{account id}`; the id is the channel's `other`. */
function accountBase(ctx: AttemptContext): string {
  const account = ctx.channel.other.trim();
  if (!/^[0-9a-f]{32}$/i.test(account))
    throw refusal(
      500,
      "A Cloudflare channel needs its account id (32 hex characters) in 'other'",
      'Cloudflare 渠道须在 other 中填写账户 ID（32 位十六进制）',
      'channel_config_error',
    );
  return `${ctx.channel.baseUrl}/client/v4/accounts/${account}`;
}

/**
 * Cloudflare's API envelope `{success: false, errors: [{code, message}]}` -> UpstreamError; code
 * 10000 (Authentication error: a revoked or wrong token) is a dead key. Bodies in OpenAI's shape
 * (the OpenAI-compatible endpoints pass some through) are read as OpenAI's.
 */
export function mapCloudflareError(status: number, text: string): UpstreamError {
  const e = mapErrorBody(status, text, (json) => {
    const first = (json as { errors?: { code?: number; message?: string }[] } | null)?.errors?.[0];
    if (!first) return undefined;
    const code = first.code === undefined ? undefined : String(first.code);
    return {
      message: `${first.message ?? 'Cloudflare error'}${code ? ` (${code})` : ''}`,
      code,
      type: code === '10000' ? 'authentication_error' : status === 429 ? 'rate_limit_error' : undefined,
    };
  });
  return e.code !== undefined || e.type !== undefined ? e : mapOpenAIError(status, text);
}

/** The account's Workers AI catalogue: `GET .../ai/models/search`, each model's `name`. */
const cloudflareModels: ChannelQuery<string[]> = {
  requests: (baseUrl, key, other) => [
    {
      url: `${baseUrl}/client/v4/accounts/${(other ?? '').trim()}/ai/models/search?per_page=1000`,
      method: 'GET',
      headers: { authorization: `Bearer ${key}` },
    },
  ],
  read: ([body]) =>
    ((body as { result?: { name?: unknown }[] } | null)?.result ?? [])
      .map((m) => m.name)
      .filter((n): n is string => typeof n === 'string'),
};

/** The encoding_format each embeddings attempt asked for (Workers AI answers floats whatever it is). */
const embeddingFormats = new WeakMap<AttemptContext, unknown>();

/**
 * Cloudflare Workers AI (type 39): its OpenAI-compatible chat and embeddings under the account
 * (`/client/v4/accounts/{id}/ai/v1/...`, by the OpenAI adapter with that base), and whisper for
 * /v1/audio/transcriptions (whisper.ts). The key is an API token, the account id is `other`.
 */
export const cloudflareAdapter: ProviderAdapter = {
  id: 'cloudflare',
  supports: (mode) => mode === 'chat' || mode === 'embeddings' || mode === 'transcriptions',

  buildRequest(ctx, body) {
    const base = accountBase(ctx);
    if (ctx.mode === 'transcriptions') return whisperRequest(ctx, base, body);
    if (ctx.mode === 'embeddings') embeddingFormats.set(ctx, body.encoding_format);
    // The OpenAI adapter takes a base URL ending in a version segment as the API root.
    return openAIAdapter.buildRequest({ ...ctx, channel: { ...ctx.channel, baseUrl: `${base}/ai/v1` } }, body);
  },
  convertResponse(ctx, text) {
    if (ctx.mode === 'transcriptions') return fromWhisperAnswer(ctx, text);
    if (ctx.mode === 'embeddings') text = embeddingsInFormat(text, embeddingFormats.get(ctx));
    return openAIAdapter.convertResponse(ctx, text);
  },
  createStreamConverter: (ctx, clientWantsUsage) => openAIAdapter.createStreamConverter(ctx, clientWantsUsage),
  mapError: mapCloudflareError,
  models: cloudflareModels,
};
