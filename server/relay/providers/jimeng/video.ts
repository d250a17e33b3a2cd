import { refusal, RelayError, relayRefusal } from '../../errors.ts';
import type {
  VideoAdapter,
  VideoCall,
  VideoCapabilities,
  VideoFile,
  VideoImage,
  VideoProgress,
  VideoRequest,
} from '../../tasks/video/types.ts';
import { callJson, fileGone, openSignedFile } from '../volcengine/video-http.ts';
import { refuseUncarried, volcSpec } from '../volcengine/video-spec.ts';
import { parseVolcKey, signVolcV4 } from './sign.ts';

/*
 * Jimeng video (channel type 51) on Volcengine's visual API: CVSync2AsyncSubmitTask then
 * CVSync2AsyncGetResult, every call signed with the channel's `AK|SK` (sign.ts). The model name is
 * Jimeng's req_key; new-api's aliases jimeng_v30 / jimeng_v30_1080p / jimeng_v30_pro pick the 3.0
 * req_key by the images given. A job lasts 121 frames (5 s) or 241 (10 s); each req_key makes one
 * resolution. GetResult needs the req_key again, so the upstream id the core stores is
 * `req_key/frames/task_id` (server-side only); the frames are what settles the job's seconds,
 * since Jimeng reports none.
 */

const VERSION = '2022-08-31';
const SCOPE = { region: 'cn-north-1', service: 'cv' };
const RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9'] as const;
const FRAMES: Record<number, number> = { 5: 121, 10: 241 };

type Images = 'none' | 'first' | 'first_tail' | 'optional';

const REQ_KEYS: Record<string, { images: Images; resolution: string }> = {
  jimeng_vgfm_t2v_l20: { images: 'none', resolution: '720p' },
  jimeng_vgfm_i2v_l20: { images: 'first', resolution: '720p' },
  jimeng_t2v_v30: { images: 'none', resolution: '720p' },
  jimeng_t2v_v30_1080p: { images: 'none', resolution: '1080p' },
  jimeng_i2v_first_v30: { images: 'first', resolution: '720p' },
  jimeng_i2v_first_v30_1080: { images: 'first', resolution: '1080p' },
  jimeng_i2v_first_tail_v30: { images: 'first_tail', resolution: '720p' },
  jimeng_i2v_first_tail_v30_1080: { images: 'first_tail', resolution: '1080p' },
  jimeng_ti2v_v30_pro: { images: 'optional', resolution: '1080p' },
};

/** new-api's 3.0 aliases: the req_key for no image, one image, first and last. */
const ALIASES: Record<string, [string, string, string]> = {
  jimeng_v30: ['jimeng_t2v_v30', 'jimeng_i2v_first_v30', 'jimeng_i2v_first_tail_v30'],
  jimeng_v30_1080p: ['jimeng_t2v_v30_1080p', 'jimeng_i2v_first_v30_1080', 'jimeng_i2v_first_tail_v30_1080'],
  jimeng_v30_pro: ['jimeng_ti2v_v30_pro', 'jimeng_ti2v_v30_pro', 'jimeng_ti2v_v30_pro'],
};

function caps(model: string): VideoCapabilities {
  const alias = ALIASES[model];
  const key = REQ_KEYS[alias ? alias[0] : model];
  const images: Images = alias ? (model === 'jimeng_v30_pro' ? 'optional' : 'first_tail') : (key?.images ?? 'optional');
  return {
    seconds: [5, 10],
    resolutions: key ? [key.resolution] : undefined,
    aspectRatios: RATIOS,
    firstFrame: images !== 'none',
    lastFrame: images === 'first_tail',
    remix: false,
    variants: ['video'],
  };
}

function reqKeyFor(model: string, req: VideoRequest): string {
  const alias = ALIASES[model];
  if (alias) return alias[req.lastFrame ? 2 : req.firstFrame ? 1 : 0];
  const key = REQ_KEYS[model];
  if (key?.images === 'first' && !req.firstFrame)
    throw refusal(400, `Jimeng model ${model} needs a first frame image`, `即梦模型 ${model} 需要提供首帧图片`);
  if (key?.images === 'first_tail' && !(req.firstFrame && req.lastFrame))
    throw refusal(
      400,
      `Jimeng model ${model} needs a first and a last frame image`,
      `即梦模型 ${model} 需要同时提供首帧和尾帧图片`,
    );
  return model;
}

