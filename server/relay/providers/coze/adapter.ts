import { defaultModelsQuery } from '../shared/channel-query.ts';
import { mapErrorBody, unparsableUpstreamJson } from '../shared/error-body.ts';
import { sendReadingBodyErrors } from '../shared/errors-in-body.ts';
import { failBeforeContent, gatheredPiece, gatherStream } from '../shared/gathered-stream.ts';
import { createTextStreamConverter, plainUsage, type TextPiece, textCompletion } from '../shared/text-answer.ts';
import { ChannelType } from '../../../../shared/channel-types.ts';
import type { ProviderAdapter, SseEvent, UpstreamRequest } from '../types.ts';
import { cozeMessages } from './request.ts';

/*
 * Coze bots (type 49) through the v3 chat API: `POST /v3/chat` with the bot id (the channel's `other`
 * as in new-api, else the model name), bearer personal access token. Always streamed: Coze's
 * non-streamed chat is an async task to poll, so a caller that did not ask for a stream gets the
 * events gathered into one answer. Coze answers refusals with HTTP 200 and `{code, msg}`.
 */

interface CozeEventData {
  type?: string;
  content?: unknown;
  reasoning_content?: unknown;
  usage?: { input_count?: number; output_count?: number };
  last_error?: { code?: number; msg?: string };
  code?: number;
  msg?: string;
}

/** An HTTP status for a Coze error code (4100/4101: bad or unauthorised token, a dead key). */
export function cozeStatus(code: number): number {
  if (code === 4100 || code === 4101) return 401;
  if (code === 4200) return 404;
  if (code === 4009 || code === 4013 || code === 4029) return 429;
  if (code >= 5000) return 500;
  return 400;
}

function parse(data: string): CozeEventData | undefined {
  try {
    return JSON.parse(data) as CozeEventData;
  } catch {
    return undefined;
  }
}

/** The error of a failed chat or an `error` event. */
function failureOfEvent(e: SseEvent): { code: number; msg: string } | undefined {
  if (e.event !== 'conversation.chat.failed' && e.event !== 'error') return undefined;
  const d = parse(e.data);
  const err = e.event === 'error' ? d : d?.last_error;
  return { code: err?.code ?? 5000, msg: err?.msg ?? 'Coze chat failed' };
}

/** One Coze event as text pieces: answer deltas, the finished chat's usage, failures. */
function read(e: SseEvent): TextPiece[] {
  const failure = failureOfEvent(e);
  if (failure) return [{ error: { message: failure.msg, type: String(failure.code) } }];
  if (e.event === 'conversation.message.delta') {
    const d = parse(e.data);
    if (d?.type !== undefined && d.type !== 'answer') return [];
    const piece: TextPiece = {};
    if (typeof d?.content === 'string' && d.content) piece.content = d.content;
    if (typeof d?.reasoning_content === 'string' && d.reasoning_content) piece.reasoning = d.reasoning_content;
    return piece.content || piece.reasoning ? [piece] : [];
  }
  if (e.event === 'conversation.chat.completed') {
    const u = parse(e.data)?.usage;
    return [{ finish: 'stop', ...(u ? { usage: plainUsage(u.input_count ?? 0, u.output_count ?? 0) } : {}) }];
  }
  return [];
}

const bodyError = (text: string): number | undefined => {
  const d = parse(text);
  return typeof d?.code === 'number' && d.code !== 0 ? cozeStatus(d.code) : undefined;
};

/** A failed chat or error event as the attempt's answer: Coze's `{code, msg}` with its status. */
function failure(e: SseEvent) {
  const f = failureOfEvent(e);
  return f && { status: cozeStatus(f.code), body: JSON.stringify(f) };
}

const hasContent = (e: SseEvent) => read(e).some((p) => p.content || p.reasoning);

export const cozeAdapter: ProviderAdapter = {
  id: 'coze',
  supports: (mode) => mode === 'chat',
  buildRequest(ctx, body): UpstreamRequest {
    const user = typeof body.user === 'string' && body.user !== '' ? body.user : 'switchyard';
    return {
      url: `${ctx.channel.baseUrl}/v3/chat`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.key}` },
      body: JSON.stringify({
        bot_id: ctx.channel.other.trim() || ctx.upstreamModel,
        user_id: user,
        stream: true,
        additional_messages: cozeMessages(body.messages),
      }),
    };
  },
  async send(ctx, req, signal) {
    const res = await sendReadingBodyErrors(req, signal, bodyError, ctx.headersTimeoutMs);
    return ctx.stream ? failBeforeContent(res, failure, hasContent) : gatherStream(res, failure);
  },
  convertResponse(ctx, text) {
    if (!text.includes('data:')) throw unparsableUpstreamJson();
    return textCompletion(ctx.upstreamModel, gatheredPiece(text, read), ctx.countUsage);
  },
  createStreamConverter: (ctx, clientWantsUsage) =>
    createTextStreamConverter(ctx.upstreamModel, clientWantsUsage, read, ctx.countUsage),
  // Coze has no model-list endpoint: fetch_models offers the type's default models.
  models: defaultModelsQuery(ChannelType.Coze),
  mapError: (status, text) =>
    mapErrorBody(status, text, (json) => {
      const d = json as CozeEventData;
      if (typeof d?.msg !== 'string') return undefined;
      return {
        message: d.msg,
        code: String(d.code ?? ''),
        ...(d.code === 4100 || d.code === 4101 ? { type: 'authentication_error' } : {}),
      };
    }),
};
