import { nowSeconds } from '../../../db/time.ts';
import { errorTypeOfStatus, mapErrorBody, unparsableUpstreamJson } from '../shared/error-body.ts';
import { createOpenAIStreamConverter } from '../openai/stream.ts';
import { parseOpenAIUsage } from '../openai/usage.ts';
import type { SseEvent, StreamConverter, UpstreamError, Usage } from '../types.ts';

/*
 * Hunyuan's answers read into the internal (OpenAI chat) form. A whole answer is
 * `{"Response": {Id, Choices[{Message{Role, Content, ReasoningContent, ToolCalls}, FinishReason}], Usage}}`;
 * a stream is SSE `data:` events of the same object without the wrapper, `Delta` instead of
 * `Message`, the running Usage in each and no end marker. Each event becomes an OpenAI chunk and
 * goes through the OpenAI stream converter, so usage and reasoning are read as everywhere else.
 */

type Json = Record<string, unknown>;

interface HunyuanToolCall {
  Id?: string;
  Index?: number;
  Function?: { Name?: string; Arguments?: string };
}

interface HunyuanMessage {
  Role?: string;
  Content?: string;
  ReasoningContent?: string;
  ToolCalls?: HunyuanToolCall[] | null;
}

interface HunyuanUsage {
  PromptTokens?: number;
  CompletionTokens?: number;
  TotalTokens?: number;
}

interface HunyuanAnswer {
  Id?: string;
  Created?: number;
  Choices?: { Index?: number; FinishReason?: string; Message?: HunyuanMessage; Delta?: HunyuanMessage }[];
  Usage?: HunyuanUsage;
  Error?: { Code?: string; Message?: string };
  /** An error inside a stream (the service failed after it began answering). */
  ErrorMsg?: { Code?: number | string; Msg?: string };
}

const FINISH: Record<string, string> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  length: 'length',
  sensitive: 'content_filter',
};
const finishOf = (r: string | undefined) => (r ? (FINISH[r] ?? 'stop') : null);

const openAIUsageOf = (u: HunyuanUsage | undefined) =>
  u && {
    prompt_tokens: u.PromptTokens ?? 0,
    completion_tokens: u.CompletionTokens ?? 0,
    total_tokens: u.TotalTokens ?? (u.PromptTokens ?? 0) + (u.CompletionTokens ?? 0),
  };

const toolCallsOf = (calls: HunyuanToolCall[] | null | undefined, streamed: boolean) =>
  calls?.length
    ? calls.map((c, i) => ({
        ...(streamed ? { index: c.Index ?? i } : {}),
        id: c.Id,
        type: 'function',
        function: { name: c.Function?.Name ?? '', arguments: c.Function?.Arguments ?? '' },
      }))
    : undefined;

/** A Hunyuan message or delta in OpenAI's spelling. */
function messageOf(m: HunyuanMessage | undefined, streamed: boolean): Json {
  const out: Json = {};
  if (!streamed || m?.Role) out.role = 'assistant';
  if (!streamed || m?.Content) out.content = m?.Content ?? '';
  if (m?.ReasoningContent) out.reasoning_content = m.ReasoningContent;
  const calls = toolCallsOf(m?.ToolCalls, streamed);
  if (calls) out.tool_calls = calls;
  return out;
}

/** A whole answer (`{"Response": {...}}`) as an OpenAI chat completion with its usage. */
export function fromHunyuanAnswer(text: string, model: string): { body: string; usage?: Usage } {
  let r: HunyuanAnswer | undefined;
  try {
    r = (JSON.parse(text) as { Response?: HunyuanAnswer }).Response;
  } catch {
    throw unparsableUpstreamJson();
  }
  if (!r) throw unparsableUpstreamJson();
  const usage = openAIUsageOf(r.Usage);
  const body = {
    id: r.Id ?? `chatcmpl-${Date.now()}`,
    object: 'chat.completion',
    created: r.Created ?? nowSeconds(),
    model,
    choices: (r.Choices ?? []).map((c, i) => ({
      index: c.Index ?? i,
      message: messageOf(c.Message, false),
      finish_reason: finishOf(c.FinishReason) ?? 'stop',
    })),
    ...(usage ? { usage } : {}),
  };
  return { body: JSON.stringify(body), usage: parseOpenAIUsage(usage) };
}

