import { randomBytes } from 'node:crypto';
import { ChannelType } from '../../../../shared/channel-types.ts';
import { RelayError, refusal } from '../../errors.ts';
import type {
  VideoAdapter,
  VideoCall,
  VideoCapabilities,
  VideoFile,
  VideoImage,
  VideoProgress,
  VideoRequest,
  VideoState,
} from '../../tasks/video/types.ts';
import { sendUpstream } from '../../upstream.ts';
import { channelUnreachable } from '../shared/video-upstream.ts';
import type { UpstreamRequest } from '../types.ts';

/*
 * OpenAI's videos API (Sora 2) as an upstream (issue 40): channel types Sora 55 and OpenAI 1 at
 * {base}/v1/videos with a Bearer key, and Azure OpenAI 3, whose Sora 2 follows the same schema on its
 * v1 API at {base}/openai/v1/videos with an `api-key` header (the model field names the deployment).
 * Jobs are read by id, the files through /content?variant=..., so nothing but the id is stored.
 */

const CALL_TIMEOUT_MS = 60_000;
/** A file's body may take many minutes on a slow link; only its headers must come within CALL_TIMEOUT_MS. */
const FILE_TIMEOUT_MS = 30 * 60_000;
const SECONDS = [4, 8, 12] as const;
const PORTRAIT = '720x1280';
const LANDSCAPE = '1280x720';

/** sora-2-pro (and its dated snapshots) also renders the two larger sizes. */
const isPro = (model: string) => /^sora-2-pro/.test(model);

export function soraCapabilities(upstreamModel: string): VideoCapabilities {
  return {
    seconds: SECONDS,
    sizes: isPro(upstreamModel) ? [PORTRAIT, LANDSCAPE, '1024x1792', '1792x1024'] : [PORTRAIT, LANDSCAPE],
    resolutions: ['720p'],
    aspectRatios: ['9:16', '16:9'],
    firstFrame: true,
    lastFrame: false,
    remix: true,
    variants: ['video', 'thumbnail', 'spritesheet'],
  };
}

const isAzure = (call: VideoCall) => call.channel.type === ChannelType.Azure;

function videosUrl(call: VideoCall, path = '') {
  return `${call.channel.baseUrl}${isAzure(call) ? '/openai/v1/videos' : '/v1/videos'}${path}`;
}

function authHeaders(call: VideoCall): Record<string, string> {
  const h: Record<string, string> = isAzure(call) ? { 'api-key': call.key } : { authorization: `Bearer ${call.key}` };
  if (!isAzure(call) && call.channel.openaiOrganization) h['openai-organization'] = call.channel.openaiOrganization;
  return h;
}

interface SoraVideo {
  id: string;
  status: string;
  progress?: number;
  seconds?: string | number;
  size?: string;
  error?: { code?: string; message?: string } | null;
}

const STATES: Record<string, VideoState> = {
  queued: 'queued',
  in_progress: 'in_progress',
  completed: 'completed',
  failed: 'failed',
};

function progressOf(v: SoraVideo): VideoProgress {
  const state = STATES[v.status] ?? 'in_progress';
  const out: VideoProgress = {
    state,
    progress: state === 'completed' ? 100 : Math.max(0, Math.min(100, Number(v.progress) || 0)),
  };
  const seconds = Number(v.seconds);
  if (Number.isFinite(seconds) && seconds > 0) out.seconds = seconds;
  if (typeof v.size === 'string' && v.size) out.size = v.size;
  if (state === 'failed') out.failReason = v.error?.message || v.error?.code || 'The video generation failed upstream.';
  return out;
}

/**
 * One call to the videos API. An upstream refusal keeps its status and OpenAI message (a 400 says
 * what the model would not take); a rejected key becomes a 502 naming the channel, because the
 * upstream's text quotes part of the key and the caller's own token was fine.
 */
