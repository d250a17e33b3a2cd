import { ChannelType } from '../../../../shared/channel-types.ts';
import { defaultModelsQuery } from '../shared/channel-query.ts';
import { mapErrorBody, unparsableUpstreamJson } from '../shared/error-body.ts';
import { sendReadingBodyErrors } from '../shared/errors-in-body.ts';
import { createTextStreamConverter, type TextPiece, textCompletion, textMessages } from '../shared/text-answer.ts';
import type { AttemptContext, ProviderAdapter, SseEvent, UpstreamRequest } from '../types.ts';

/*
 * AI Proxy's knowledge base (type 21, one-api's "AIProxyLibrary"): a question asked of a library
 * (`other` holds its id) at `/api/library/ask`. The library answers the last user turn; the documents it
 * cites are appended as a reference list, as one-api did. It reports no usage (the relay counts) and
 * answers failures with HTTP 200 and `success: false`.
 */

interface LibraryDocument {
  title?: string;
  url?: string;
}

interface LibraryAnswer {
  success?: boolean;
  answer?: string;
  content?: string;
  finish?: boolean;
  documents?: LibraryDocument[];
  errCode?: number;
  errMsg?: string;
}

const references = (docs: LibraryDocument[] | undefined) =>
  docs?.length
    ? `\n\n参考文献：\n${docs.map((d, i) => `${i + 1}. [${d.title ?? ''}](${d.url ?? ''})`).join('\n')}\n`
    : '';

function parse(text: string): LibraryAnswer {
  try {
    return JSON.parse(text) as LibraryAnswer;
  } catch {
    throw unparsableUpstreamJson();
  }
}

/** A failed answer's status: the library's own code when it is an HTTP status (401 for a bad key), else 400. */
const failureStatus = (a: LibraryAnswer) =>
  a.errCode !== undefined && a.errCode >= 400 && a.errCode < 600 ? a.errCode : 400;

export const aiProxyLibraryAdapter: ProviderAdapter = {
  id: 'aiproxy-library',
  supports: (mode) => mode === 'chat',
  reportsNoUsage: true,
  buildRequest(ctx: AttemptContext, body): UpstreamRequest {
    const query = textMessages(body.messages).findLast((m) => m.role === 'user')?.content ?? '';
    return {
      url: `${ctx.channel.baseUrl}/api/library/ask`,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: ctx.stream ? 'text/event-stream' : 'application/json',
        authorization: `Bearer ${ctx.key}`,
      },
      body: JSON.stringify({ model: ctx.upstreamModel, query, libraryId: ctx.channel.other, stream: ctx.stream }),
    };
  },
  send: (ctx, req, signal) =>
    sendReadingBodyErrors(
      req,
      signal,
      (text) => {
        try {
          const a = JSON.parse(text) as LibraryAnswer;
          return a.success === false ? failureStatus(a) : undefined;
        } catch {
          return undefined;
        }
      },
      ctx.headersTimeoutMs,
    ),
  convertResponse(ctx, text) {
    const a = parse(text);
    return textCompletion(
      ctx.upstreamModel,
      { content: `${a.answer ?? ''}${references(a.documents)}` },
      ctx.countUsage,
    );
  },
  createStreamConverter(ctx, clientWantsUsage) {
    const read = (e: SseEvent): TextPiece[] => {
      const a = parse(e.data);
      if (a.success === false) return [{ error: { message: a.errMsg ?? 'knowledge base error' } }];
      const content = `${a.content ?? ''}${a.finish ? references(a.documents) : ''}`;
      return [{ content, ...(a.finish ? { finish: 'stop' } : {}) }];
    };
    return createTextStreamConverter(ctx.upstreamModel, clientWantsUsage, read, ctx.countUsage);
  },
  // A knowledge base has no model list: fetch_models offers the type's default models.
  models: defaultModelsQuery(ChannelType.AIProxyLibrary),
  mapError: (status, text) =>
    mapErrorBody(status, text, (json) => {
      const a = json as LibraryAnswer;
      return typeof a?.errMsg === 'string'
        ? {
            message: a.errMsg,
            code: String(a.errCode ?? ''),
            ...(status === 401 ? { type: 'authentication_error' } : {}),
          }
        : undefined;
    }),
};
