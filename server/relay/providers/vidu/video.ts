import { RelayError, refusal } from '../../errors.ts';
import type {
  VideoAdapter,
  VideoCall,
  VideoCapabilities,
  VideoProgress,
  VideoRequest,
  VideoState,
} from '../../tasks/video/types.ts';
import { imageDataUrl, needsFirstFrame, noVariant, taskIdOf, wrongSeconds } from '../shared/video-rules.ts';
import { openVideoFile, resolutionOf, upstreamRefusal, videoJson } from '../shared/video-upstream.ts';

/*
 * Vidu (channel type 52), its enterprise task API: POST /ent/v2/{text2video,img2video,start-end2video}
 * with `Authorization: Token <key>`, then GET /ent/v2/tasks/{id}/creations until `success` or
 * `failed`. The endpoint follows the frames given (none, a first frame, first + last frame). Each
 * model makes a fixed set of durations, and each duration its own resolutions: what falls outside
 * is refused here with a 400 that names what the model takes, before anything is sent or billed.
 */

interface ViduModel {
  /** duration -> resolutions; the first of each is the default. */
  table: Record<number, readonly string[]>;
  /** Whether text2video serves it (vidu2.0 starts only from an image). */
  text: boolean;
  aspectRatios: readonly string[];
}

const Q1: ViduModel = { table: { 5: ['1080p'] }, text: true, aspectRatios: ['16:9', '9:16', '1:1'] };
const LEGACY = { 4: ['360p', '720p', '1080p'], 8: ['720p'] } as const;

const MODELS: Record<string, ViduModel> = {
  viduq1: Q1,
  'viduq1-classic': { ...Q1, text: false },
  'vidu2.0': { table: LEGACY, text: false, aspectRatios: [] },
  'vidu1.5': { table: LEGACY, text: true, aspectRatios: ['16:9', '9:16', '1:1'] },
};

/** An unknown model (a newer one the table does not know) is carried as viduq1 is priced: 5 s. */
const modelOf = (m: string): ViduModel => MODELS[m] ?? Q1;

const durationsOf = (m: ViduModel) => Object.keys(m.table).map(Number);

function capabilities(upstreamModel: string): VideoCapabilities {
  const m = modelOf(upstreamModel);
  const resolutions = [...new Set(Object.values(m.table).flat())];
  return {
    seconds: durationsOf(m),
    resolutions,
    aspectRatios: m.aspectRatios,
    firstFrame: true,
    lastFrame: true,
    remix: false,
    variants: ['video', 'thumbnail'],
  };
}

const headers = (call: VideoCall) => ({ authorization: `Token ${call.key}` });

/** The upstream body for `req`, or a 400 saying what the model cannot make. */
export function viduBody(upstreamModel: string, req: VideoRequest): { path: string; body: Record<string, unknown> } {
  const m = modelOf(upstreamModel);
  const durations = durationsOf(m);
  if (req.lastFrame && !req.firstFrame)
    throw refusal(
      400,
      'Vidu needs a first frame to go with a last frame',
      'Vidu 的尾帧需要同时提供首帧',
      'invalid_video_frames',
    );
  if (!req.firstFrame && !m.text) throw needsFirstFrame(upstreamModel);
  if (req.negativePrompt)
    throw refusal(400, 'Vidu takes no negative prompt', 'Vidu 不支持反向提示词', 'unsupported_parameter');
  const seconds = req.seconds ?? durations[0];
  if (!m.table[seconds]) throw wrongSeconds(upstreamModel, durations, seconds);
  const wanted = resolutionOf(req);
  const resolution = wanted ?? m.table[seconds][0];
  if (!m.table[seconds].includes(resolution))
    throw refusal(
      400,
      `${upstreamModel} makes ${seconds}-second videos at ${m.table[seconds].join(', ')}, not ${resolution}`,
      `${upstreamModel} 的 ${seconds} 秒视频只支持 ${m.table[seconds].join('、')}，不支持 ${resolution}`,
      'invalid_video_size',
    );
  const path = req.lastFrame ? 'start-end2video' : req.firstFrame ? 'img2video' : 'text2video';
  const body: Record<string, unknown> = { model: upstreamModel, prompt: req.prompt, duration: seconds, resolution };
  if (req.firstFrame) body.images = [req.firstFrame, ...(req.lastFrame ? [req.lastFrame] : [])].map(imageDataUrl);
  if (req.aspectRatio) {
    // Only text2video takes an aspect ratio: from an image, the image's own shape decides.
    if (path !== 'text2video' || !m.aspectRatios.includes(req.aspectRatio))
      throw refusal(
        400,
        `Vidu takes an aspect ratio only for text-to-video (${m.aspectRatios.join(', ') || 'none for this model'})`,
        `Vidu 只有文生视频可以设置宽高比（${m.aspectRatios.join('、') || '此模型不支持'}）`,
        'invalid_video_size',
      );
    body.aspect_ratio = req.aspectRatio;
  }
  if (req.seed !== undefined) body.seed = req.seed;
  // Vidu's own knobs, given by a Vidu-aware client (new-api's metadata).
  for (const k of ['movement_amplitude', 'bgm', 'style', 'payload'] as const)
    if (req.extra?.[k] !== undefined) body[k] = req.extra[k];
  return { path, body };
}

