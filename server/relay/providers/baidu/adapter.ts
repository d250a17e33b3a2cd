import { defaultModelsQuery } from '../shared/channel-query.ts';
import { ChannelType } from '../../../../shared/channel-types.ts';
import type { RelayCancel } from '../../cancel.ts';
import { syntheticAnswer } from '../../upstream.ts';
import { sendReadingBodyErrors } from '../shared/errors-in-body.ts';
import { createTextStreamConverter, textCompletion } from '../shared/text-answer.ts';
import type { AttemptContext, ProviderAdapter, UpstreamRequest } from '../types.ts';
import { baiduUrl, toBaiduChatBody, toBaiduEmbeddingBody } from './request.ts';
import {
  baiduAnswerPiece,
  baiduErrorCodeOf,
  baiduErrorStatus,
  baiduStreamPieces,
  fromBaiduEmbeddings,
  mapBaiduError,
  TOKEN_ERRORS,
} from './response.ts';
import { baiduToken, forgetBaiduToken, parseBaiduKey } from './token.ts';

/** The encoding_format each embeddings attempt asked for (read back when its answer is converted). */
const embeddingFormats = new WeakMap<AttemptContext, unknown>();

const errorStatusOf = (text: string) => {
  const code = baiduErrorCodeOf(text);
  return code === undefined ? undefined : baiduErrorStatus(code);
};

/**
 * Sends with the key's cached access token in the query. A token Baidu calls invalid or expired
 * (110/111) is dropped and the call made once more with a fresh one; a key the token endpoint
 * refuses answers as that refusal (a dead key).
 */
async function sendWithToken(ctx: AttemptContext, req: UpstreamRequest, signal: AbortSignal | RelayCancel) {
  const base = ctx.channel.baseUrl;
  for (let attempt = 0; ; attempt++) {
    const t = await baiduToken(base, ctx.key, signal);
    if ('refusedStatus' in t) return syntheticAnswer(t.refusedStatus, t.refusedBody);
    const sep = req.url.includes('?') ? '&' : '?';
    const withToken = { ...req, url: `${req.url}${sep}access_token=${encodeURIComponent(t.token)}` };
    let code: number | undefined;
    const res = await sendReadingBodyErrors(
      withToken,
      signal,
      (text) => {
        code = baiduErrorCodeOf(text);
        return errorStatusOf(text);
      },
      ctx.headersTimeoutMs,
    );
    if (attempt > 0 || code === undefined || !TOKEN_ERRORS.has(code)) return res;
    await res.body.dump();
    forgetBaiduToken(base, ctx.key, t.token);
  }
}

/**
 * Baidu ERNIE, legacy API (type 15): wenxinworkshop chat and embeddings with an OAuth access token
 * exchanged for the key `APIKey|SecretKey`. Baidu retired it in favour of Qianfan v2 (type 46);
 * imported channels keep this wire format.
 */
export const baiduAdapter: ProviderAdapter = {
  id: 'baidu',
  supports: (mode) => mode === 'chat' || mode === 'embeddings',

  buildRequest(ctx, body) {
    parseBaiduKey(ctx.key); // a malformed key is the operator's to fix, before anything is sent
    const embeddings = ctx.mode === 'embeddings';
    if (embeddings) embeddingFormats.set(ctx, body.encoding_format);
    return {
      url: baiduUrl(ctx.channel.baseUrl, ctx.upstreamModel, embeddings),
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(embeddings ? toBaiduEmbeddingBody(body) : toBaiduChatBody(body, ctx.stream)),
    };
  },
  send: sendWithToken,

  convertResponse: (ctx, text) =>
    ctx.mode === 'embeddings'
      ? fromBaiduEmbeddings(text, ctx.upstreamModel, embeddingFormats.get(ctx))
      : textCompletion(ctx.upstreamModel, baiduAnswerPiece(text)),
  createStreamConverter: (ctx, clientWantsUsage) =>
    createTextStreamConverter(ctx.upstreamModel, clientWantsUsage, baiduStreamPieces),
  mapError: mapBaiduError,
  // The legacy API has no model list: fetch_models offers the type's default models.
  models: defaultModelsQuery(ChannelType.Baidu),
};
