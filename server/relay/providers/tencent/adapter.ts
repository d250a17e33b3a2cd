import { defaultModelsQuery } from '../shared/channel-query.ts';
import { ChannelType } from '../../../../shared/channel-types.ts';
import { unparsableUpstreamJson } from '../shared/error-body.ts';
import { sendReadingBodyErrors } from '../shared/errors-in-body.ts';
import { openAIEmbeddings } from '../shared/embeddings.ts';
import type { AttemptContext, ProviderAdapter, UpstreamRequest } from '../types.ts';
import { toHunyuanBody, toHunyuanEmbeddingBody } from './request.ts';
import { createHunyuanStreamConverter, fromHunyuanAnswer, mapTencentError, tencentErrorStatusOf } from './response.ts';
import { parseTencentKey, signTencentRequest } from './sign.ts';

/** Hunyuan's API version (new-api's too); every action below is of this version. */
export const HUNYUAN_VERSION = '2023-09-01';

/** The region header: the channel's `other` when set (ap-guangzhou, ap-beijing...), else Guangzhou. */
const regionOf = (ctx: AttemptContext) => ctx.channel.other.trim() || 'ap-guangzhou';

/** A Tencent Cloud API 3.0 call: POST JSON to the host's root, the action and version in headers. */
export function tencentCall(baseUrl: string, action: string, region: string, body: object): UpstreamRequest {
  return {
    url: `${baseUrl}/`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-tc-action': action,
      'x-tc-version': HUNYUAN_VERSION,
      'x-tc-region': region,
    },
    body: JSON.stringify(body),
  };
}

/** The encoding_format each embeddings attempt asked for (read back when its answer is converted). */
const embeddingFormats = new WeakMap<AttemptContext, unknown>();

/** GetEmbedding's answer (`Response.Data[{Embedding, Index}]`) as OpenAI's embeddings list. */
function fromEmbeddingAnswer(ctx: AttemptContext, text: string) {
  type Answer = { Data?: { Embedding?: number[]; Index?: number }[]; Usage?: { PromptTokens?: number } };
  let r: Answer | undefined;
  try {
    r = (JSON.parse(text) as { Response?: Answer }).Response;
  } catch {
    throw unparsableUpstreamJson();
  }
  const data = [...(r?.Data ?? [])].sort((a, b) => (a.Index ?? 0) - (b.Index ?? 0));
  return openAIEmbeddings(
    data.map((d) => d.Embedding ?? []),
    ctx.upstreamModel,
    r?.Usage?.PromptTokens ?? 0,
    embeddingFormats.get(ctx),
  );
}

/**
 * Tencent Hunyuan (type 23): Tencent Cloud API 3.0 (ChatCompletions, GetEmbedding), signed with
 * TC3-HMAC-SHA256 from the key `AppId|SecretId|SecretKey`. Tencent answers errors with HTTP 200 and
 * `Response.Error`; they are given their status before the relay reads them (errors-in-body.ts).
 */
export const tencentAdapter: ProviderAdapter = {
  id: 'tencent',
  supports: (mode) => mode === 'chat' || mode === 'embeddings',

  buildRequest(ctx, body) {
    parseTencentKey(ctx.key); // a malformed key is the operator's to fix, before anything is sent
    if (ctx.mode === 'embeddings') embeddingFormats.set(ctx, body.encoding_format);
    return ctx.mode === 'embeddings'
      ? tencentCall(ctx.channel.baseUrl, 'GetEmbedding', regionOf(ctx), toHunyuanEmbeddingBody(body))
      : tencentCall(
          ctx.channel.baseUrl,
          'ChatCompletions',
          regionOf(ctx),
          toHunyuanBody(body, ctx.upstreamModel, ctx.stream),
        );
  },
  sign: async (ctx, req) => signTencentRequest(req, parseTencentKey(ctx.key)),
  send: (ctx, req, signal) => sendReadingBodyErrors(req, signal, tencentErrorStatusOf, ctx.headersTimeoutMs),

  convertResponse: (ctx, text) =>
    ctx.mode === 'embeddings' ? fromEmbeddingAnswer(ctx, text) : fromHunyuanAnswer(text, ctx.upstreamModel),
  createStreamConverter: (ctx, clientWantsUsage) => createHunyuanStreamConverter(ctx.upstreamModel, clientWantsUsage),
  mapError: mapTencentError,
  // Tencent's refusals of an unpaid or stopped account (given 402 by tencentErrorStatus) are dead keys.
  deadKeyStatuses: [402],
  // Hunyuan has no model-list action: fetch_models offers the type's default models.
  models: defaultModelsQuery(ChannelType.Tencent),
};
