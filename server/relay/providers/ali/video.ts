import { refusal } from '../../errors.ts';
import type {
  VideoAdapter,
  VideoCall,
  VideoCapabilities,
  VideoProgress,
  VideoRequest,
  VideoState,
} from '../../tasks/video/types.ts';
import {
  imageDataUrl,
  textOnly,
  needsFirstFrame,
  noLastFrame,
  noVariant,
  taskIdOf,
  wrongSeconds,
} from '../shared/video-rules.ts';
import { openVideoFile, parsePixelSize, resolutionOf, upstreamRefusal, videoJson } from '../shared/video-upstream.ts';

/*
 * Ali (channel type 17) Wan video synthesis on DashScope: an async task (POST
 * /api/v1/services/aigc/video-generation/video-synthesis with X-DashScope-Async: enable, then GET
 * /api/v1/tasks/{id}). Text-to-video models take a pixel `size` ("1280*720") and no image;
 * image-to-video models need `input.img_url` and take a `resolution` tier instead. The answer
 * reports what was made (usage.video_duration, video_ratio): billing settles on that.
 */

interface Shape {
  /** WIDTHxHEIGHT, the gateway's spelling. */
  size: string;
  tier: string;
  aspect: string;
}

interface WanModel {
  kind: 't2v' | 'i2v';
  /** First = default. */
  seconds: readonly number[];
  /** t2v: the sizes (first = default); i2v: one per tier, the tier being what is sent. */
  shapes: readonly Shape[];
}

const s = (size: string, tier: string, aspect: string): Shape => ({ size, tier, aspect });
const SMALL = [s('832x480', '480p', '16:9'), s('480x832', '480p', '9:16'), s('624x624', '480p', '1:1')];

const MODELS: Record<string, WanModel> = {
  'wan2.2-t2v-plus': {
    kind: 't2v',
    seconds: [5],
    shapes: [
      s('1920x1080', '1080p', '16:9'),
      s('1080x1920', '1080p', '9:16'),
      s('1440x1440', '1080p', '1:1'),
      s('1632x1248', '1080p', '4:3'),
      s('1248x1632', '1080p', '3:4'),
      ...SMALL,
    ],
  },
  'wanx2.1-t2v-turbo': {
    kind: 't2v',
    seconds: [5],
    shapes: [
      s('1280x720', '720p', '16:9'),
      s('720x1280', '720p', '9:16'),
      s('960x960', '720p', '1:1'),
      s('1088x832', '720p', '4:3'),
      s('832x1088', '720p', '3:4'),
      ...SMALL,
    ],
  },
  'wan2.2-i2v-plus': { kind: 'i2v', seconds: [5], shapes: [s('1920x1080', '1080p', ''), s('832x480', '480p', '')] },
  'wanx2.1-i2v-turbo': {
    kind: 'i2v',
    seconds: [5, 3, 4],
    shapes: [s('1280x720', '720p', ''), s('832x480', '480p', '')],
  },
};

/** A Wan model the table does not know is read by its name: "i2v" takes an image, others text. */
const modelOf = (name: string): WanModel =>
  MODELS[name] ?? (name.includes('i2v') ? MODELS['wan2.2-i2v-plus'] : MODELS['wanx2.1-t2v-turbo']);

const uniq = <T>(xs: T[]) => [...new Set(xs)];

function capabilities(upstreamModel: string): VideoCapabilities {
  const m = modelOf(upstreamModel);
  return {
    seconds: m.seconds,
    sizes: m.kind === 't2v' ? m.shapes.map((x) => x.size) : [],
    resolutions: uniq(m.shapes.map((x) => x.tier)),
    aspectRatios: m.kind === 't2v' ? uniq(m.shapes.map((x) => x.aspect)) : [],
    firstFrame: m.kind === 'i2v',
    lastFrame: false,
    remix: false,
    variants: ['video'],
  };
}

const wire = (size: string) => size.replace('x', '*');

