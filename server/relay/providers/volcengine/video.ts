import { refusal, RelayError } from '../../errors.ts';
import type { VideoAdapter, VideoCall, VideoCapabilities, VideoFile, VideoProgress } from '../../tasks/video/types.ts';
import { callJson, fileGone, openSignedFile } from './video-http.ts';
import { imageUrl, refuseUncarried, volcSpec } from './video-spec.ts';

/*
 * Seedance / Doubao video on Volcengine Ark's content-generation tasks (channel types 54 Doubao Video
 * and 45 VolcEngine, Bearer API key): POST /api/v3/contents/generations/tasks with the prompt and its
 * commands (--rs, --ratio, --dur, --seed) in one text item and the frames as image_url items with their
 * roles; GET .../tasks/{id} until succeeded (content.video_url, a pre-signed URL kept a day) or failed;
 * DELETE cancels or deletes. Ark reports the produced duration and resolution, which settle the job.
 */

const RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', '9:21'] as const;

interface SeedanceModel {
  t2v: boolean;
  firstFrame: boolean;
  lastFrame: boolean;
  /** The default first (Ark's default for the model). */
  resolutions: readonly string[];
}

// Seedance 1.0 (Ark's model list, mid 2025): pro makes 1080p by default, lite 720p; lite-t2v takes no
// image, lite-i2v needs one. A model not listed (a newer Seedance, an endpoint id) is sent as is.
const MODELS: Record<string, SeedanceModel> = {
  'doubao-seedance-1-0-pro': { t2v: true, firstFrame: true, lastFrame: true, resolutions: ['1080p', '720p', '480p'] },
  'doubao-seedance-1-0-lite-t2v': {
    t2v: true,
    firstFrame: false,
    lastFrame: false,
    resolutions: ['720p', '480p', '1080p'],
  },
  'doubao-seedance-1-0-lite-i2v': {
    t2v: false,
    firstFrame: true,
    lastFrame: true,
    resolutions: ['720p', '480p', '1080p'],
  },
};

/** Ark model names carry a version date (`-250528`); the table is keyed without it. */
const modelOf = (name: string): SeedanceModel | undefined => MODELS[name.replace(/-\d{6}$/, '')];

function caps(model: string): VideoCapabilities {
  const m = modelOf(model);
  return {
    seconds: [5, 10],
    resolutions: m?.resolutions ?? ['720p', '480p', '1080p'],
    aspectRatios: RATIOS,
    firstFrame: m?.firstFrame ?? true,
    lastFrame: m?.lastFrame ?? true,
    remix: false,
    variants: ['video'],
  };
}

/** Ark's base URL is the host; a channel saved with `/api/v3` (the chat route's prefix) works too. */
const tasksUrl = (call: VideoCall) =>
  `${call.channel.baseUrl.replace(/\/api\/v3$/, '')}/api/v3/contents/generations/tasks`;

const auth = (call: VideoCall) => ({ authorization: `Bearer ${call.key}` });

interface ArkTask {
  id?: string;
  status?: string;
  content?: { video_url?: string };
  error?: { code?: string; message?: string } | null;
  resolution?: string;
  duration?: number;
}

function upstreamError(call: VideoCall, status: number, json: unknown): RelayError {
  const e = (json as { error?: { code?: string; message?: string } } | null)?.error;
  const code = e?.code ?? String(status);
  // Ark appends its own request id to messages; the client gets the gateway's.
  const message = (e?.message ?? `HTTP ${status}`).replace(/\s*Request id: \S+$/, '');
  return new RelayError(
    status >= 400 ? status : 502,
    `Seedance (channel #${call.channel.id}) refused the request: ${message} (${code})`,
    code,
    true,
    `Seedance（渠道 #${call.channel.id}）拒绝了请求：${message}（${code}）`,
  );
}

