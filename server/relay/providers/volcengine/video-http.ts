import { netFailurePhrase } from '../../../net-failure.ts';
import type { ChannelConfig } from '../../channel-config.ts';
import { RelayError } from '../../errors.ts';
import type { VideoFile } from '../../tasks/video/types.ts';
import { sendUpstream } from '../../upstream.ts';

/*
 * The HTTP both Volcengine video adapters (Jimeng, Ark/Seedance) share: one JSON exchange over the
 * relay's pool, and opening a finished job's file from its pre-signed URL with the client's Range.
 * Failures name the channel, never its host, URL or key.
 */

const CALL_TIMEOUT_MS = 60_000;

export interface JsonAnswer {
  status: number;
  json: unknown;
}

const unreachable = (ch: ChannelConfig, err: unknown) => {
  const why = netFailurePhrase(err);
  return new RelayError(
    502,
    `The request to channel #${ch.id} failed: ${why.en}`,
    'upstream_error',
    true,
    `渠道 #${ch.id} 请求失败：${why.zh}`,
  );
};

export async function callJson(
  ch: ChannelConfig,
  req: { url: string; method: 'GET' | 'POST' | 'DELETE'; headers: Record<string, string>; body?: string },
): Promise<JsonAnswer> {
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
      AbortSignal.timeout(CALL_TIMEOUT_MS),
    );
  } catch (err) {
    throw unreachable(ch, err);
  }
  const text = await res.body.text();
  try {
    return { status: res.statusCode, json: text ? (JSON.parse(text) as unknown) : null };
  } catch {
    throw new RelayError(
      502,
      `Channel #${ch.id} answered with unreadable content (HTTP ${res.statusCode})`,
      'bad_response',
      true,
      `渠道 #${ch.id} 返回了无法解析的内容 (HTTP ${res.statusCode})`,
    );
  }
}

const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'last-modified', 'etag'];

/**
 * Opens a pre-signed file URL (no key: the signature is in the URL). Answers null when the URL no
 * longer holds (403/404: expired signature or file), so the adapter can fetch a fresh URL once.
 */
export async function openSignedFile(ch: ChannelConfig, url: string, range?: string): Promise<VideoFile | null> {
  let res;
  try {
    res = await sendUpstream(
      { url, method: 'GET', headers: range ? { range } : {} },
      AbortSignal.timeout(CALL_TIMEOUT_MS),
    );
  } catch (err) {
    throw unreachable(ch, err);
  }
  if (res.statusCode === 403 || res.statusCode === 404) {
    await res.body.dump();
    return null;
  }
  if (res.statusCode !== 200 && res.statusCode !== 206 && res.statusCode !== 416) {
    await res.body.dump();
    throw new RelayError(
      502,
      `Channel #${ch.id} could not serve the video file (HTTP ${res.statusCode})`,
      'upstream_error',
      true,
      `渠道 #${ch.id} 无法提供视频文件 (HTTP ${res.statusCode})`,
    );
  }
  const headers: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const v = res.headers[name];
    if (typeof v === 'string') headers[name] = v;
  }
  return { status: res.statusCode, headers, body: res.body };
}

/** The file is gone upstream (past the provider's retention) and no fresh URL could be had. */
export const fileGone = () =>
  new RelayError(
    404,
    'The video file is no longer available upstream (it expired)',
    'video_expired',
    true,
    '上游的视频文件已不可用（已过期）',
  );
