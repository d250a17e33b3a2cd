import { sendUpstream, type UpstreamResponse } from '../../upstream.ts';
import type { RelayCancel } from '../../cancel.ts';
import { type GatheredFailure, gatheredPiece, gatherStream } from '../shared/gathered-stream.ts';
import { plainUsage, type TextPiece, textCompletion } from '../shared/text-answer.ts';
import type { AttemptContext, SseEvent, UpstreamRequest } from '../types.ts';

/*
 * QwQ, QVQ, Qwen3's thinking releases and a Qwen3 model asked to think answer streams only (DashScope refuses a call not streamed with
 * 400 "only support stream mode" / "enable_thinking must be set to false for non-streaming calls").
 * For a caller that did not ask for a stream, such a call is streamed upstream and the events are
 * gathered into one chat completion (reasoning as `reasoning_content`). Calls with tools are left
 * as they are (the gathered answer carries text only), so DashScope's refusal reaches the caller.
 */

type Json = Record<string, unknown>;

/** Models that always think, so only stream: QwQ, QVQ, Qwen3's `-thinking-` releases. */
export const thinksAlways = (model: string) => /^(qwq|qvq)|-thinking/i.test(model);

/**
 * Qwen3's open-weight hybrid models (qwen3-32b, qwen3-235b-a22b...) think unless told not to, so a call
 * not streamed must say `enable_thinking: false` (the commercial qwen-plus / qwen-max default to off).
 */
export const thinksByDefault = (model: string) => /^qwen3-\d+(\.\d+)?b(-a\d+(\.\d+)?b)?$/i.test(model);

/** Whether this compatible-mode chat body may only be streamed (and can be gathered). */
export function streamOnly(ctx: AttemptContext, out: Json): boolean {
  if (ctx.mode !== 'chat' || ctx.stream || (Array.isArray(out.tools) && out.tools.length > 0)) return false;
  return thinksAlways(ctx.upstreamModel) || out.enable_thinking === true;
}

/** The body streamed with usage, for gathering. */
export const asGatheredStream = (out: Json): Json => ({
  ...out,
  stream: true,
  stream_options: { include_usage: true },
});

/** Whether the chat request goes out streamed though the client did not ask for a stream. */
export function isGathered(ctx: AttemptContext, req: UpstreamRequest): boolean {
  if (ctx.stream || ctx.mode !== 'chat' || typeof req.body !== 'string') return false;
  try {
    return (JSON.parse(req.body) as Json).stream === true;
  } catch {
    return false;
  }
}

/** Whether a 2xx answer is a gathered stream's events (sendGathered) rather than a completion. */
export const isGatheredText = (ctx: AttemptContext, text: string) =>
  !ctx.stream && ctx.mode === 'chat' && /^\s*data:/.test(text);

/** One compatible-mode chunk as text pieces. */
function readChunk(e: SseEvent): TextPiece[] {
  if (e.data === '[DONE]') return [];
  let o: {
    choices?: { delta?: { content?: unknown; reasoning_content?: unknown }; finish_reason?: unknown }[];
    usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  };
  try {
    o = JSON.parse(e.data) as typeof o;
  } catch {
    return [];
  }
  const c = o.choices?.[0];
  const piece: TextPiece = {};
  if (typeof c?.delta?.content === 'string') piece.content = c.delta.content;
  if (typeof c?.delta?.reasoning_content === 'string') piece.reasoning = c.delta.reasoning_content;
  if (typeof c?.finish_reason === 'string') piece.finish = c.finish_reason;
  if (o.usage) piece.usage = plainUsage(o.usage.prompt_tokens ?? 0, o.usage.completion_tokens ?? 0);
  return [piece];
}

/** An `{error}` event inside the stream fails the attempt (500: DashScope's own failure). */
function failureOf(e: SseEvent): GatheredFailure | undefined {
  if (!e.data.includes('"error"')) return undefined;
  try {
    const o = JSON.parse(e.data) as { error?: unknown };
    return o.error ? { status: 500, body: e.data } : undefined;
  } catch {
    return undefined;
  }
}

export async function sendGathered(
  req: UpstreamRequest,
  signal: AbortSignal | RelayCancel,
  headersTimeoutMs?: number,
): Promise<UpstreamResponse> {
  return gatherStream(await sendUpstream(req, signal, headersTimeoutMs), failureOf);
}

/** The gathered events as one chat completion's JSON. */
export const gatheredCompletion = (ctx: AttemptContext, text: string) =>
  textCompletion(ctx.upstreamModel, gatheredPiece(text, readChunk)).body;
