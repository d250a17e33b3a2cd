import { ChannelType } from '../../../../shared/channel-types.ts';
import { mapGeminiError } from '../gemini/adapter.ts';
import { defaultModelsQuery } from '../shared/channel-query.ts';
import { unparsableUpstreamJson } from '../shared/error-body.ts';
import { createTextStreamConverter, type TextPiece, textCompletion, textMessages } from '../shared/text-answer.ts';
import type { AttemptContext, ProviderAdapter, SseEvent, UpstreamRequest } from '../types.ts';

/*
 * Google PaLM (type 11): the v1beta2 `generateMessage` API, as new-api relays it. Google has retired
 * it in favour of Gemini (type 24); imported channels keep this wire format. It has no streaming and
 * reports no usage: a stream request gets the whole answer as one piece, and the relay counts tokens.
 */

interface PalmAnswer {
  candidates?: { author?: string; content?: string }[];
  filters?: { reason?: string; message?: string }[];
}

function toPalmRequest(body: Record<string, unknown>) {
  const turns = textMessages(body.messages);
  const context = turns
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
  return {
    prompt: {
      ...(context ? { context } : {}),
      // PaLM's authors are free-form; the documented convention is "0" for the user, "1" for the model.
      messages: turns
        .filter((m) => m.role !== 'system')
        .map((m) => ({ author: m.role === 'user' ? '0' : '1', content: m.content })),
    },
    ...(typeof body.temperature === 'number' ? { temperature: Math.min(body.temperature, 1) } : {}),
    ...(typeof body.top_p === 'number' ? { topP: body.top_p } : {}),
    ...(typeof body.n === 'number' ? { candidateCount: body.n } : {}),
  };
}

function pieceOf(text: string): TextPiece {
  let r: PalmAnswer;
  try {
    r = JSON.parse(text) as PalmAnswer;
  } catch {
    throw unparsableUpstreamJson();
  }
  const c = r.candidates?.[0];
  // A filtered prompt or answer has no candidates: an empty answer stopped by the filter.
  return c ? { content: c.content ?? '', finish: 'stop' } : { content: '', finish: 'content_filter' };
}

export const palmAdapter: ProviderAdapter = {
  id: 'palm',
  supports: (mode) => mode === 'chat',
  buildRequest(ctx: AttemptContext, body): UpstreamRequest {
    return {
      url: `${ctx.channel.baseUrl}/v1beta2/models/${ctx.upstreamModel}:generateMessage`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': ctx.key },
      body: JSON.stringify(toPalmRequest(body)),
    };
  },
  reportsNoUsage: true,
  convertResponse: (ctx, text) => textCompletion(ctx.upstreamModel, pieceOf(text), ctx.countUsage),
  createStreamConverter(ctx, clientWantsUsage) {
    const read = (e: SseEvent) => [pieceOf(e.data)];
    const converter = createTextStreamConverter(ctx.upstreamModel, clientWantsUsage, read, ctx.countUsage);
    return {
      ...converter,
      // The answer is one JSON body, not SSE: it is read whole and given to the converter as one event.
      async *decode(body: AsyncIterable<Uint8Array>) {
        const parts: Buffer[] = [];
        for await (const c of body) parts.push(Buffer.from(c));
        yield [{ data: Buffer.concat(parts).toString('utf8') }];
      },
    };
  },
  mapError: mapGeminiError,
  // The PaLM model list went with the API: fetch_models offers the type's default models.
  models: defaultModelsQuery(ChannelType.PaLM),
  deadKeyStatuses: [403],
};
