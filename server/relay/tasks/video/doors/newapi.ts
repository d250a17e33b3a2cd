import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { refusal, sendRelayError } from '../../../errors.ts';
import type { RelayRuntime } from '../../../runtime.ts';
import { videoServiceOf } from '../service.ts';
import type { VideoImage, VideoRequest, VideoTaskView } from '../types.ts';
import { doorRoute } from '../../http.ts';
import { siteOrigin } from '../../../../site-origin.ts';

/*
 * new-api's unified video door (issue 40): POST /v1/video/generations and
 * GET /v1/video/generations/{task_id}, as new-api's clients call it (its TaskSubmitReq: model,
 * prompt, image or images, duration or seconds, size or width/height, metadata for the
 * provider's own fields). The submit answers new-api's video object ({id, task_id, object, status,
 * ...}); the fetch answers its documented shape ({task_id, status, url, format, metadata, error}),
 * the url being the gateway's /v1/videos/{id}/content (new-api's proxy address), downloaded with the
 * caller's own token. Ids are the gateway's. Errors are OpenAI's {error:{...}}, as new-api's are.
 * Any video upstream serves it; the service refuses, saying why, what the chosen one cannot make.
 */

const invalid = (en: string, zh: string, code = 'invalid_request') => refusal(400, en, zh, code);

/** The fields a new-api client sends that this door reads; any other is refused by name. */
const FIELDS = new Set([
  'model',
  'prompt',
  'image',
  'images',
  'input_reference',
  'duration',
  'seconds',
  'size',
  'width',
  'height',
  'seed',
  'n',
  'response_format',
  'user',
  'mode',
  'metadata',
]);

/** Metadata keys the gateway maps itself; the rest go to the upstream as its own fields (VideoRequest.extra). */
const META_MAPPED = new Set([
  'negative_prompt',
  'aspect_ratio',
  'resolution',
  'seed',
  'image_tail',
  'last_frame_url',
  'first_frame_url',
]);

const newapiRoute = (fn: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
  doorRoute(sendRelayError, fn);

/** An image as new-api's clients send it: an http(s) URL, a data URL or bare base64. */
function imageOf(field: string, v: unknown): VideoImage | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string')
    throw invalid(`${field} must be an image URL or Base64 string`, `${field} 必须是图片地址或 Base64 字符串`);
  if (/^(https?:\/\/|data:image\/)/i.test(v)) return { url: v };
  const data = Buffer.from(v, 'base64');
  if (data.length === 0 || data.toString('base64').replace(/=+$/, '') !== v.replace(/\s/g, '').replace(/=+$/, ''))
    throw invalid(`${field} must be an image URL or Base64 string`, `${field} 必须是图片地址或 Base64 字符串`);
  const mime = data[0] === 0xff && data[1] === 0xd8 ? 'image/jpeg' : data[0] === 0x52 ? 'image/webp' : 'image/png';
  return { data, mime };
}

/** A whole number of seconds from `duration` (number) or `seconds` (OpenAI's string). */
function wholeSeconds(field: string, v: unknown): number | undefined {
  if (v === undefined || v === null || v === '' || v === 0) return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n <= 0)
    throw invalid(
      `${field} must be a whole number of seconds, not ${JSON.stringify(v)}`,
      `${field} 必须是整数秒，不支持 ${JSON.stringify(v)}`,
    );
  return n;
}

