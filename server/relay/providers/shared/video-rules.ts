import { type RelayError, refusal } from '../../errors.ts';
import type { VideoCall, VideoImage } from '../../tasks/video/types.ts';
import { upstreamRefusal } from './video-upstream.ts';

/*
 * The refusals and small conversions the video adapters word alike, so a client reads the same
 * sentence (English and Chinese) whichever upstream refused; what each model can make stays in its
 * adapter.
 */

/** An image as the upstreams that take a URL or a data: URL want it (uploaded bytes become a data: URL). */
export const imageDataUrl = (img: VideoImage): string =>
  img.data ? `data:${img.mime ?? 'image/png'};base64,${img.data.toString('base64')}` : (img.url ?? '');

/** 400: the model takes no last frame. */
export const noLastFrame = (model: string): RelayError =>
  refusal(400, `${model} takes no last frame`, `${model} 不支持尾帧`, 'invalid_video_frames');

/** 400: the model only animates an image. */
export const needsFirstFrame = (model: string): RelayError =>
  refusal(
    400,
    `${model} makes videos only from an image: give a first frame`,
    `${model} 只支持图生视频，请提供首帧图片`,
    'invalid_video_frames',
  );

/** 400: the model makes videos from text only; `instead` names an image-to-video model to use. */
export const textOnly = (model: string, instead?: string): RelayError =>
  refusal(
    400,
    `${model} makes videos from text only and takes no image${instead ? `; use an image-to-video model such as ${instead}` : ''}`,
    `${model} 只支持文生视频，不接受图片${instead ? `；图生视频请用 ${instead} 等模型` : ''}`,
    'invalid_video_frames',
  );

/** 400: the model does not make videos of `seconds`; `durations` are the ones it makes. */
export const wrongSeconds = (model: string, durations: readonly number[], seconds: number): RelayError =>
  refusal(
    400,
    `${model} makes videos of ${durations.join(' or ')} seconds, not ${seconds}`,
    `${model} 只能生成 ${durations.join(' 或 ')} 秒的视频，不能生成 ${seconds} 秒`,
    'invalid_video_seconds',
  );

/** 404: the finished job keeps no file of this variant (a thumbnail the upstream does not make). */
export const noVariant = (variant: string): RelayError =>
  refusal(404, `This video has no ${variant}`, `该视频没有 ${variant} 文件`, 'video_variant_not_found');

/** The upstream's task id from a submit answer; an answer without one is the upstream's fault (502). */
export function taskIdOf(call: VideoCall, id: unknown): string {
  if (typeof id === 'string' && id) return id;
  throw upstreamRefusal(call, 502, 'no_task_id', 'the answer had no task_id');
}