/**
 * A Hunyuan stream -> OpenAI chunks: each event's choices become a chunk; the usage (running in
 * every event) goes out once, as the usage chunk after the finish; an ErrorMsg ends the stream
 * with an OpenAI error payload.
 */
export function createHunyuanStreamConverter(model: string, clientWantsUsage: boolean): StreamConverter {
  const inner = createOpenAIStreamConverter(clientWantsUsage);
  let id = `chatcmpl-${Date.now()}`;
  let created = nowSeconds();
  let usage: Json | undefined;
  let failed = false;
  const chunk = (choices: Json[], extra: Json = {}) =>
    JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra });
  const feed = (data: string) => inner.push({ data });
  return {
    ...inner,
    push(e: SseEvent) {
      if (failed) return [];
      let r: HunyuanAnswer & { Response?: HunyuanAnswer };
      try {
        r = JSON.parse(e.data) as typeof r;
      } catch {
        return [];
      }
      const err = r.ErrorMsg ?? (r.Response?.Error && { Code: r.Response.Error.Code, Msg: r.Response.Error.Message });
      if (err) {
        failed = true;
        const message = `${err.Msg ?? 'Tencent Hunyuan stream failed'}${err.Code !== undefined ? ` (${err.Code})` : ''}`;
        return [JSON.stringify({ error: { message, type: 'upstream_error' } }), '[DONE]'];
      }
      id = r.Id ?? id;
      created = r.Created ?? created;
      usage = openAIUsageOf(r.Usage) ?? usage;
      const out: string[] = [];
      for (const [i, c] of (r.Choices ?? []).entries()) {
        const finish = finishOf(c.FinishReason);
        const delta = messageOf(c.Delta, true);
        if (Object.keys(delta).length > 0 || finish)
          out.push(...feed(chunk([{ index: c.Index ?? i, delta, finish_reason: finish }])));
        if (finish && usage) {
          out.push(...feed(chunk([], { usage })));
          usage = undefined;
        }
      }
      return out;
    },
    end() {
      if (failed) return [];
      // A stream cut before its finish still reports the usage it had.
      const tail = usage ? feed(chunk([], { usage })) : [];
      usage = undefined;
      return [...tail, ...inner.end()];
    },
  };
}

/** Tencent's error codes by family -> the HTTP status the relay treats them as (Tencent answers 200). */
export function tencentErrorStatus(code: string): number {
  if (code.startsWith('AuthFailure')) return 401;
  if (
    /^(ResourceUnavailable|FailedOperation\.(ServiceNotActivated|ServiceStop|ServiceStopArrears|FreeResourcePackExhausted))/.test(
      code,
    )
  )
    return 402;
  if (code.startsWith('LimitExceeded') || code.startsWith('RequestLimitExceeded')) return 429;
  if (code.startsWith('ResourceNotFound') || code === 'InvalidAction') return 404;
  if (code.startsWith('UnauthorizedOperation') || code.startsWith('OperationDenied')) return 403;
  if (code.startsWith('InternalError') || code.startsWith('ServiceUnavailable')) return 503;
  return 400;
}

/** The error a 200 answer carries (`Response.Error`), as a status; undefined for an answer. */
export function tencentErrorStatusOf(text: string): number | undefined {
  try {
    const code = (JSON.parse(text) as { Response?: { Error?: { Code?: unknown } } }).Response?.Error?.Code;
    return typeof code === 'string' && code ? tencentErrorStatus(code) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `{"Response": {"Error": {Code, Message}, RequestId}}` -> UpstreamError: the code kept, AuthFailure.*
 * (bad SecretId, signature) an authentication error and a stopped or unpaid account insufficient
 * quota, so the channel's dead key is taken out of service.
 */
export function mapTencentError(status: number, text: string): UpstreamError {
  return mapErrorBody(status, text, (json) => {
    const e = (json as { Response?: { Error?: { Code?: string; Message?: string } } } | null)?.Response?.Error;
    if (!e?.Code) return undefined;
    const type = errorTypeOfStatus(tencentErrorStatus(e.Code));
    return { message: `${e.Message ?? e.Code} (${e.Code})`, type, code: e.Code };
  });
}
