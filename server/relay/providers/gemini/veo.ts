import { Readable } from 'node:stream';
import { refusal } from '../../errors.ts';
import type {
  VideoCall,
  VideoCapabilities,
  VideoFile,
  VideoImage,
  VideoProgress,
  VideoRequest,
} from '../../tasks/video/types.ts';
import { inlineImage } from '../shared/images.ts';
import { upstreamRefusal, videoJson } from '../shared/video-upstream.ts';

/*
 * Veo as both of Google's surfaces take it (Gemini API 24 and Vertex AI 41 share the body and the
 * operation; only the URLs, the credentials and where the finished file is differ): what a model
 * accepts, the `predictLongRunning` body, an operation read as a VideoProgress, and one JSON call.
 */

type Json = Record<string, unknown>;

/**
 * Veo 3.x makes 4, 6 or 8 seconds (8 by default) at 720p or 1080p, 16:9 or 9:16; 3.1 also takes a
 * last frame; Veo 2 makes 5 to 8 seconds at 720p. None remixes, each serves only the video.
 */
export function veoCapabilities(model: string): VideoCapabilities {
  const veo2 = model.startsWith('veo-2');
  return {
    seconds: veo2 ? [8, 5, 6, 7] : [8, 4, 6],
    sizes: veo2 ? ['1280x720', '720x1280'] : ['1280x720', '720x1280', '1920x1080', '1080x1920'],
    resolutions: veo2 ? ['720p'] : ['720p', '1080p'],
    aspectRatios: ['16:9', '9:16'],
    firstFrame: true,
    lastFrame: model.startsWith('veo-3.1'),
    remix: false,
    variants: ['video'],
    // Google's price list charges Veo per second alike at 720p and 1080p: no size multiplier.
    samePriceAnySize: true,
  };
}

/** OpenAI-style pixel sizes -> Veo's aspect ratio and resolution. */
const SIZES: Record<string, { aspectRatio: string; resolution: string }> = {
  '1280x720': { aspectRatio: '16:9', resolution: '720p' },
  '720x1280': { aspectRatio: '9:16', resolution: '720p' },
  '1920x1080': { aspectRatio: '16:9', resolution: '1080p' },
  '1080x1920': { aspectRatio: '9:16', resolution: '1080p' },
};

const cannot = (en: string, zh: string) => refusal(400, en, zh, 'invalid_request');

/** The aspect ratio and resolution a request asks for, refused (400, saying why) where Veo has none such. */
export function veoFrame(model: string, req: VideoRequest): { aspectRatio?: string; resolution?: string } {
  const caps = veoCapabilities(model);
  let aspectRatio = req.aspectRatio;
  let resolution = req.resolution;
  if (req.size) {
    const s = SIZES[req.size];
    if (!s || !caps.sizes?.includes(req.size))
      throw cannot(
        `${model} makes ${caps.sizes?.join(', ')} videos; size ${req.size} cannot be made`,
        `${model} 只能生成 ${caps.sizes?.join('、')} 的视频，无法生成 ${req.size}`,
      );
    aspectRatio ??= s.aspectRatio;
    resolution ??= s.resolution;
    if (aspectRatio !== s.aspectRatio || resolution !== s.resolution)
      throw cannot(
        `size ${req.size} contradicts the aspect ratio or resolution also given`,
        `尺寸 ${req.size} 与同时给出的宽高比或分辨率不一致`,
      );
  }
  if (aspectRatio !== undefined && !caps.aspectRatios?.includes(aspectRatio))
    throw cannot(
      `${model} makes 16:9 or 9:16 videos; aspect ratio ${aspectRatio} cannot be made`,
      `${model} 只能生成 16:9 或 9:16 的视频，无法生成 ${aspectRatio}`,
    );
  if (resolution !== undefined && !caps.resolutions?.includes(resolution))
    throw cannot(
      `${model} makes ${caps.resolutions?.join(' or ')} videos; resolution ${resolution} cannot be made`,
      `${model} 只能生成 ${caps.resolutions?.join(' 或 ')} 的视频，无法生成 ${resolution}`,
    );
  return { aspectRatio, resolution };
}

async function veoImage(img: VideoImage): Promise<Json> {
  if (img.data) return { bytesBase64Encoded: img.data.toString('base64'), mimeType: img.mime ?? 'image/png' };
  const inline = await inlineImage(img.url ?? '');
  return { bytesBase64Encoded: inline.data, mimeType: inline.mediaType };
}

/** Provider fields a Veo client may pass through `extra` (the same provider understands them). */
const VEO_EXTRA = ['personGeneration', 'enhancePrompt'] as const;
const VERTEX_EXTRA = ['generateAudio', 'seed', 'storageUri'] as const;

