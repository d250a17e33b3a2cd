import { mapErrorBody, unparsableUpstreamJson } from '../shared/error-body.ts';
import { plainUsage, type TextPiece } from '../shared/text-answer.ts';
import type { UpstreamError } from '../types.ts';

/*
 * Spark's answer frames: `{header: {code, message, sid, status}, payload: {choices: {status, seq,
 * text: [{content, reasoning_content, role, index}]}, usage: {text: {question_tokens, prompt_tokens,
 * completion_tokens, total_tokens}}}}`. Status 0 is the first frame, 1 the ones between, 2 the last
 * (which carries the usage). A frame with `header.code` other than 0 is an error and ends the session.
 */

export interface SparkFrame {
  header?: { code?: number; message?: string; sid?: string; status?: number };
  payload?: {
    choices?: {
      status?: number;
      seq?: number;
      text?: { content?: string; reasoning_content?: string; role?: string; index?: number }[];
    };
    usage?: { text?: { question_tokens?: number; prompt_tokens?: number; completion_tokens?: number } };
  };
}

export function parseSparkFrame(text: string): SparkFrame {
  try {
    return JSON.parse(text) as SparkFrame;
  } catch {
    throw unparsableUpstreamJson();
  }
}

export const isLastFrame = (f: SparkFrame) => f.header?.status === 2 || f.payload?.choices?.status === 2;
export const sparkErrorCode = (f: SparkFrame) => f.header?.code ?? 0;

/** Spark's error codes (Web.html § 错误码) as an HTTP status and, for dead keys, OpenAI's error type. */
function classify(code: number): { status: number; type?: string } {
  // app_id not matching the APIKey: the key is wrong.
  if (code === 10313) return { status: 401, type: 'authentication_error' };
  // Blacklisted app, app not licensed for this version, or its tokens used up (11200 "AppIdNoAuthError").
  if (code === 10015 || code === 10016 || code === 11200) return { status: 403, type: 'permission_error' };
  // One session at a time per user (10006/10007), daily, per-second and concurrency limits (11201-11203).
  if (code === 10006 || code === 10007 || (code >= 11201 && code <= 11203)) return { status: 429 };
  // Malformed message, schema, parameter values, engine schema, too many tokens; refused content.
  if ([10003, 10004, 10005, 10163, 10907, 10013, 10014, 10019].includes(code))
    return { status: 400, type: 'invalid_request_error' };
  // A path and domain that do not go together ("PathDomainError: no category route found").
  if (code === 10404) return { status: 404, type: 'invalid_request_error' };
  // The service's own failures (capacity, engine, network): another channel may do.
  return { status: 503 };
}

/** The HTTP status of an error frame; undefined for a frame without an error. */
export function sparkErrorStatus(f: SparkFrame): number | undefined {
  const code = sparkErrorCode(f);
  return code === 0 ? undefined : classify(code).status;
}

const frameMessage = (f: SparkFrame) => `Spark error ${sparkErrorCode(f)}: ${f.header?.message ?? 'unknown error'}`;

/**
 * A failed Spark exchange in OpenAI terms: an error frame (given its status by the transport), or
 * a refused handshake (`{"message": "HMAC signature does not match"}` with 401, a stale date with 403).
 */
export function mapSparkError(status: number, text: string): UpstreamError {
  return mapErrorBody(status, text, (json) => {
    const f = json as SparkFrame & { message?: unknown };
    if (f.header && sparkErrorCode(f) !== 0) {
      const { type } = classify(sparkErrorCode(f));
      return { message: frameMessage(f), code: `spark_${sparkErrorCode(f)}`, ...(type ? { type } : {}) };
    }
    if (typeof f.message !== 'string') return undefined;
    if (status === 401) return { message: f.message, type: 'authentication_error' };
    // 403: a date off by more than five minutes is this gateway's clock, not the key; otherwise (an IP
    // not on the app's allow-list) the key cannot serve from here.
    if (status === 403 && !/date/i.test(f.message)) return { message: f.message, type: 'permission_error' };
    return { message: f.message };
  });
}

/** What one frame carries, for the text-answer builders (an error frame ends a stream with its error). */
export function piecesOfFrame(f: SparkFrame): TextPiece[] {
  if (sparkErrorCode(f) !== 0) return [{ error: { message: frameMessage(f), type: 'upstream_error' } }];
  const piece: TextPiece = {};
  const texts = f.payload?.choices?.text ?? [];
  const content = texts.map((t) => t.content ?? '').join('');
  const reasoning = texts.map((t) => t.reasoning_content ?? '').join('');
  if (content) piece.content = content;
  if (reasoning) piece.reasoning = reasoning;
  const u = f.payload?.usage?.text;
  if (u) piece.usage = plainUsage(u.prompt_tokens ?? 0, u.completion_tokens ?? 0);
  if (isLastFrame(f)) piece.finish = 'stop';
  return [piece];
}

/**
 * A whole answer as one frame (Spark has no non-streaming mode: the transport gathers the frames):
 * the texts joined, the last frame's header and usage.
 */
export function gatherFrames(frames: SparkFrame[]): SparkFrame {
  const last = frames.at(-1) ?? {};
  const text = (key: 'content' | 'reasoning_content') =>
    frames
      .flatMap((f) => f.payload?.choices?.text ?? [])
      .map((t) => t[key] ?? '')
      .join('');
  const reasoning = text('reasoning_content');
  return {
    header: last.header,
    payload: {
      choices: {
        status: 2,
        seq: last.payload?.choices?.seq ?? 0,
        text: [
          {
            content: text('content'),
            ...(reasoning ? { reasoning_content: reasoning } : {}),
            role: 'assistant',
            index: 0,
          },
        ],
      },
      ...(last.payload?.usage ? { usage: last.payload.usage } : {}),
    },
  };
}
