import { refusal } from '../../errors.ts';
import type { VideoImage, VideoRequest } from '../../tasks/video/types.ts';
import { parseDataUrl } from '../shared/images.ts';

/*
 * A VideoRequest in Kling's words (POST /v1/videos/text2video | image2video). Kling makes 5 or 10
 * second videos, 16:9, 9:16 or 1:1, at 720p in `std` mode or 1080p in `pro`; a first frame (`image`)
 * and a last frame (`image_tail`) make it image2video. What it cannot make is refused with a 400 that
 * says why, so a client of any door learns what to change instead of getting another video than asked.
 */

export const KLING_SECONDS = [5, 10] as const;
export const KLING_RATIOS = ['16:9', '9:16', '1:1'] as const;
export const KLING_RESOLUTIONS = { std: '720p', pro: '1080p' } as const;
export type KlingMode = keyof typeof KLING_RESOLUTIONS;
export type KlingKind = 'text2video' | 'image2video';

/** The pixel sizes Kling produces: each is one aspect ratio at one mode. */
export const KLING_SIZES: Record<string, { ratio: (typeof KLING_RATIOS)[number]; mode: KlingMode }> = {
  '1280x720': { ratio: '16:9', mode: 'std' },
  '720x1280': { ratio: '9:16', mode: 'std' },
  '720x720': { ratio: '1:1', mode: 'std' },
  '1920x1080': { ratio: '16:9', mode: 'pro' },
  '1080x1920': { ratio: '9:16', mode: 'pro' },
  '1080x1080': { ratio: '1:1', mode: 'pro' },
};

const modeOfResolution = (r: string): KlingMode | undefined =>
  (Object.keys(KLING_RESOLUTIONS) as KlingMode[]).find((m) => KLING_RESOLUTIONS[m] === r);

const cannot = (en: string, zh: string) => refusal(400, en, zh, 'video_unsupported_parameter');

/** Kling takes an image as an http(s) URL or raw base64 (no `data:` prefix). */
function klingImage(img: VideoImage, which: string): string {
  if (img.data) return img.data.toString('base64');
  const url = img.url ?? '';
  const inline = parseDataUrl(url);
  if (inline) return inline.data;
  if (/^https?:\/\//i.test(url)) return url;
  throw cannot(
    `The ${which} must be an http(s) URL, a base64 data URL or an uploaded file`,
    `${which === 'first frame' ? '首帧' : '尾帧'}必须是 http(s) 地址、base64 data URL 或上传的文件`,
  );
}

function pickMode(req: VideoRequest, sizeMode: KlingMode | undefined): KlingMode {
  const fromRes = req.resolution === undefined ? undefined : modeOfResolution(req.resolution);
  if (req.resolution !== undefined && !fromRes)
    throw cannot(
      `Kling makes 720p (std) or 1080p (pro) videos, not ${req.resolution}`,
      `可灵只能生成 720p（std）或 1080p（pro）视频，不支持 ${req.resolution}`,
    );
  const extraMode = req.extra?.mode;
  if (extraMode !== undefined && extraMode !== 'std' && extraMode !== 'pro')
    throw cannot(`Kling's mode is std or pro, not ${String(extraMode)}`, `可灵的 mode 只能是 std 或 pro`);
  const asked = [sizeMode, fromRes, extraMode as KlingMode | undefined].filter((m): m is KlingMode => !!m);
  if (asked.some((m) => m !== asked[0]))
    throw cannot(
      'The size, resolution and mode ask for different Kling modes (std is 720p, pro is 1080p)',
      '尺寸、分辨率与 mode 指向不同的可灵模式（std 为 720p，pro 为 1080p）',
    );
  return asked[0] ?? 'std';
}

function pickRatio(req: VideoRequest, sizeRatio: string | undefined): string | undefined {
  if (req.aspectRatio !== undefined && !(KLING_RATIOS as readonly string[]).includes(req.aspectRatio))
    throw cannot(
      `Kling makes 16:9, 9:16 or 1:1 videos, not ${req.aspectRatio}`,
      `可灵只能生成 16:9、9:16 或 1:1 的视频，不支持 ${req.aspectRatio}`,
    );
  if (sizeRatio && req.aspectRatio && sizeRatio !== req.aspectRatio)
    throw cannot(
      `The size ${req.size} is ${sizeRatio}, not the aspect ratio ${req.aspectRatio} also asked`,
      `尺寸 ${req.size} 的宽高比为 ${sizeRatio}，与同时指定的 ${req.aspectRatio} 不一致`,
    );
  return sizeRatio ?? req.aspectRatio;
}

/** The Kling endpoint, mode and body for a request; throws a 400 for what Kling cannot make. */
export function klingSubmitBody(
  req: VideoRequest,
  upstreamModel: string,
): { kind: KlingKind; mode: KlingMode; body: Record<string, unknown> } {
  if (req.remixOf !== undefined)
    throw cannot('Kling cannot remix a video; submit a new one', '可灵不支持视频 remix，请重新提交任务');
  if (req.seed !== undefined) throw cannot('Kling takes no seed', '可灵不支持 seed 参数');
  if (req.seconds !== undefined && !(KLING_SECONDS as readonly number[]).includes(req.seconds))
    throw cannot(
      `Kling makes 5 or 10 second videos, not ${req.seconds}`,
      `可灵只能生成 5 秒或 10 秒的视频，不支持 ${req.seconds} 秒`,
    );
  const size = req.size === undefined ? undefined : KLING_SIZES[req.size];
  if (req.size !== undefined && !size)
    throw cannot(
      `Kling cannot make a ${req.size} video; it makes ${Object.keys(KLING_SIZES).join(', ')}`,
      `可灵无法生成 ${req.size} 的视频，可选尺寸：${Object.keys(KLING_SIZES).join('、')}`,
    );
  const mode = pickMode(req, size?.mode);
  const ratio = pickRatio(req, size?.ratio);
  const image = req.firstFrame ? klingImage(req.firstFrame, 'first frame') : undefined;
  const imageTail = req.lastFrame ? klingImage(req.lastFrame, 'last frame') : undefined;
  const kind: KlingKind = image !== undefined || imageTail !== undefined ? 'image2video' : 'text2video';
  const body: Record<string, unknown> = {
    model_name: upstreamModel,
    mode,
    duration: String(req.seconds ?? KLING_SECONDS[0]),
  };
  if (req.prompt) body.prompt = req.prompt;
  if (req.negativePrompt) body.negative_prompt = req.negativePrompt;
  // image2video takes the frame of its image; a ratio asked with it is what the image already has.
  if (kind === 'text2video' && ratio) body.aspect_ratio = ratio;
  if (image !== undefined) body.image = image;
  if (imageTail !== undefined) body.image_tail = imageTail;
  const { cfg_scale, camera_control } = req.extra ?? {};
  if (typeof cfg_scale === 'number') body.cfg_scale = cfg_scale;
  if (camera_control && typeof camera_control === 'object') body.camera_control = camera_control;
  return { kind, mode, body };
}
