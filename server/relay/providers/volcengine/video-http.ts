import type { ChannelConfig } from '../../channel-config.ts';
import { RelayError } from '../../errors.ts';
import type { VideoFile } from '../../tasks/video/types.ts';
import { exchangeJson, fileRefused, requestVideoFile, videoFileOf } from '../shared/video-upstream.ts';

/*
 * The HTTP both Volcengine video adapters (Jimeng, Ark/Seedance) share: one JSON exchange over the
 * relay's pool, and opening a finished job's file from its pre-signed URL with the client's Range.
 * Failures name the channel, never its host, URL or key.
 */

export interface JsonAnswer {
  status: number;
  json: unknown;
}

/** One JSON exchange (an empty answer reads as null); Ark's DELETE goes through it too. */
export const callJson = (
  ch: ChannelConfig,
  req: { url: string; method: 'GET' | 'POST' | 'DELETE'; headers: Record<string, string>; body?: string },
): Promise<JsonAnswer> => exchangeJson(ch, req, null);

/**
 * Opens a pre-signed file URL (no key: the signature is in the URL). Answers null when the URL no
 * longer holds (403/404: expired signature or file), so the adapter can fetch a fresh URL once.
 */
export async function openSignedFile(ch: ChannelConfig, url: string, range?: string): Promise<VideoFile | null> {
  const res = await requestVideoFile(ch, url, range);
  if (res.statusCode === 403 || res.statusCode === 404) {
    await res.body.dump();
    return null;
  }
  if (res.statusCode !== 200 && res.statusCode !== 206 && res.statusCode !== 416) {
    await res.body.dump();
    throw fileRefused(ch, res.statusCode);
  }
  return videoFileOf(res);
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