async function call(
  c: VideoCall,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: { json: unknown } | { multipart: Buffer; contentType: string },
  extraHeaders: Record<string, string> = {},
  file = false,
) {
  const headers: Record<string, string> = { accept: 'application/json', ...authHeaders(c), ...extraHeaders };
  let payload: Buffer | string | undefined;
  if (body && 'json' in body) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else if (body) {
    headers['content-type'] = body.contentType;
    payload = body.multipart;
  }
  try {
    return await sendUpstream(
      // The shared pool sends any method; its request type names only the two the text relay uses.
      { url: videosUrl(c, path), method: method as UpstreamRequest['method'], headers, body: payload },
      AbortSignal.timeout(file ? FILE_TIMEOUT_MS : CALL_TIMEOUT_MS),
      file ? CALL_TIMEOUT_MS : undefined,
    );
  } catch (err) {
    throw channelUnreachable(c.channel, err);
  }
}

type Answer = Awaited<ReturnType<typeof call>>;

async function upstreamError(c: VideoCall, res: Answer): Promise<RelayError> {
  const text = await res.body.text().catch(() => '');
  let err: { message?: string; code?: string | null } = {};
  try {
    err = ((JSON.parse(text) as { error?: typeof err }).error ?? {}) as typeof err;
  } catch {
    // A non-JSON error page: the status alone is reported.
  }
  const status = res.statusCode;
  if (status === 401 || status === 403)
    return new RelayError(
      502,
      `Channel #${c.channel.id} rejected its API key (HTTP ${status})`,
      'upstream_auth_failed',
      true,
      `渠道 #${c.channel.id} 的密钥被上游拒绝 (HTTP ${status})`,
    );
  const message = err.message || `Channel #${c.channel.id} answered HTTP ${status}`;
  // The caller's own mistakes keep their status; an upstream fault is the gateway's problem: 502.
  return new RelayError(
    [400, 404, 409, 413, 422, 429].includes(status) ? status : 502,
    message,
    err.code ?? 'upstream_error',
    true,
  );
}

async function json<T>(c: VideoCall, res: Answer): Promise<T> {
  if (res.statusCode >= 400) throw await upstreamError(c, res);
  const text = await res.body.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new RelayError(
      502,
      `Channel #${c.channel.id} answered with unreadable content (HTTP ${res.statusCode})`,
      'bad_response',
      true,
      `渠道 #${c.channel.id} 返回了无法解析的内容 (HTTP ${res.statusCode})`,
    );
  }
}

/** The pixel size to ask for: the explicit size, else the aspect ratio's, else the API's default. */
function sizeFor(req: VideoRequest, caps: VideoCapabilities): string | undefined {
  if (req.size) {
    if (!caps.sizes?.includes(req.size))
      throw refusal(
        400,
        `${req.model} makes videos of ${caps.sizes?.join(', ')} pixels, not ${req.size}`,
        `${req.model} 只能生成 ${caps.sizes?.join('、')} 像素的视频，不支持 ${req.size}`,
      );
    return req.size;
  }
  if (req.aspectRatio) {
    const bySide = { '9:16': PORTRAIT, '16:9': LANDSCAPE } as Record<string, string>;
    const size = bySide[req.aspectRatio];
    if (!size)
      throw refusal(
        400,
        `${req.model} makes videos in 9:16 or 16:9, not ${req.aspectRatio}`,
        `${req.model} 只能生成 9:16 或 16:9 的视频，不支持 ${req.aspectRatio}`,
      );
    return size;
  }
  return undefined;
}

