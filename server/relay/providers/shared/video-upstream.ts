import { netFailurePhrase } from '../../../net-failure.ts';
import { RelayError, relayRefusal } from '../../errors.ts';
import type { VideoCall, VideoFile } from '../../tasks/video/types.ts';
import { sendUpstream } from '../../upstream.ts';

/*
 * The two HTTP exchanges every video adapter makes: one JSON call (submit, poll, a file lookup)
 * and opening a finished file with the client's Range passed through. Both name the channel in
 * their errors, never its host, URL or key: a video client must not learn where the job ran.
 */

const JSON_TIMEOUT_MS = 60_000;
/** Headers of a file answer; the body may then take minutes (a long video on a slow link). */
const FILE_HEADERS_TIMEOUT_MS = 60_000;

export interface VideoJsonAnswer {
  status: number;
  // Each adapter reads its provider's shape and checks what it reads.
  json: Record<string, unknown>;
}

/** A network failure (refused, reset, timed out) reaching the channel: 502 naming the channel only. */
export const channelUnreachable = (channel: { id: number }, err: unknown) => {
  const why = netFailurePhrase(err);
  return new RelayError(
    502,
    `The request to channel #${channel.id} failed: ${why.en}`,
    'upstream_error',
    true,
    `渠道 #${channel.id} 请求失败：${why.zh}`,
  );
};

const unreadable = (channel: { id: number }, status: number) =>
  new RelayError(
    502,
    `Channel #${channel.id} answered with unreadable content (HTTP ${status})`,
    'bad_response',
    true,
    `渠道 #${channel.id} 返回了无法解析的内容 (HTTP ${status})`,
  );

/**
 * One JSON exchange with the channel (`body` already serialised): the answer's status and its body
 * parsed (`empty` when there is none); a network failure or a body that is not JSON is a 502.
 */
export async function exchangeJson(
  channel: { id: number },
  req: { url: string; method: 'GET' | 'POST' | 'DELETE'; headers: Record<string, string>; body?: string },
  empty: unknown,
): Promise<{ status: number; json: unknown }> {
  let res;
  try {
    res = await sendUpstream(
      {
        url: req.url,
        // UpstreamRequest names the relay's GET and POST; the pool (undici) sends Ark's DELETE as well.
        method: req.method as 'GET' | 'POST',
        headers: { accept: 'application/json', ...req.headers },
        body: req.body,
      },
      AbortSignal.timeout(JSON_TIMEOUT_MS),
    );
  } catch (err) {
    throw channelUnreachable(channel, err);
  }
  const text = await res.body.text();
  try {
    return { status: res.statusCode, json: text ? (JSON.parse(text) as unknown) : empty };
  } catch {
    throw unreadable(channel, res.statusCode);
  }
}

/** One JSON request to the channel's base URL + `path`; a network failure or an answer that is not a JSON object is a 502. */
export async function videoJson(
  call: VideoCall,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<VideoJsonAnswer> {
  const { status, json } = await exchangeJson(
    call.channel,
    {
      url: `${call.channel.baseUrl}${path}`,
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    {},
  );
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw unreadable(call.channel, status);
  return { status, json: json as Record<string, unknown> };
}

/** The headers of a file answer a client may see (no upstream cookies, hosts or signatures). */
const FILE_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'last-modified', 'etag'];

/**
 * GETs a file URL the upstream gave, passing `range` through: only its headers are timed, the body
 * may take many minutes (a long video on a slow link). A network failure is a 502 naming the channel.
 */
export async function requestVideoFile(
  channel: { id: number },
  url: string,
  range: string | undefined,
  headers: Record<string, string> = {},
) {
  try {
    return await sendUpstream(
      { url, method: 'GET', headers: { ...headers, ...(range ? { range } : {}) } },
      AbortSignal.timeout(30 * 60_000),
      FILE_HEADERS_TIMEOUT_MS,
    );
  } catch (err) {
    throw channelUnreachable(channel, err);
  }
}

/** A file answer as the client gets it: its status, the headers it may see, the body streamed. */
export function videoFileOf(res: Awaited<ReturnType<typeof requestVideoFile>>): VideoFile {
  const out: Record<string, string> = {};
  for (const name of FILE_HEADERS) {
    const v = res.headers[name];
    if (typeof v === 'string') out[name] = v;
  }
  return { status: res.statusCode, headers: out, body: res.body };
}

/** 502: the upstream would not serve a finished job's file. */
export const fileRefused = (channel: { id: number }, status: number) =>
  new RelayError(
    502,
    `Channel #${channel.id} could not serve the video file (HTTP ${status})`,
    'upstream_error',
    true,
    `渠道 #${channel.id} 无法提供视频文件 (HTTP ${status})`,
  );

/**
 * Opens a file URL the upstream gave (`headers` carries a key where the provider wants one),
 * passing `range` through so a player can seek. A 4xx/5xx is an upstream error naming the channel.
 */
export async function openVideoFile(
  call: VideoCall,
  url: string,
  range: string | undefined,
  headers: Record<string, string> = {},
): Promise<VideoFile> {
  const res = await requestVideoFile(call.channel, url, range, headers);
  if (res.statusCode >= 400) {
    await res.body.dump();
    // 416: the client's own Range is out of bounds; pass it on as such.
    if (res.statusCode === 416) throw relayRefusal(416, 'relay.range_not_satisfiable', 'range_not_satisfiable');
    throw fileRefused(call.channel, res.statusCode);
  }
  return videoFileOf(res);
}

/** `1280x720` -> [1280, 720]; anything else -> undefined. */
export function parsePixelSize(size: string | undefined): [number, number] | undefined {
  const m = /^(\d{2,5})[x*](\d{2,5})$/i.exec(size ?? '');
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** `480p` / `720P` / `1080p`; from a pixel size by its short side. */
export function resolutionOf(req: { resolution?: string; size?: string }): string | undefined {
  if (req.resolution) return req.resolution.toLowerCase();
  const px = parsePixelSize(req.size);
  return px ? `${Math.min(px[0], px[1])}p` : undefined;
}

/** An upstream's refusal or failure as the client sees it: its status (5xx becomes 502), its words. */
export function upstreamRefusal(call: VideoCall, status: number, code: string, message: string) {
  // A refused key (401/403) or an upstream fault is the gateway's problem, not the caller's: 502.
  const s = [400, 404, 413, 422, 429].includes(status) ? status : 502;
  return new RelayError(
    s,
    `Channel #${call.channel.id} refused the video job: ${message} (${code})`,
    'upstream_error',
    true,
    `渠道 #${call.channel.id} 拒绝了视频任务：${message}（${code}）`,
  );
}
