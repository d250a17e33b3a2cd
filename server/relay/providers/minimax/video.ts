import { refusal, relayRefusal } from '../../errors.ts';
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
import { openVideoFile, resolutionOf, upstreamRefusal, videoJson } from '../shared/video-upstream.ts';

/*
 * MiniMax (channel type 35) Hailuo video: POST /v1/video_generation, GET
 * /v1/query/video_generation?task_id= until Success/Fail, then the file's download link from GET
 * /v1/files/retrieve?file_id=. MiniMax refuses with HTTP 200 and a non-zero base_resp.status_code,
 * read here. The download link expires, so the stored content is the file id and a fresh link is
 * asked for each time the file is opened.
 */

interface HailuoModel {
  /** duration -> resolutions (first = default). */
  table: Record<number, readonly string[]>;
  image: 'none' | 'optional' | 'required';
}

const MODELS: Record<string, HailuoModel> = {
  'MiniMax-Hailuo-02': { table: { 6: ['768p', '1080p'], 10: ['768p'] }, image: 'optional' },
  'T2V-01': { table: { 6: ['720p'] }, image: 'none' },
  'T2V-01-Director': { table: { 6: ['720p'] }, image: 'none' },
  'I2V-01': { table: { 6: ['720p'] }, image: 'required' },
  'I2V-01-Director': { table: { 6: ['720p'] }, image: 'required' },
  'I2V-01-live': { table: { 6: ['720p'] }, image: 'required' },
};

const modelOf = (name: string): HailuoModel => MODELS[name] ?? MODELS['MiniMax-Hailuo-02'];
const durationsOf = (m: HailuoModel) => Object.keys(m.table).map(Number);

function capabilities(upstreamModel: string): VideoCapabilities {
  const m = modelOf(upstreamModel);
  return {
    seconds: durationsOf(m),
    resolutions: [...new Set(Object.values(m.table).flat())],
    aspectRatios: [],
    firstFrame: m.image !== 'none',
    lastFrame: false,
    remix: false,
    variants: ['video'],
  };
}

/** The Hailuo body for `req`, or a 400 saying what the model cannot make. */
export function hailuoBody(upstreamModel: string, req: VideoRequest): Record<string, unknown> {
  const m = modelOf(upstreamModel);
  if (req.lastFrame) throw noLastFrame(upstreamModel);
  if (m.image === 'required' && !req.firstFrame) throw needsFirstFrame(upstreamModel);
  if (m.image === 'none' && req.firstFrame) throw textOnly(upstreamModel);
  if (req.negativePrompt)
    throw refusal(400, 'Hailuo takes no negative prompt', '海螺视频不支持反向提示词', 'unsupported_parameter');
  if (req.aspectRatio)
    throw refusal(
      400,
      'Hailuo sets no aspect ratio: the first frame, or 16:9 for text, decides it',
      '海螺视频不能设置宽高比：由首帧图片决定，文生视频为 16:9',
      'invalid_video_size',
    );
  const durations = durationsOf(m);
  const seconds = req.seconds ?? durations[0];
  if (!m.table[seconds]) throw wrongSeconds(upstreamModel, durations, seconds);
  const resolution = resolutionOf(req) ?? m.table[seconds][0];
  if (!m.table[seconds].includes(resolution))
    throw refusal(
      400,
      `${upstreamModel} makes ${seconds}-second videos at ${m.table[seconds].join(', ')}, not ${resolution}`,
      `${upstreamModel} 的 ${seconds} 秒视频只支持 ${m.table[seconds].join('、')}，不支持 ${resolution}`,
      'invalid_video_size',
    );
  const body: Record<string, unknown> = {
    model: upstreamModel,
    prompt: req.prompt,
    duration: seconds,
    resolution: resolution.toUpperCase(),
  };
  if (req.firstFrame) body.first_frame_image = imageDataUrl(req.firstFrame);
  for (const k of ['prompt_optimizer', 'fast_pretreatment'] as const)
    if (req.extra?.[k] !== undefined) body[k] = req.extra[k];
  return body;
}

const headers = (call: VideoCall) => ({ authorization: `Bearer ${call.key}` });

/** MiniMax's status codes, read as the HTTP status a client would have had. */
const CODE_STATUS: Record<number, number> = { 1002: 429, 1026: 400, 1027: 400, 2013: 400 };

function checkAnswer(call: VideoCall, status: number, json: Record<string, unknown>) {
  const base = (json.base_resp ?? {}) as { status_code?: number; status_msg?: string };
  const code = base.status_code ?? (status >= 400 ? status : 0);
  if (status < 400 && code === 0) return;
  // 1004 / 2049 (a bad key), 1008 (the channel's balance) and the rest are the channel's problem: 502.
  throw upstreamRefusal(call, CODE_STATUS[code] ?? 502, String(code), base.status_msg ?? 'request refused');
}

const STATES: Record<string, { state: VideoState; progress: number }> = {
  Preparing: { state: 'queued', progress: 0 },
  Queueing: { state: 'queued', progress: 5 },
  Processing: { state: 'in_progress', progress: 50 },
  Success: { state: 'completed', progress: 100 },
  Fail: { state: 'failed', progress: 100 },
};

const FILE_PREFIX = 'minimax-file:';

export const minimaxVideo: VideoAdapter = {
  capabilities,

  async submit(call, req) {
    const body = hailuoBody(call.upstreamModel, req);
    const { status, json } = await videoJson(call, 'POST', '/v1/video_generation', headers(call), body);
    checkAnswer(call, status, json);
    const id = taskIdOf(call, json.task_id);
    return {
      upstreamId: id,
      progress: { ...STATES.Preparing, seconds: body.duration as number, resolution: resolutionOf(req) },
    };
  },

  async poll(call, upstreamId) {
    const { status, json } = await videoJson(
      call,
      'GET',
      `/v1/query/video_generation?task_id=${encodeURIComponent(upstreamId)}`,
      headers(call),
    );
    checkAnswer(call, status, json);
    const at = STATES[String(json.status)] ?? STATES.Queueing;
    const out: VideoProgress = { ...at };
    if (at.state === 'failed') out.failReason = 'The video generation failed upstream (MiniMax status Fail)';
    if (at.state === 'completed') {
      const fileId = json.file_id === undefined || json.file_id === null ? '' : String(json.file_id);
      if (!fileId) throw upstreamRefusal(call, 502, 'no_file_id', 'the finished job has no file_id');
      out.content = { video: `${FILE_PREFIX}${fileId}` };
      if (typeof json.video_width === 'number' && typeof json.video_height === 'number') {
        out.size = `${json.video_width}x${json.video_height}`;
        out.resolution = `${Math.min(json.video_width, json.video_height)}p`;
      }
    }
    return out;
  },

  async content(call, _upstreamId, stored, variant, range) {
    const ref = stored?.[variant];
    if (!ref?.startsWith(FILE_PREFIX)) throw noVariant(variant);
    const fileId = ref.slice(FILE_PREFIX.length);
    const { status, json } = await videoJson(
      call,
      'GET',
      `/v1/files/retrieve?file_id=${encodeURIComponent(fileId)}`,
      headers(call),
    );
    checkAnswer(call, status, json);
    const url = ((json.file ?? {}) as { download_url?: unknown }).download_url;
    if (typeof url !== 'string' || !url)
      throw relayRefusal(502, 'relay.video_no_download_link', 'upstream_error', { id: call.channel.id }, true);
    return openVideoFile(call, url, range);
  },
};