/** Refuses, with the reason, what OpenAI's videos API has no field for. */
function refuseUncarried(req: VideoRequest) {
  const no = (en: string, zh: string) =>
    refusal(400, `${req.model} (OpenAI videos API) ${en}`, `${req.model}（OpenAI 视频接口）${zh}`);
  if (req.lastFrame)
    throw no('takes no last frame: only a first frame (input_reference)', '不支持尾帧，只支持首帧 (input_reference)');
  if (req.negativePrompt) throw no('takes no negative prompt', '不支持反向提示词');
  if (req.seed !== undefined) throw no('takes no seed', '不支持 seed');
  if (req.resolution && req.resolution !== '720p')
    throw no(`renders 720p, not ${req.resolution}`, `只支持 720p，不支持 ${req.resolution}`);
  if (req.seconds !== undefined && !(SECONDS as readonly number[]).includes(req.seconds))
    throw no(
      `makes videos of 4, 8 or 12 seconds, not ${req.seconds}`,
      `只能生成 4、8 或 12 秒的视频，不支持 ${req.seconds} 秒`,
    );
}

function imageBytes(img: VideoImage): { data: Buffer; mime: string } | null {
  if (img.data) return { data: img.data, mime: img.mime ?? 'image/png' };
  return null;
}

function multipart(fields: Record<string, string>, file: { data: Buffer; mime: string }) {
  const boundary = `----switchyard${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  const ext = file.mime.split('/')[1] ?? 'png';
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="input_reference"; filename="reference.${ext}"\r\nContent-Type: ${file.mime}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { multipart: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Headers of a file answer worth passing to the client (never the upstream's host or cookies). */
const FILE_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'last-modified', 'etag'];

export const soraVideoAdapter: VideoAdapter = {
  capabilities: soraCapabilities,

  async submit(c, req) {
    if (req.remixOf) return soraVideoAdapter.remix!(c, req.remixOf, req.prompt);
    refuseUncarried(req);
    const caps = soraCapabilities(c.upstreamModel);
    const fields: Record<string, string> = { model: c.upstreamModel, prompt: req.prompt };
    if (req.seconds !== undefined) fields.seconds = String(req.seconds);
    const size = sizeFor(req, caps);
    if (size) fields.size = size;
    const bytes = req.firstFrame ? imageBytes(req.firstFrame) : null;
    let res: Answer;
    if (bytes) res = await call(c, 'POST', '', multipart(fields, bytes));
    else
      res = await call(c, 'POST', '', {
        json: req.firstFrame?.url ? { ...fields, input_reference: { image_url: req.firstFrame.url } } : fields,
      });
    const v = await json<SoraVideo>(c, res);
    return { upstreamId: v.id, progress: progressOf(v) };
  },

  async poll(c, upstreamId) {
    const v = await json<SoraVideo>(c, await call(c, 'GET', `/${encodeURIComponent(upstreamId)}`));
    return progressOf(v);
  },

  async content(c, upstreamId, _stored, variant, range): Promise<VideoFile> {
    const res = await call(
      c,
      'GET',
      `/${encodeURIComponent(upstreamId)}/content?variant=${encodeURIComponent(variant)}`,
      undefined,
      { accept: '*/*', ...(range ? { range } : {}) },
      true,
    );
    // 416 is a file answer (the client's range is past the end), not an upstream failure.
    if (res.statusCode >= 400 && res.statusCode !== 416) throw await upstreamError(c, res);
    const headers: Record<string, string> = {};
    for (const name of FILE_HEADERS) {
      const v = res.headers[name];
      if (typeof v === 'string') headers[name] = v;
    }
    return { status: res.statusCode, headers, body: res.body };
  },

  async remix(c, upstreamId, prompt) {
    const v = await json<SoraVideo>(
      c,
      await call(c, 'POST', `/${encodeURIComponent(upstreamId)}/remix`, { json: { prompt } }),
    );
    return { upstreamId: v.id, progress: progressOf(v) };
  },

  async remove(c, upstreamId) {
    const res = await call(c, 'DELETE', `/${encodeURIComponent(upstreamId)}`);
    // Already gone upstream (expired or deleted before) is what the caller wanted.
    if (res.statusCode === 404) return void (await res.body.dump());
    await json(c, res);
  },
};
