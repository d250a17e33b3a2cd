import { errorTypeOfStatus, mapErrorBody, unparsableUpstreamJson } from '../shared/error-body.ts';
import { openAIEmbeddings } from '../shared/embeddings.ts';
import { plainUsage, type TextPiece } from '../shared/text-answer.ts';
import type { SseEvent, UpstreamError } from '../types.ts';

/*
 * Baidu's legacy answers: `{id, result, is_truncated, need_clear_history, usage}` whole, the same
 * per `data:` event when streamed (`is_end` on the last, which carries the usage), and errors as
 * `{error_code, error_msg}` with HTTP 200 (given a status by `baiduErrorStatusOf` before the relay
 * reads them). The token endpoint refuses a key with `{error, error_description}`.
 */

interface BaiduAnswer {
  result?: string;
  is_end?: boolean;
  is_truncated?: boolean;
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
  error_code?: number;
  error_msg?: string;
  data?: { embedding?: number[]; index?: number }[];
}

const parse = (text: string): BaiduAnswer => {
  try {
    return JSON.parse(text) as BaiduAnswer;
  } catch {
    throw unparsableUpstreamJson();
  }
};

const usageOf = (u: BaiduAnswer['usage']) =>
  u && (u.total_tokens || u.prompt_tokens)
    ? plainUsage(u.prompt_tokens ?? 0, u.completion_tokens ?? (u.total_tokens ?? 0) - (u.prompt_tokens ?? 0))
    : undefined;

/** A whole chat answer (or a stream event) as a text piece. */
export function baiduPiece(r: BaiduAnswer, streamed: boolean): TextPiece {
  if (r.error_code) return { error: { message: `${r.error_msg ?? 'Baidu error'} (${r.error_code})` } };
  const finish = r.is_truncated ? 'length' : 'stop';
  return {
    content: r.result ?? '',
    ...(!streamed || r.is_end ? { finish, usage: usageOf(r.usage) } : {}),
  };
}

export const baiduAnswerPiece = (text: string) => baiduPiece(parse(text), false);

export function baiduStreamPieces(e: SseEvent): TextPiece[] {
  let r: BaiduAnswer;
  try {
    r = JSON.parse(e.data) as BaiduAnswer;
  } catch {
    return [];
  }
  return [baiduPiece(r, true)];
}

/** The embeddings answer as OpenAI's list. */
export function fromBaiduEmbeddings(text: string, model: string, encodingFormat: unknown) {
  const r = parse(text);
  const data = [...(r.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  return openAIEmbeddings(
    data.map((d) => d.embedding ?? []),
    model,
    r.usage?.prompt_tokens ?? 0,
    encodingFormat,
  );
}

/** Baidu's access-token errors: the cached token is dropped and the call made once more. */
export const TOKEN_ERRORS = new Set([110, 111]);

/** Baidu's error codes -> the HTTP status the relay treats them as (Baidu answers 200). */
export function baiduErrorStatus(code: number): number {
  if (code === 110 || code === 111 || code === 13 || code === 14) return 401; // token / IAM authentication
  if (code === 6) return 403; // no permission (the service not enabled for this app)
  if (code === 4 || code === 17 || code === 18 || code === 19 || code === 336501 || code === 336502) return 429;
  if (code === 3 || code === 336005) return 404; // unknown method / API name
  if (code === 1 || code === 336000) return 500;
  if (code === 2 || code === 336100) return 503;
  return 400; // 336001-336007 and the rest: the request's fault
}

/** The status of an error a 200 answer carries; undefined for an answer. */
export function baiduErrorCodeOf(text: string): number | undefined {
  try {
    const code = (JSON.parse(text) as BaiduAnswer).error_code;
    return typeof code === 'number' && code ? code : undefined;
  } catch {
    return undefined;
  }
}

/** `{error_code, error_msg}` (chat) or `{error, error_description}` (token endpoint) -> UpstreamError. */
export function mapBaiduError(status: number, text: string): UpstreamError {
  return mapErrorBody(status, text, (json) => {
    const j = json as { error_code?: number; error_msg?: string; error?: string; error_description?: string } | null;
    if (j?.error)
      // The token endpoint refused the API Key / Secret Key: the key is dead.
      return {
        message: `Baidu refused the channel's API Key or Secret Key: ${j.error_description ?? j.error} (${j.error})`,
        type: 'authentication_error',
        code: 'invalid_api_key',
      };
    if (!j?.error_code) return undefined;
    const type = errorTypeOfStatus(baiduErrorStatus(j.error_code));
    return { message: `${j.error_msg ?? 'Baidu error'} (${j.error_code})`, type, code: String(j.error_code) };
  });
}