async function poll(call: VideoCall, upstreamId: string): Promise<VideoProgress> {
  const { status, json } = await callJson(call.channel, {
    url: `${tasksUrl(call)}/${encodeURIComponent(upstreamId)}`,
    method: 'GET',
    headers: auth(call),
  });
  if (status === 404) return { state: 'failed', progress: 100, failReason: 'Seedance no longer knows the task' };
  if (status !== 200) throw upstreamError(call, status, json);
  const t = (json ?? {}) as ArkTask;
  switch (t.status) {
    case 'queued':
      return { state: 'queued', progress: 10 };
    case 'running':
      return { state: 'in_progress', progress: 50 };
    case 'succeeded':
      if (!t.content?.video_url) return { state: 'in_progress', progress: 90 };
      return {
        state: 'completed',
        progress: 100,
        seconds: typeof t.duration === 'number' ? t.duration : undefined,
        resolution: t.resolution,
        content: { video: t.content.video_url },
      };
    case 'failed':
      return {
        state: 'failed',
        progress: 100,
        failReason: t.error?.message ? `${t.error.message} (${t.error.code ?? 'failed'})` : 'Seedance failed the task',
      };
    case 'cancelled':
      return { state: 'failed', progress: 100, failReason: 'The task was cancelled at Seedance' };
    case 'expired':
      return { state: 'failed', progress: 100, failReason: 'The task expired at Seedance' };
    default:
      return { state: 'in_progress', progress: 30 };
  }
}

export const seedanceVideoAdapter: VideoAdapter = {
  capabilities: caps,

  async submit(call, req) {
    const model = call.upstreamModel;
    const c = caps(model);
    refuseUncarried('Seedance', model, c, req);
    if (modelOf(model)?.t2v === false && !req.firstFrame)
      throw refusal(
        400,
        `Seedance model ${model} is image-to-video and needs a first frame image`,
        `Seedance 模型 ${model} 是图生视频模型，需要提供首帧图片`,
      );
    const spec = volcSpec('Seedance', model, c, req);
    const commands = [
      spec.resolution ? `--rs ${spec.resolution}` : '',
      spec.ratio ? `--ratio ${spec.ratio}` : '',
      `--dur ${spec.seconds}`,
      req.seed !== undefined ? `--seed ${req.seed}` : '',
    ].filter(Boolean);
    const content: unknown[] = [{ type: 'text', text: [req.prompt.trim(), ...commands].filter(Boolean).join(' ') }];
    if (req.firstFrame)
      content.push({ type: 'image_url', image_url: { url: imageUrl(req.firstFrame) }, role: 'first_frame' });
    if (req.lastFrame)
      content.push({ type: 'image_url', image_url: { url: imageUrl(req.lastFrame) }, role: 'last_frame' });
    const { status, json } = await callJson(call.channel, {
      url: tasksUrl(call),
      method: 'POST',
      headers: { ...auth(call), 'content-type': 'application/json' },
      body: JSON.stringify({ model, content }),
    });
    const id = (json as { id?: unknown } | null)?.id;
    if (status !== 200 || typeof id !== 'string' || !id) throw upstreamError(call, status, json);
    return { upstreamId: id, progress: { state: 'queued', progress: 0 } };
  },

  poll,

  async content(call, upstreamId, stored, variant, range): Promise<VideoFile> {
    if (variant !== 'video')
      throw refusal(400, `Seedance serves no ${variant}, only the video`, `Seedance 不提供 ${variant}，只有视频`);
    if (stored?.video) {
      const file = await openSignedFile(call.channel, stored.video, range);
      if (file) return file;
    }
    const fresh = await poll(call, upstreamId);
    const file = fresh.content?.video ? await openSignedFile(call.channel, fresh.content.video, range) : null;
    if (!file) throw fileGone();
    return file;
  },

  async remove(call, upstreamId) {
    const { status, json } = await callJson(call.channel, {
      url: `${tasksUrl(call)}/${encodeURIComponent(upstreamId)}`,
      method: 'DELETE',
      headers: auth(call),
    });
    // Already gone is what was asked; a running task cannot be cancelled (it finishes, then expires).
    if (status === 200 || status === 404 || status === 409) return;
    throw upstreamError(call, status, json);
  },
};
