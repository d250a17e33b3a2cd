import { refusal } from '../../errors.ts';
import type { VideoCapabilities, VideoImage, VideoRequest } from '../../tasks/video/types.ts';

/*
 * Reading a VideoRequest against what a Volcengine model makes (Jimeng and Seedance alike take an
 * aspect ratio, a resolution tier and whole seconds, not a pixel size): a pixel size becomes its
 * ratio and tier; anything the model cannot make is a 400 that says what it can.
 */

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

const TIERS: Record<number, string> = { 480: '480p', 720: '720p', 1080: '1080p' };

/** `1280x720` -> { ratio: '16:9', resolution: '720p' }; null when not `WIDTHxHEIGHT`. */
export function readSize(size: string): { ratio: string; resolution?: string } | null {
  const m = /^(\d+)[x*](\d+)$/.exec(size.trim());
  if (!m) return null;
  const w = Number(m[1]);
  const h = Number(m[2]);
  if (!w || !h) return null;
  const d = gcd(w, h);
  return { ratio: `${w / d}:${h / d}`, resolution: TIERS[Math.min(w, h)] };
}

export interface VolcSpec {
  seconds: number;
  ratio?: string;
  resolution?: string;
}

/**
 * The seconds, ratio and resolution to ask for: the request's (from `size` when it gives one), checked
 * against the capabilities; defaults are the model's (first listed).
 */
export function volcSpec(provider: string, model: string, caps: VideoCapabilities, req: VideoRequest): VolcSpec {
  const seconds = req.seconds ?? caps.seconds[0];
  if (!caps.seconds.includes(seconds))
    throw refusal(
      400,
      `${provider} model ${model} makes ${caps.seconds.join(' or ')} second videos, not ${seconds}`,
      `${provider} 模型 ${model} 只能生成 ${caps.seconds.join(' 或 ')} 秒的视频，不支持 ${seconds} 秒`,
    );
  let ratio = req.aspectRatio;
  let resolution = req.resolution;
  if (req.size) {
    const s = readSize(req.size);
    if (!s)
      throw refusal(400, `size must read WIDTHxHEIGHT, got ${req.size}`, `size 的格式应为 宽x高，收到的是 ${req.size}`);
    if (ratio && ratio !== s.ratio)
      throw refusal(
        400,
        `size ${req.size} (${s.ratio}) contradicts aspect ratio ${ratio}`,
        `size ${req.size}（${s.ratio}）与宽高比 ${ratio} 矛盾`,
      );
    ratio = s.ratio;
  }
  if (ratio && caps.aspectRatios?.length && !caps.aspectRatios.includes(ratio))
    throw refusal(
      400,
      `${provider} model ${model} makes aspect ratios ${caps.aspectRatios.join(', ')}, not ${ratio}`,
      `${provider} 模型 ${model} 支持的宽高比为 ${caps.aspectRatios.join('、')}，不支持 ${ratio}`,
    );
  if (req.size) {
    const tier = readSize(req.size)?.resolution;
    if (!tier && caps.resolutions?.length)
      throw refusal(
        400,
        `${provider} model ${model} makes ${caps.resolutions.join('/')} videos; size ${req.size} is none of them`,
        `${provider} 模型 ${model} 只能生成 ${caps.resolutions.join('/')} 的视频，size ${req.size} 不在其中`,
      );
    resolution = resolution ?? tier;
  }
  if (resolution && caps.resolutions?.length && !caps.resolutions.includes(resolution))
    throw refusal(
      400,
      `${provider} model ${model} makes ${caps.resolutions.join('/')} videos, not ${resolution}`,
      `${provider} 模型 ${model} 只能生成 ${caps.resolutions.join('/')} 的视频，不支持 ${resolution}`,
    );
  return { seconds, ratio, resolution: resolution ?? caps.resolutions?.[0] };
}

/** Refuses what no Volcengine video model carries: a negative prompt, a remix, frames the model lacks. */
export function refuseUncarried(provider: string, model: string, caps: VideoCapabilities, req: VideoRequest) {
  if (req.negativePrompt)
    throw refusal(
      400,
      `${provider} takes no negative prompt; describe what you want in the prompt instead`,
      `${provider} 不支持反向提示词，请在提示词中描述想要的内容`,
    );
  if (req.remixOf)
    throw refusal(400, `${provider} cannot remix an earlier video`, `${provider} 不支持对已有视频进行 remix`);
  if (req.firstFrame && !caps.firstFrame)
    throw refusal(
      400,
      `${provider} model ${model} is text-to-video and takes no image`,
      `${provider} 模型 ${model} 是文生视频模型，不接受图片`,
    );
  if (req.lastFrame && !caps.lastFrame)
    throw refusal(400, `${provider} model ${model} takes no last frame`, `${provider} 模型 ${model} 不支持尾帧`);
  if (req.lastFrame && !req.firstFrame)
    throw refusal(400, 'A last frame needs a first frame', '提供尾帧时必须同时提供首帧');
}

/** An image as a URL Ark takes: its http(s) URL, or a data: URL built from uploaded bytes. */
export function imageUrl(img: VideoImage): string {
  if (img.url) return img.url;
  if (img.data) return `data:${img.mime ?? 'image/png'};base64,${img.data.toString('base64')}`;
  throw refusal(400, 'An image has neither a URL nor bytes', '图片既没有 URL 也没有内容');
}