/** Jimeng takes either URLs or bare base64 for all images of a job, never a mix. */
function images(req: VideoRequest): { image_urls?: string[]; binary_data_base64?: string[] } {
  const list = [req.firstFrame, req.lastFrame].filter((i): i is VideoImage => !!i);
  if (!list.length) return {};
  const asBase64 = (i: VideoImage) => {
    if (i.data) return i.data.toString('base64');
    const m = /^data:[^;,]+;base64,(.*)$/s.exec(i.url ?? '');
    if (m) return m[1];
    return null;
  };
  if (list.every((i) => i.url && /^https?:\/\//.test(i.url))) return { image_urls: list.map((i) => i.url!) };
  const b64 = list.map(asBase64);
  if (b64.every((s): s is string => s !== null)) return { binary_data_base64: b64 };
  throw refusal(
    400,
    'Jimeng takes images as http(s) URLs or as uploaded/base64 bytes, not a mix of both in one job',
    '即梦的图片须全部为 http(s) URL 或全部为上传/base64 内容，不能在一个任务中混用',
  );
}

async function visualCall(call: VideoCall, action: string, body: unknown) {
  const url = `${call.channel.baseUrl}/?Action=${action}&Version=${VERSION}`;
  const text = JSON.stringify(body);
  const headers = signVolcV4(
    { method: 'POST', url, body: text, contentType: 'application/json' },
    parseVolcKey(call.key),
    SCOPE,
  );
  return callJson(call.channel, { url, method: 'POST', headers, body: text });
}

interface JimengAnswer {
  code?: number;
  message?: string;
  data?: { task_id?: string; status?: string; video_url?: string } | null;
  ResponseMetadata?: { Error?: { Code?: string; Message?: string } };
}

/** An answer that is not Jimeng's success, as the RelayError the core reads (statuses kept). */
function upstreamError(call: VideoCall, status: number, a: JimengAnswer): RelayError {
  const meta = a.ResponseMetadata?.Error;
  const code = meta?.Code ?? String(a.code ?? status);
  const message = meta?.Message ?? a.message ?? `HTTP ${status}`;
  return new RelayError(
    status >= 400 ? status : 502,
    `Jimeng (channel #${call.channel.id}) refused the request: ${message} (${code})`,
    code,
    true,
    `即梦（渠道 #${call.channel.id}）拒绝了请求：${message}（${code}）`,
  );
}

/** `req_key/frames/task_id` -> its parts. */
function readId(upstreamId: string) {
  const [reqKey, frames, taskId] = upstreamId.split('/');
  if (!reqKey || !taskId) throw relayRefusal(500, 'relay.task_id_malformed', 'bad_task_id');
  return { reqKey, frames: Number(frames) || 121, taskId };
}

async function poll(call: VideoCall, upstreamId: string): Promise<VideoProgress> {
  const { reqKey, frames, taskId } = readId(upstreamId);
  const { status, json } = await visualCall(call, 'CVSync2AsyncGetResult', { req_key: reqKey, task_id: taskId });
  const a = (json ?? {}) as JimengAnswer;
  if (status === 200 && a.code === 10000) {
    const s = a.data?.status;
    if (s === 'in_queue') return { state: 'queued', progress: 10 };
    if (s === 'generating') return { state: 'in_progress', progress: 50 };
    if (s === 'done' && a.data?.video_url)
      return {
        state: 'completed',
        progress: 100,
        seconds: frames >= 241 ? 10 : 5,
        resolution: REQ_KEYS[reqKey]?.resolution,
        content: { video: a.data.video_url },
      };
    if (s === 'not_found')
      return { state: 'failed', progress: 100, failReason: 'Jimeng no longer knows the task (not_found)' };
    if (s === 'expired') return { state: 'failed', progress: 100, failReason: 'The task expired at Jimeng (expired)' };
    return { state: 'in_progress', progress: 50 };
  }
  // A job's own failure (content review, generation error) is a 4xx with Jimeng's code: final.
  // Limits, 5xx and the gateway's auth errors may pass: the core polls again later.
  if (status >= 400 && status < 500 && status !== 429 && typeof a.code === 'number' && !a.ResponseMetadata)
    return { state: 'failed', progress: 100, failReason: `${a.message ?? 'failed'} (${a.code})` };
  throw upstreamError(call, status, a);
}

export const jimengVideoAdapter: VideoAdapter = {
  capabilities: caps,

  async submit(call, req) {
    const model = call.upstreamModel;
    const c = caps(model);
    refuseUncarried('Jimeng', model, c, req);
    const spec = volcSpec('Jimeng', model, c, req);
    const reqKey = reqKeyFor(model, req);
    const frames = FRAMES[spec.seconds];
    const body = {
      req_key: reqKey,
      prompt: req.prompt,
      ...images(req),
      ...(req.seed !== undefined ? { seed: req.seed } : {}),
      ...(spec.ratio ? { aspect_ratio: spec.ratio } : {}),
      frames,
    };
    const { status, json } = await visualCall(call, 'CVSync2AsyncSubmitTask', body);
    const a = (json ?? {}) as JimengAnswer;
    if (status !== 200 || a.code !== 10000 || !a.data?.task_id) throw upstreamError(call, status, a);
    return { upstreamId: `${reqKey}/${frames}/${a.data.task_id}`, progress: { state: 'queued', progress: 0 } };
  },

  poll,

  async content(call, upstreamId, stored, variant, range): Promise<VideoFile> {
    if (variant !== 'video')
      throw refusal(400, `Jimeng serves no ${variant}, only the video`, `即梦不提供 ${variant}，只有视频`);
    // Jimeng's video_url is signed for an hour: when the stored one no longer opens, ask for a fresh one.
    if (stored?.video) {
      const file = await openSignedFile(call.channel, stored.video, range);
      if (file) return file;
    }
    const fresh = await poll(call, upstreamId);
    const url = fresh.content?.video;
    const file = url ? await openSignedFile(call.channel, url, range) : null;
    if (!file) throw fileGone();
    return file;
  },
};