/** The DashScope body for `req`, or a 400 saying what the model cannot make. */
export function wanBody(upstreamModel: string, req: VideoRequest): Record<string, unknown> {
  const m = modelOf(upstreamModel);
  if (req.lastFrame) throw noLastFrame(upstreamModel);
  if (m.kind === 'i2v' && !req.firstFrame) throw needsFirstFrame(upstreamModel);
  if (m.kind === 't2v' && req.firstFrame) throw textOnly(upstreamModel, 'wan2.2-i2v-plus');
  const seconds = req.seconds ?? m.seconds[0];
  if (!m.seconds.includes(seconds)) throw wrongSeconds(upstreamModel, [...m.seconds].sort(), seconds);
  const parameters: Record<string, unknown> = { duration: seconds };
  const input: Record<string, unknown> = { prompt: req.prompt };
  const tier = req.resolution?.toLowerCase();
  if (m.kind === 't2v') {
    let shape: Shape | undefined;
    if (req.size) {
      const px = parsePixelSize(req.size);
      shape = px ? m.shapes.find((x) => x.size === `${px[0]}x${px[1]}`) : undefined;
    } else {
      const aspect = req.aspectRatio ?? '16:9';
      shape = m.shapes.find((x) => x.aspect === aspect && (!tier || x.tier === tier));
    }
    if (!shape)
      throw refusal(
        400,
        `${upstreamModel} makes videos of ${m.shapes.map((x) => x.size).join(', ')}; ${req.size ?? [req.aspectRatio, req.resolution].filter(Boolean).join(' at ')} is not one of them`,
        `${upstreamModel} 只支持 ${m.shapes.map((x) => x.size).join('、')} 的尺寸，不支持 ${req.size ?? [req.aspectRatio, req.resolution].filter(Boolean).join(' ')}`,
        'invalid_video_size',
      );
    parameters.size = wire(shape.size);
  } else {
    if (req.aspectRatio)
      throw refusal(
        400,
        `${upstreamModel} keeps the image's own aspect ratio and takes none`,
        `${upstreamModel} 沿用图片的宽高比，不能另行设置`,
        'invalid_video_size',
      );
    const want = tier ?? resolutionOf(req);
    const shape = want ? m.shapes.find((x) => x.tier === want) : m.shapes[0];
    if (!shape)
      throw refusal(
        400,
        `${upstreamModel} makes videos at ${m.shapes.map((x) => x.tier).join(', ')}, not ${want}`,
        `${upstreamModel} 只支持 ${m.shapes.map((x) => x.tier).join('、')} 分辨率，不支持 ${want}`,
        'invalid_video_size',
      );
    parameters.resolution = shape.tier.toUpperCase();
    input.img_url = imageDataUrl(req.firstFrame!);
  }
  if (req.negativePrompt) input.negative_prompt = req.negativePrompt;
  if (req.seed !== undefined) parameters.seed = req.seed;
  for (const k of ['prompt_extend', 'watermark'] as const)
    if (req.extra?.[k] !== undefined) parameters[k] = req.extra[k];
  return { model: upstreamModel, input, parameters };
}

const headers = (call: VideoCall) => ({ authorization: `Bearer ${call.key}` });

const STATES: Record<string, { state: VideoState; progress: number }> = {
  PENDING: { state: 'queued', progress: 0 },
  RUNNING: { state: 'in_progress', progress: 50 },
  SUCCEEDED: { state: 'completed', progress: 100 },
  FAILED: { state: 'failed', progress: 100 },
  CANCELED: { state: 'failed', progress: 100 },
  UNKNOWN: { state: 'failed', progress: 100 },
};

function checkAnswer(call: VideoCall, status: number, json: Record<string, unknown>) {
  if (status >= 400 || (typeof json.code === 'string' && json.code))
    throw upstreamRefusal(call, status, String(json.code ?? status), String(json.message ?? 'request refused'));
}

/** The tier a pixel size belongs to, for settling a size the answer reports. */
function tierOf(size: string): string | undefined {
  const px = parsePixelSize(size);
  if (!px) return undefined;
  const short = Math.min(px[0], px[1]);
  return short >= 1000 ? '1080p' : short >= 700 ? '720p' : '480p';
}

export const aliVideo: VideoAdapter = {
  capabilities,

  async submit(call, req) {
    const body = wanBody(call.upstreamModel, req);
    const { status, json } = await videoJson(
      call,
      'POST',
      '/api/v1/services/aigc/video-generation/video-synthesis',
      { ...headers(call), 'x-dashscope-async': 'enable' },
      body,
    );
    checkAnswer(call, status, json);
    const output = (json.output ?? {}) as Record<string, unknown>;
    const id = taskIdOf(call, output.task_id);
    return { upstreamId: id, progress: STATES.PENDING };
  },

  async poll(call, upstreamId) {
    const { status, json } = await videoJson(
      call,
      'GET',
      `/api/v1/tasks/${encodeURIComponent(upstreamId)}`,
      headers(call),
    );
    checkAnswer(call, status, json);
    const output = (json.output ?? {}) as Record<string, unknown>;
    const at = STATES[String(output.task_status)] ?? STATES.PENDING;
    const out: VideoProgress = { ...at };
    if (at.state === 'failed')
      out.failReason =
        output.task_status === 'UNKNOWN'
          ? 'The task is unknown upstream (expired after 24 hours, or never created)'
          : [output.code, output.message].filter(Boolean).join(': ') || 'task failed';
    if (at.state === 'completed') {
      if (typeof output.video_url !== 'string' || !output.video_url)
        throw upstreamRefusal(call, 502, 'no_video_url', 'the finished job has no video_url');
      out.content = { video: output.video_url };
      const usage = (json.usage ?? {}) as Record<string, unknown>;
      if (typeof usage.video_duration === 'number') out.seconds = usage.video_duration;
      if (typeof usage.video_ratio === 'string') {
        out.size = usage.video_ratio.replace('*', 'x');
        out.resolution = tierOf(out.size);
      }
    }
    return out;
  },

  async content(call, _upstreamId, stored, variant, range) {
    const url = stored?.[variant];
    if (!url) throw noVariant(variant);
    // DashScope's video_url is a signed OSS link valid for 24 hours: no key goes with it.
    return openVideoFile(call, url, range);
  },
};