/** `size` is a pixel size ("1280x720", "1280*720") or a resolution ("720p"), as new-api's adaptors read it. */
function sizeOf(b: Record<string, unknown>): { size?: string; resolution?: string } {
  const { width, height } = b;
  if (width !== undefined || height !== undefined) {
    if (!Number.isInteger(width) || !Number.isInteger(height) || (width as number) <= 0 || (height as number) <= 0)
      throw invalid(
        'width and height go together, as whole numbers of pixels',
        'width 和 height 需要同时提供，且为整数像素',
      );
    if (b.size !== undefined) throw invalid('Give size or width/height, not both', 'size 与 width/height 只能二选一');
    return { size: `${String(width)}x${String(height)}` };
  }
  if (b.size === undefined || b.size === '') return {};
  const s = typeof b.size === 'string' ? b.size.trim() : '';
  const px = /^(\d+)\s*[x*]\s*(\d+)$/i.exec(s);
  if (px) return { size: `${px[1]}x${px[2]}` };
  if (/^\d+p$/i.test(s)) return { resolution: s.toLowerCase() };
  throw invalid(
    `size must be WIDTHxHEIGHT such as "1280x720" or a resolution such as "720p", not ${JSON.stringify(b.size)}`,
    `size 必须形如 "1280x720"（宽x高）或 "720p"，不支持 ${JSON.stringify(b.size)}`,
  );
}

/** A new-api submit in the gateway's words; what no upstream can carry is refused by name. */
export function newapiRequestOf(raw: unknown): VideoRequest {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw invalid('The body must be a JSON object', '请求体必须是 JSON 对象');
  const b = raw as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !FIELDS.has(k));
  if (unknown)
    throw invalid(
      `Unknown parameter: '${unknown}'. Provider-specific fields go in metadata.`,
      `未知参数：'${unknown}'。渠道专有参数请放在 metadata 中`,
      'unknown_parameter',
    );
  if (typeof b.model !== 'string' || b.model.trim() === '')
    throw invalid("Missing required parameter: 'model'.", '缺少必填参数：model', 'missing_required_parameter');
  if (b.prompt !== undefined && typeof b.prompt !== 'string')
    throw invalid('prompt must be a string', 'prompt 必须是字符串');
  if (b.n !== undefined && b.n !== 1)
    throw invalid('n must be 1: each job makes one video', 'n 只能为 1：每个任务生成一个视频');
  if (b.response_format !== undefined && b.response_format !== 'url')
    throw invalid(
      'response_format must be "url": the video is downloaded from the task',
      'response_format 只能为 "url"：视频需从任务地址下载',
    );
  const meta = (b.metadata ?? {}) as Record<string, unknown>;
  if (typeof meta !== 'object' || Array.isArray(meta))
    throw invalid('metadata must be an object', 'metadata 必须是对象');

  const duration = wholeSeconds('duration', b.duration);
  const seconds = wholeSeconds('seconds', b.seconds);
  if (duration !== undefined && seconds !== undefined && duration !== seconds)
    throw invalid(
      `duration (${duration}) and seconds (${seconds}) disagree: give one`,
      `duration（${duration}）与 seconds（${seconds}）不一致，请只提供一个`,
    );

  const images = b.images === undefined ? [] : b.images;
  if (!Array.isArray(images))
    throw invalid('images must be a list of image URLs or Base64 strings', 'images 必须是图片地址或 Base64 的数组');
  if (images.length > 2)
    throw invalid(
      `images takes a first frame and at most a last frame (2), not ${images.length}: reference-image video is not supported`,
      `images 最多两张（首帧与尾帧），不支持 ${images.length} 张：暂不支持参考图生视频`,
    );
  const single = [b.image, b.input_reference, meta.first_frame_url].filter((x) => x !== undefined && x !== '');
  if (single.length > 1 || (single.length === 1 && images.length > 0))
    throw invalid(
      'Give the first frame once: image, input_reference or images[0]',
      '首帧只能提供一次：image、input_reference 或 images[0]',
    );
  const firstFrame = imageOf('image', single[0] ?? images[0]);
  const tail = meta.image_tail ?? meta.last_frame_url;
  if (tail !== undefined && images.length === 2)
    throw invalid('Give the last frame once: images[1] or metadata', '尾帧只能提供一次：images[1] 或 metadata');
  const lastFrame = imageOf('images[1]', images[1] ?? tail);

  const { size, resolution: sizeResolution } = sizeOf(b);
  const metaResolution = typeof meta.resolution === 'string' ? meta.resolution.toLowerCase() : undefined;
  // Kling's std/pro, as new-api's Kling adaptor reads `mode`.
  const modeResolution = b.mode === 'pro' ? '1080p' : b.mode === 'std' ? '720p' : undefined;
  if (b.mode !== undefined && !modeResolution)
    throw invalid(`mode must be "std" or "pro", not ${JSON.stringify(b.mode)}`, 'mode 只能为 "std" 或 "pro"');
  const resolution = metaResolution ?? sizeResolution ?? modeResolution;

  const seed = b.seed ?? meta.seed;
  if (seed !== undefined && !Number.isInteger(seed)) throw invalid('seed must be a whole number', 'seed 必须是整数');

  const extra = Object.fromEntries(Object.entries(meta).filter(([k]) => !META_MAPPED.has(k)));
  if (b.mode !== undefined) extra.mode = b.mode;
  return {
    model: b.model,
    prompt: (b.prompt as string | undefined) ?? '',
    negativePrompt: typeof meta.negative_prompt === 'string' && meta.negative_prompt ? meta.negative_prompt : undefined,
    seconds: duration ?? seconds,
    size,
    resolution,
    aspectRatio: typeof meta.aspect_ratio === 'string' ? meta.aspect_ratio : undefined,
    firstFrame,
    lastFrame,
    seed: seed as number | undefined,
    extra: Object.keys(extra).length > 0 ? extra : undefined,
  };
}

