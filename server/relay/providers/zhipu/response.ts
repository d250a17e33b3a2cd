import { errorTypeOfStatus, mapErrorBody, unparsableUpstreamJson } from '../shared/error-body.ts';
import { plainUsage, type TextPiece } from '../shared/text-answer.ts';
import type { SseEvent, UpstreamError, Usage } from '../types.ts';

/*
 * Zhipu's legacy v3 answers. `invoke`: `{code, msg, success, data: {task_id, choices[{role,
 * content}], usage}}`, the content a JSON-quoted string; errors with HTTP 200, `success: false` and
 * a `code`. `sse-invoke`: events `add` (the `data:` lines are raw text, several lines meaning line
 * breaks), `finish` (its usage on a `meta:` line, which plain SSE readers drop), `error` and
 * `interrupted`, so the stream is read here (`decodeZhipuSse`) rather than by the relay's parser.
 */

interface ZhipuUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

interface ZhipuAnswer {
  code?: number;
  msg?: string;
  success?: boolean;
  data?: { task_id?: string; choices?: { role?: string; content?: string }[]; usage?: ZhipuUsage };
}

const usageOf = (u: ZhipuUsage | undefined): Usage | undefined =>
  u && (u.total_tokens || u.prompt_tokens)
    ? plainUsage(u.prompt_tokens ?? 0, u.completion_tokens ?? (u.total_tokens ?? 0) - (u.prompt_tokens ?? 0))
    : undefined;

/** v3 quotes its content as a JSON string (`"\"Hi\\n\""`): read back as the text it stands for. */
function unquote(content: string): string {
  if (content.length >= 2 && content.startsWith('"') && content.endsWith('"')) {
    try {
      const v: unknown = JSON.parse(content);
      if (typeof v === 'string') return v;
    } catch {
      return content.slice(1, -1);
    }
  }
  return content;
}

/** A whole `invoke` answer as a text piece. */
export function zhipuAnswerPiece(text: string): TextPiece {
  let r: ZhipuAnswer;
  try {
    r = JSON.parse(text) as ZhipuAnswer;
  } catch {
    throw unparsableUpstreamJson();
  }
  const content = (r.data?.choices ?? []).map((c) => unquote(c.content ?? '')).join('');
  return { content, finish: 'stop', usage: usageOf(r.data?.usage) };
}

/** One stream event (as `decodeZhipuSse` yields them) as text pieces. */
export function zhipuStreamPieces(e: SseEvent): TextPiece[] {
  if (e.event === 'add') return e.data ? [{ content: e.data }] : [];
  if (e.event === 'finish') {
    let meta: { usage?: ZhipuUsage } = {};
    try {
      meta = JSON.parse(e.data) as typeof meta;
    } catch {
      // A finish without meta: no usage; the relay counts the text.
    }
    return [{ finish: 'stop', usage: usageOf(meta.usage) }];
  }
  if (e.event === 'error' || e.event === 'interrupted')
    return [{ error: { message: `Zhipu stream ${e.event}${e.data ? `: ${e.data}` : ''}` } }];
  return [];
}

/** One SSE block's fields: event, data lines joined by line breaks, meta. */
function readBlock(block: string): { event: string; data: string; meta?: string } {
  let event = 'message';
  const data: string[] = [];
  let meta: string | undefined;
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue; // blank or a comment
    const field = line.slice(0, colon);
    const value = line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'meta') meta = value;
  }
  return { event, data: data.join('\n'), meta };
}

/** Reads the `sse-invoke` body into events; a finish's text goes out as an `add` before it. */
export async function* decodeZhipuSse(body: AsyncIterable<Uint8Array>): AsyncIterable<SseEvent[]> {
  const decoder = new TextDecoder();
  let buffer = '';
  const drain = (final: boolean) => {
    const blocks = buffer.split(/\r?\n\r?\n/);
    buffer = final ? '' : (blocks.pop() ?? '');
    const out: SseEvent[] = [];
    for (const b of blocks) {
      if (!b.trim()) continue;
      const { event, data, meta } = readBlock(b);
      if (event === 'finish') {
        if (data) out.push({ event: 'add', data });
        out.push({ event: 'finish', data: meta ?? '' });
      } else out.push({ event, data });
    }
    return out;
  };
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    const events = drain(false);
    if (events.length) yield events;
  }
  buffer += decoder.decode();
  const rest = drain(true);
  if (rest.length) yield rest;
}

/** Zhipu's error codes -> the HTTP status the relay treats them as (v3 answers 200). */
export function zhipuErrorStatus(code: number): number {
  if (code >= 1000 && code <= 1004) return 401; // authentication: the token or the key
  if (code === 1113) return 402; // the account is in arrears
  if (code === 1211) return 404; // no such model
  if (code === 1302 || code === 1303 || code === 1305) return 429;
  if (code === 1234 || code === 500) return 500;
  return 400;
}

/** The status of an error a 200 answer carries (`success: false`); undefined for an answer. */
export function zhipuErrorStatusOf(text: string): number | undefined {
  try {
    const r = JSON.parse(text) as ZhipuAnswer;
    if (r.success !== false) return undefined;
    return zhipuErrorStatus(typeof r.code === 'number' ? r.code : 400);
  } catch {
    return undefined;
  }
}

/** `{code, msg, success: false}` -> UpstreamError; a refused key or an account in arrears is a dead key. */
export function mapZhipuError(status: number, text: string): UpstreamError {
  return mapErrorBody(status, text, (json) => {
    const j = json as ZhipuAnswer | null;
    if (typeof j?.code !== 'number' || j.success !== false) return undefined;
    const type = errorTypeOfStatus(zhipuErrorStatus(j.code));
    return { message: `${j.msg ?? 'Zhipu error'} (${j.code})`, type, code: String(j.code) };
  });
}