const STATES: Record<string, { state: VideoState; progress: number }> = {
  created: { state: 'queued', progress: 0 },
  queueing: { state: 'queued', progress: 5 },
  processing: { state: 'in_progress', progress: 50 },
  success: { state: 'completed', progress: 100 },
  failed: { state: 'failed', progress: 100 },
};

function checkAnswer(call: VideoCall, status: number, json: Record<string, unknown>) {
  if (status >= 400)
    throw upstreamRefusal(
      call,
      status,
      String(json.reason ?? json.code ?? status),
      String(json.message ?? 'request refused'),
    );
}

export const viduVideo: VideoAdapter = {
  capabilities,

  async submit(call, req) {
    const { path, body } = viduBody(call.upstreamModel, req);
    const { status, json } = await videoJson(call, 'POST', `/ent/v2/${path}`, headers(call), body);
    checkAnswer(call, status, json);
    const id = taskIdOf(call, json.task_id);
    if (json.state === 'failed') throw upstreamRefusal(call, 400, 'task_failed', 'the job was refused at submit');
    return {
      upstreamId: id,
      progress: {
        ...STATES.created,
        seconds: typeof json.duration === 'number' ? json.duration : undefined,
        resolution: typeof json.resolution === 'string' ? json.resolution : undefined,
      },
    };
  },

  async poll(call, upstreamId) {
    const { status, json } = await videoJson(
      call,
      'GET',
      `/ent/v2/tasks/${encodeURIComponent(upstreamId)}/creations`,
      headers(call),
    );
    checkAnswer(call, status, json);
    const at = STATES[String(json.state)];
    if (!at) throw upstreamRefusal(call, 502, 'unknown_state', `unknown task state ${String(json.state)}`);
    const out: VideoProgress = { ...at };
    if (at.state === 'failed') out.failReason = String(json.err_code || 'task failed');
    if (at.state === 'completed') {
      const first = (Array.isArray(json.creations) ? json.creations[0] : undefined) as
        { url?: string; cover_url?: string } | undefined;
      if (!first?.url) throw upstreamRefusal(call, 502, 'no_creation', 'the finished job has no video');
      out.content = { video: first.url, ...(first.cover_url ? { thumbnail: first.cover_url } : {}) };
    }
    return out;
  },

  async content(call, upstreamId, stored, variant, range) {
    const url = stored?.[variant];
    if (!url) throw noVariant(variant);
    // Creations are signed object-store links (no key goes with them) that expire: when the stored
    // one is refused, the task's creations are read again for a fresh link, once.
    try {
      return await openVideoFile(call, url, range);
    } catch (err) {
      if (!(err instanceof RelayError) || err.status !== 502 || !err.fromUpstream) throw err;
      const fresh = (await viduVideo.poll(call, upstreamId)).content?.[variant];
      if (!fresh || fresh === url) throw err;
      return openVideoFile(call, fresh, range);
    }
  },
};