const FRAME: Record<string, [number, number]> = { '480p': [854, 480], '720p': [1280, 720], '1080p': [1920, 1080] };

/** Width and height where the job says them (a pixel size, or a resolution and aspect ratio). */
function dimensions(v: VideoTaskView): { width?: number; height?: number } {
  const px = /^(\d+)x(\d+)$/.exec(v.size ?? '');
  if (px) return { width: Number(px[1]), height: Number(px[2]) };
  const wh = FRAME[v.resolution ?? ''];
  if (!wh) return {};
  return v.aspectRatio === '9:16' ? { width: wh[1], height: wh[0] } : { width: wh[0], height: wh[1] };
}

/** new-api's answer to a submit: its OpenAI-style video object, id and task_id both the gateway's. */
function submitAnswer(v: VideoTaskView) {
  return {
    id: v.id,
    task_id: v.id,
    object: 'video',
    model: v.model,
    status: v.state,
    progress: v.progress,
    created_at: v.createdAt,
    seconds: String(v.seconds),
    ...(v.size ? { size: v.size } : {}),
  };
}

/** new-api's documented fetch shape. */
function fetchAnswer(v: VideoTaskView, origin: string) {
  return {
    task_id: v.id,
    status: v.state,
    progress: v.state === 'completed' ? 100 : v.progress,
    model: v.model,
    created_at: v.createdAt,
    completed_at: v.completedAt ?? null,
    url: v.state === 'completed' ? `${origin}/v1/videos/${v.id}/content` : '',
    format: 'mp4',
    metadata: { duration: v.seconds, ...dimensions(v), ...(v.resolution ? { resolution: v.resolution } : {}) },
    error: v.error ? { code: v.error.code, message: v.error.message } : null,
  };
}

export function registerNewApiVideoRoutes(app: FastifyInstance, rt: RelayRuntime) {
  const videos = () => videoServiceOf(rt);
  const auth = (req: FastifyRequest) => rt.tokenAuth.authenticate(req);

  app.post(
    '/v1/video/generations',
    newapiRoute(async (req) => {
      const p = await auth(req);
      const view = await videos().submit(p, newapiRequestOf(req.body), {
        ip: req.ip,
        requestId: req.id,
        door: 'newapi',
      });
      return submitAnswer(view);
    }),
  );

  app.get(
    '/v1/video/generations/:task_id',
    newapiRoute(async (req) => {
      const p = await auth(req);
      const { task_id } = req.params as { task_id: string };
      return fetchAnswer(
        await videos().get(p, task_id),
        siteOrigin(rt.deps.services.options.get('ServerAddress'), req),
      );
    }),
  );
}
