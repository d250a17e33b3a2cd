import { defaultModelsQuery } from '../shared/channel-query.ts';
import { ChannelType } from '../../../../shared/channel-types.ts';
import { sendReadingBodyErrors } from '../shared/errors-in-body.ts';
import { createTextStreamConverter, type TextMessage, textCompletion, textMessages } from '../shared/text-answer.ts';
import type { ProviderAdapter } from '../types.ts';
import { decodeZhipuSse, mapZhipuError, zhipuAnswerPiece, zhipuErrorStatusOf, zhipuStreamPieces } from './response.ts';
import { zhipuToken } from './token.ts';

type Json = Record<string, unknown>;
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * v3's prompt holds user and assistant turns only, alternating: the system text opens the first
 * user turn, and consecutive turns of one role are joined (a tool result is a user turn).
 */
function toZhipuPrompt(messages: unknown): TextMessage[] {
  const turns = textMessages(messages);
  const system = turns
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const out: TextMessage[] = system ? [{ role: 'user', content: system }] : [];
  for (const t of turns) {
    if (t.role === 'system') continue;
    const last = out[out.length - 1];
    if (last?.role === t.role) last.content = `${last.content}\n\n${t.content}`;
    else out.push({ ...t });
  }
  return out;
}

/** The v3 body: prompt, temperature in (0, 1], top_p in (0, 1), `incremental` for a stream. */
export function toZhipuBody(body: Json, stream: boolean): Json {
  const out: Json = { prompt: toZhipuPrompt(body.messages) };
  if (typeof body.temperature === 'number') out.temperature = clamp(body.temperature, 0.01, 1);
  if (typeof body.top_p === 'number') out.top_p = clamp(body.top_p, 0.01, 0.99);
  if (stream) out.incremental = true;
  return out;
}

/**
 * Zhipu, legacy v3 API (type 16): `model-api/{model}/invoke` and `/sse-invoke` with a JWT signed
 * from the key `id.secret`. Zhipu retired it in favour of the OpenAI-compatible v4 (type 26);
 * imported channels keep this wire format.
 */
export const zhipuAdapter: ProviderAdapter = {
  id: 'zhipu',
  supports: (mode) => mode === 'chat',

  async buildRequest(ctx, body) {
    const method = ctx.stream ? 'sse-invoke' : 'invoke';
    return {
      url: `${ctx.channel.baseUrl}/api/paas/v3/model-api/${encodeURIComponent(ctx.upstreamModel)}/${method}`,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: ctx.stream ? 'text/event-stream' : 'application/json',
        // v3 takes the bare JWT, no "Bearer".
        authorization: await zhipuToken(ctx.key),
      },
      body: JSON.stringify(toZhipuBody(body, ctx.stream)),
    };
  },
  send: (ctx, req, signal) => sendReadingBodyErrors(req, signal, zhipuErrorStatusOf, ctx.headersTimeoutMs),

  convertResponse: (ctx, text) => textCompletion(ctx.upstreamModel, zhipuAnswerPiece(text)),
  createStreamConverter(ctx, clientWantsUsage) {
    const converter = createTextStreamConverter(ctx.upstreamModel, clientWantsUsage, zhipuStreamPieces);
    return { ...converter, decode: decodeZhipuSse };
  },
  mapError: mapZhipuError,
  // An account in arrears (1113, given 402) is a dead key like a refused one.
  deadKeyStatuses: [402],
  // The legacy API has no model list: fetch_models offers the type's default models.
  models: defaultModelsQuery(ChannelType.Zhipu),
};
