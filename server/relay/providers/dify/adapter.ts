import { defaultModelsQuery } from '../shared/channel-query.ts';
import { mapErrorBody, unparsableUpstreamJson } from '../shared/error-body.ts';
import { failBeforeContent, gatheredPiece, gatherStream } from '../shared/gathered-stream.ts';
import { createTextStreamConverter, plainUsage, type TextPiece, textCompletion } from '../shared/text-answer.ts';
import { sendUpstream } from '../../upstream.ts';
import { ChannelType } from '../../../../shared/channel-types.ts';
import type { ProviderAdapter, SseEvent, UpstreamRequest } from '../types.ts';
import { difyQuery } from './request.ts';
import { uploadInlineImages } from './upload.ts';

/*
 * Dify apps (type 37): the channel's key is one app's API key (`app-...`), so the app is the model.
 * Every call is `POST /v1/chat-messages` in streaming mode (agent apps refuse blocking mode); a
 * caller that did not ask for a stream gets the events gathered into one answer. Answer deltas come
 * in `message` / `agent_message` events, usage in `message_end`, failures in `error` events or as
 * HTTP errors `{code, message, status}`.
 */

interface DifyEvent {
  event?: string;
  answer?: string;
  metadata?: { usage?: { prompt_tokens?: number; completion_tokens?: number } };
  status?: number;
  code?: string;
  message?: string;
}

function parse(data: string): DifyEvent | undefined {
  try {
    return JSON.parse(data) as DifyEvent;
  } catch {
    return undefined;
  }
}

/** One Dify event as text pieces; workflow, node, agent_thought, file and ping events carry none. */
function read(e: SseEvent): TextPiece[] {
  const d = parse(e.data);
  switch (d?.event) {
    case 'message':
    case 'agent_message':
      return d.answer ? [{ content: d.answer }] : [];
    case 'message_end': {
      const u = d.metadata?.usage;
      return [{ finish: 'stop', ...(u ? { usage: plainUsage(u.prompt_tokens ?? 0, u.completion_tokens ?? 0) } : {}) }];
    }
    case 'error':
      return [{ error: { message: d.message ?? 'Dify error', type: d.code } }];
    default:
      return [];
  }
}

/** An `error` event in a gathered stream fails the attempt with its status and Dify's error body. */
function failureOf(e: SseEvent) {
  const d = parse(e.data);
  if (d?.event !== 'error') return undefined;
  const status = typeof d.status === 'number' && d.status >= 400 ? d.status : 500;
  return { status, body: JSON.stringify({ code: d.code, message: d.message, status }) };
}

const hasContent = (e: SseEvent) => read(e).some((p) => p.content || p.reasoning);

export const difyAdapter: ProviderAdapter = {
  id: 'dify',
  supports: (mode) => mode === 'chat',
  buildRequest(ctx, body): UpstreamRequest {
    const { query, files } = difyQuery(body.messages);
    // Dify needs an end-user id; without the client's, the gateway's model name (so Dify's logs show it).
    const user = typeof body.user === 'string' && body.user !== '' ? body.user : ctx.upstreamModel;
    return {
      url: `${ctx.channel.baseUrl}/v1/chat-messages`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.key}` },
      body: JSON.stringify({
        inputs: {},
        query,
        response_mode: 'streaming',
        user,
        auto_generate_name: false,
        ...(files.length ? { files } : {}),
      }),
    };
  },
  async send(ctx, req, signal) {
    const ready = await uploadInlineImages(ctx, req, signal);
    if ('statusCode' in ready) return ready;
    const res = await sendUpstream(ready, signal, ctx.headersTimeoutMs);
    return ctx.stream ? failBeforeContent(res, failureOf, hasContent) : gatherStream(res, failureOf);
  },
  convertResponse(ctx, text) {
    if (!text.includes('data:')) throw unparsableUpstreamJson();
    return textCompletion(ctx.upstreamModel, gatheredPiece(text, read), ctx.countUsage);
  },
  createStreamConverter: (ctx, clientWantsUsage) =>
    createTextStreamConverter(ctx.upstreamModel, clientWantsUsage, read, ctx.countUsage),
  // Dify has no model-list endpoint: fetch_models offers the type's default models.
  models: defaultModelsQuery(ChannelType.Dify),
  mapError: (status, text) =>
    mapErrorBody(status, text, (json) => {
      const d = json as DifyEvent;
      if (typeof d?.message !== 'string') return undefined;
      return {
        message: d.message,
        ...(d.code ? { code: d.code } : {}),
        ...(status === 401 ? { type: 'authentication_error' } : {}),
      };
    }),
};