/** The `predictLongRunning` body: `{instances:[{prompt, image?, lastFrame?}], parameters}`. */
export async function veoBody(model: string, req: VideoRequest, vertex: boolean): Promise<Json> {
  const caps = veoCapabilities(model);
  const seconds = req.seconds ?? caps.seconds[0];
  if (!caps.seconds.includes(seconds))
    throw cannot(
      `${model} makes videos of ${[...caps.seconds].sort((a, b) => a - b).join(', ')} seconds; ${seconds} seconds cannot be made`,
      `${model} 只能生成 ${[...caps.seconds].sort((a, b) => a - b).join('、')} 秒的视频，无法生成 ${seconds} 秒`,
    );
  if (req.lastFrame && !caps.lastFrame)
    throw cannot(`${model} takes no last frame (Veo 3.1 does)`, `${model} 不支持尾帧（Veo 3.1 支持）`);
  if (req.lastFrame && !req.firstFrame)
    throw cannot('Veo takes a last frame only with a first frame', 'Veo 只在给出首帧时接受尾帧');
  if (req.remixOf) throw cannot(`${model} cannot remix a video`, `${model} 不支持视频重混`);
  const { aspectRatio, resolution } = veoFrame(model, req);
  if (resolution === '1080p' && seconds !== 8)
    throw cannot(`${model} makes 1080p videos of 8 seconds only`, `${model} 的 1080p 视频只能是 8 秒`);
  const instance: Json = { prompt: req.prompt };
  if (req.firstFrame) instance.image = await veoImage(req.firstFrame);
  if (req.lastFrame) instance.lastFrame = await veoImage(req.lastFrame);
  // One sample: what the gateway bills and serves.
  const parameters: Json = { durationSeconds: seconds, sampleCount: 1 };
  if (aspectRatio) parameters.aspectRatio = aspectRatio;
  if (resolution && !model.startsWith('veo-2')) parameters.resolution = resolution;
  if (req.negativePrompt) parameters.negativePrompt = req.negativePrompt;
  if (vertex && req.seed !== undefined) parameters.seed = req.seed;
  for (const k of [...VEO_EXTRA, ...(vertex ? VERTEX_EXTRA : [])])
    if (req.extra?.[k] !== undefined) parameters[k] = req.extra[k];
  return { instances: [instance], parameters };
}

interface Operation {
  name?: string;
  done?: boolean;
  error?: { code?: number; message?: string };
  response?: {
    generateVideoResponse?: VeoResult;
    videos?: { gcsUri?: string; bytesBase64Encoded?: string; mimeType?: string }[];
    raiMediaFilteredCount?: number;
    raiMediaFilteredReasons?: string[];
  };
}

interface VeoResult {
  generatedSamples?: { video?: { uri?: string } }[];
  raiMediaFilteredCount?: number;
  raiMediaFilteredReasons?: string[];
}

/**
 * An operation as a VideoProgress. Veo reports no percentage: a running job shows 50 % (started,
 * not finished) rather than an invented curve. A done operation without a video (every sample
 * withheld by the safety filter) is a failure, so it is refunded; Google does not charge it either.
 */
export function veoProgress(json: unknown, vertex: boolean): VideoProgress {
  const op = (json ?? {}) as Operation;
  if (!op.done) return { state: 'in_progress', progress: 50 };
  if (op.error) return { state: 'failed', progress: 100, failReason: op.error.message ?? 'Veo failed the job' };
  const r = vertex ? op.response : op.response?.generateVideoResponse;
  const filtered = r?.raiMediaFilteredReasons?.[0];
  if (vertex) {
    const v = op.response?.videos?.[0];
    if (v?.gcsUri) return { state: 'completed', progress: 100, content: { video: v.gcsUri } };
    if (v?.bytesBase64Encoded) return { state: 'completed', progress: 100, content: { video: INLINE } };
  } else {
    const uri = op.response?.generateVideoResponse?.generatedSamples?.[0]?.video?.uri;
    if (uri) return { state: 'completed', progress: 100, content: { video: uri } };
  }
  return {
    state: 'failed',
    progress: 100,
    failReason: filtered ?? 'Veo returned no video (withheld by its safety filter)',
  };
}

/** Marks a Vertex job whose video came back inline (its bytes are read from the operation again). */
export const INLINE = 'inline';

/** One JSON call to Google; its `{error:{code,message,status}}` becomes the shared video refusal (a refused key is a 502). */
export async function googleJson(
  call: VideoCall,
  url: string,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  body?: unknown,
): Promise<unknown> {
  // videoJson takes a path under the channel's base URL; Google's URLs are built whole (regions, versions).
  const a = await videoJson({ ...call, channel: { ...call.channel, baseUrl: '' } }, method, url, headers, body);
  if (a.status >= 200 && a.status < 300) return a.json;
  const e = (a.json as { error?: { message?: unknown; status?: unknown; details?: { reason?: unknown }[] } }).error;
  const message = typeof e?.message === 'string' ? e.message : `HTTP ${a.status}`;
  // Google answers a wrong channel key with a 400 (reason API_KEY_INVALID): the operator's key, a 502 like a 401.
  const deadKey = Array.isArray(e?.details) && e.details.some((d) => d?.reason === 'API_KEY_INVALID');
  const code = typeof e?.status === 'string' ? e.status : String(a.status);
  throw upstreamRefusal(call, deadKey ? 401 : a.status, code, message);
}

/** Serves bytes already in hand (a Vertex video returned inline) with a single Range honoured. */
export function bytesFile(data: Buffer, mime: string, range?: string): VideoFile {
  // A Readable (not a bare generator): it is what the doors hand to Fastify, as an upstream body is.
  const one = (b: Buffer) => Readable.from([b]);
  const base = { 'content-type': mime, 'accept-ranges': 'bytes' };
  const m = /^bytes=(\d*)-(\d*)$/.exec(range ?? '');
  if (!m || (m[1] === '' && m[2] === ''))
    return { status: 200, headers: { ...base, 'content-length': String(data.length) }, body: one(data) };
  const start = m[1] === '' ? Math.max(0, data.length - Number(m[2])) : Number(m[1]);
  const end = m[1] === '' || m[2] === '' ? data.length - 1 : Math.min(Number(m[2]), data.length - 1);
  if (start >= data.length || start > end)
    return { status: 416, headers: { 'content-range': `bytes */${data.length}` }, body: one(Buffer.alloc(0)) };
  const slice = data.subarray(start, end + 1);
  return {
    status: 206,
    headers: {
      ...base,
      'content-length': String(slice.length),
      'content-range': `bytes ${start}-${end}/${data.length}`,
    },
    body: one(slice),
  };
}
