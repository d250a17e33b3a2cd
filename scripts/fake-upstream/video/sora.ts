import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createClock, sendJson } from '../task-clock.ts';
import { labelledMp4, listenBuffered, sendRanged } from './shared.ts';

/*
 * A strict fake of OpenAI's videos API (Sora 2), for tests and manual runs (issue 40).
 *
 * Wire facts (platform.openai.com/docs/api-reference/videos, the `openai` SDK v6 types):
 * - POST /v1/videos, multipart/form-data (what the SDK always sends) or JSON: prompt (required),
 *   model sora-2 | sora-2-pro (default sora-2), seconds "4" | "8" | "12" (default "4"), size
 *   720x1280 | 1280x720 (default 720x1280; sora-2-pro also 1024x1792 | 1792x1024), input_reference as
 *   an image file (jpeg/png/webp) or `{image_url}` (https or data: URL).
 * - The video object: {id:"video_...", object:"video", model, status queued|in_progress|completed|failed,
 *   progress, created_at, completed_at, expires_at, prompt, seconds (a string), size, error, remixed_from_video_id}.
 * - GET /v1/videos?after&limit&order -> {object:"list", data, first_id, last_id, has_more} (newest first).
 * - DELETE /v1/videos/{id} (completed or failed only) -> {id, object:"video.deleted", deleted:true}.
 * - POST /v1/videos/{id}/remix {prompt} (completed only) -> a new job with remixed_from_video_id.
 * - GET /v1/videos/{id}/content?variant=video|thumbnail|spritesheet -> the bytes (mp4 / webp / jpeg), Range honoured.
 * - Errors: {error:{message, type, param, code}}; a missing or wrong Bearer key is a 401.
 *
 * Steering for tests: a prompt containing "FAIL" fails at 30 %, "BLOCKED" is refused at submit by
 * moderation (400 moderation_blocked); `fail(id)` fails a running job; `advance(ms)` moves the clock.
 * A job is queued for one step, then in progress 10 %..90 % one step each, then completed (11 steps).
 *
 * Not reproduced: the input_reference must match the requested size in pixels (the real API refuses
 * other sizes; here any image passes, so every door's image tests can share the fake), file_id references,
 * rate limits and billing errors.
 */

export interface FakeSoraVideo {
  id: string;
  model: string;
  prompt: string;
  seconds: '4' | '8' | '12';
  size: string;
  createdAt: number;
  remixedFrom: string | null;
  /** The reference image as received (mime and bytes, or the URL), for tests to check what arrived. */
  inputReference: { mime?: string; bytes?: Buffer; url?: string } | null;
  /** Progress (%) at which the job fails, or null. */
  failAt: number | null;
  failure: { code: string; message: string } | null;
  deleted: boolean;
}

export interface FakeSoraRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** Text fields (JSON body or multipart text parts). */
  fields: Record<string, unknown>;
}

export interface FakeSora {
  url: string;
  requests: FakeSoraRequest[];
  videos: Map<string, FakeSoraVideo>;
  advance(ms: number): void;
  /** Fails a job now (it reports `failed` with this error from the next read on). */
  fail(id: string, error?: { code: string; message: string }): void;
  /** The exact bytes `content` serves for a job's variant (to compare downloads with). */
  contentOf(id: string, variant?: 'video' | 'thumbnail' | 'spritesheet'): Buffer;
  close(): Promise<void>;
}

export interface FakeSoraOptions {
  port?: number;
  /** The only accepted API key; absent, any non-empty Bearer key passes. */
  key?: string;
  /** Length of one progress step on the virtual clock (ms). */
  stepMs?: number;
  /**
   * Azure OpenAI's v1 API instead (Sora 2 on Azure follows OpenAI's schema): paths under
   * /openai/v1/videos, the key in an `api-key` header, Azure's 401 shape.
   */
  azure?: boolean;
}

const SIZES: Record<string, readonly string[]> = {
  'sora-2': ['720x1280', '1280x720'],
  'sora-2-pro': ['720x1280', '1280x720', '1024x1792', '1792x1024'],
};
const SECONDS = ['4', '8', '12'] as const;
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
/** How long the files stay downloadable after completion (OpenAI keeps them about an hour). */
const RETENTION_S = 3600;

const apiError = (
  message: string,
  code: string | null,
  param: string | null = null,
  type = 'invalid_request_error',
) => ({
  error: { message, type, param, code },
});

/**
 * A job's video: the playable fixture plus a top-level `free` box naming the job, so every job's bytes
 * differ (downloads can be compared) and the file still plays.
 */
export const fakeMp4 = (seed: string): Buffer => labelledMp4(`switchyard fake sora ${seed}`);

/** Image-like bytes for the thumbnail and spritesheet (a real header, then filler distinct per job). */
function filler(seed: string, size: number): Buffer {
  const out: Buffer[] = [];
  let h = createHash('sha256').update(seed).digest();
  for (let n = 0; n < size; n += h.length) {
    out.push(h);
    h = createHash('sha256').update(h).digest();
  }
  return Buffer.concat(out).subarray(0, size);
}

const variantFile = (id: string, variant: string): { type: string; bytes: Buffer } => {
  if (variant === 'thumbnail')
    return {
      type: 'image/webp',
      bytes: Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'), filler(`${id}-thumb`, 512)]),
    };
  if (variant === 'spritesheet')
    return {
      type: 'image/jpeg',
      bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), filler(`${id}-sprite`, 1024)]),
    };
  return { type: 'video/mp4', bytes: fakeMp4(id) };
};

/** The body's fields: JSON, or multipart parsed by the platform's own FormData reader. */
async function parseFields(
  req: IncomingMessage,
  raw: Buffer,
): Promise<{ fields: Record<string, unknown>; files: Record<string, { mime: string; bytes: Buffer }> } | 'bad'> {
  const type = String(req.headers['content-type'] ?? '');
  if (raw.length === 0) return { fields: {}, files: {} };
  if (type.startsWith('application/json')) {
    try {
      const v: unknown = JSON.parse(raw.toString('utf8'));
      if (!v || typeof v !== 'object' || Array.isArray(v)) return 'bad';
      return { fields: v as Record<string, unknown>, files: {} };
    } catch {
      return 'bad';
    }
  }
  if (type.startsWith('multipart/form-data')) {
    try {
      const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': type } }).formData();
      const fields: Record<string, unknown> = {};
      const files: Record<string, { mime: string; bytes: Buffer }> = {};
      for (const [name, value] of form.entries()) {
        if (typeof value === 'string') {
          // The SDK sends an object field as `input_reference[image_url]`.
          const nested = /^([^[]+)\[([^\]]+)\]$/.exec(name);
          if (nested) fields[nested[1]] = { ...(fields[nested[1]] as object | undefined), [nested[2]]: value };
          else fields[name] = value;
        } else files[name] = { mime: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
      }
      return { fields, files };
    } catch {
      return 'bad';
    }
  }
  return 'bad';
}

export async function startFakeSora(opts: FakeSoraOptions = {}): Promise<FakeSora> {
  const stepMs = opts.stepMs ?? 1000;
  const clock = createClock();
  const videos = new Map<string, FakeSoraVideo>();
  const requests: FakeSoraRequest[] = [];
  const sec = (ms: number) => Math.floor(ms / 1000);

  function state(v: FakeSoraVideo) {
    const elapsed = clock.now() - v.createdAt;
    const step = Math.floor(elapsed / stepMs);
    if (v.failure) return { status: 'failed' as const, progress: 0, doneAt: null, error: v.failure };
    const pct = Math.min(100, step * 10);
    if (v.failAt !== null && step >= 1 && pct >= v.failAt)
      return {
        status: 'failed' as const,
        progress: v.failAt,
        doneAt: v.createdAt + (v.failAt / 10) * stepMs,
        error: {
          code: 'video_generation_failed',
          message: 'Video generation failed: the prompt asked the fake to fail.',
        },
      };
    if (step < 1) return { status: 'queued' as const, progress: 0, doneAt: null, error: null };
    if (pct < 100) return { status: 'in_progress' as const, progress: pct, doneAt: null, error: null };
    return { status: 'completed' as const, progress: 100, doneAt: v.createdAt + 10 * stepMs, error: null };
  }

  function view(v: FakeSoraVideo) {
    const s = state(v);
    const completedAt = s.doneAt === null ? null : sec(s.doneAt);
    return {
      id: v.id,
      object: 'video',
      model: v.model,
      status: s.status,
      progress: s.progress,
      created_at: sec(v.createdAt),
      completed_at: completedAt,
      expires_at: s.status === 'completed' && completedAt !== null ? completedAt + RETENTION_S : null,
      prompt: v.prompt,
      seconds: v.seconds,
      size: v.size,
      error: s.error,
      remixed_from_video_id: v.remixedFrom,
    };
  }

  const newId = () =>
    `video_${createHash('sha256').update(`${Date.now()}-${Math.random()}`).digest('hex').slice(0, 32)}`;

  function moderated(prompt: string) {
    return prompt.includes('BLOCKED')
      ? apiError('Your request was blocked by our moderation system.', 'moderation_blocked')
      : null;
  }

  function create(fields: Record<string, unknown>, files: Record<string, { mime: string; bytes: Buffer }>) {
    const known = ['prompt', 'model', 'seconds', 'size', 'input_reference'];
    const unknown = Object.keys(fields).find((k) => !known.includes(k));
    if (unknown)
      return { status: 400, body: apiError(`Unknown parameter: '${unknown}'.`, 'unknown_parameter', unknown) };
    const prompt = fields.prompt;
    if (typeof prompt !== 'string' || prompt.trim() === '')
      return {
        status: 400,
        body: apiError("Missing required parameter: 'prompt'.", 'missing_required_parameter', 'prompt'),
      };
    const model = fields.model === undefined ? 'sora-2' : String(fields.model);
    if (!SIZES[model])
      return {
        status: 400,
        body: apiError(
          `Invalid value: '${model}'. Supported values are: 'sora-2' and 'sora-2-pro'.`,
          'invalid_value',
          'model',
        ),
      };
    const seconds = fields.seconds === undefined ? '4' : fields.seconds;
    // The API takes seconds as a string enum: a JSON number is a type error, as OpenAI answers it.
    if (typeof seconds !== 'string')
      return {
        status: 400,
        body: apiError(
          `Invalid type for 'seconds': expected one of '4', '8' or '12', but got a ${typeof seconds} instead.`,
          'invalid_type',
          'seconds',
        ),
      };
    if (!(SECONDS as readonly string[]).includes(seconds))
      return {
        status: 400,
        body: apiError(
          `Invalid value: '${seconds}'. Supported values are: '4', '8', and '12'.`,
          'invalid_value',
          'seconds',
        ),
      };
    const size = fields.size === undefined ? '720x1280' : String(fields.size);
    if (!SIZES[model].includes(size))
      return {
        status: 400,
        body: apiError(
          `Invalid value: '${size}'. Supported values for ${model} are: ${SIZES[model].map((s) => `'${s}'`).join(', ')}.`,
          'invalid_value',
          'size',
        ),
      };
    let inputReference: FakeSoraVideo['inputReference'] = null;
    const file = files.input_reference;
    if (file) {
      if (!IMAGE_TYPES.includes(file.mime) || file.bytes.length === 0)
        return {
          status: 400,
          body: apiError(
            `Invalid file format for 'input_reference': ${file.mime || 'unknown'}. Supported formats are image/jpeg, image/png and image/webp.`,
            'invalid_value',
            'input_reference',
          ),
        };
      inputReference = { mime: file.mime, bytes: file.bytes };
    } else if (fields.input_reference !== undefined) {
      const ref = fields.input_reference as { image_url?: unknown };
      const url = typeof ref === 'object' && ref ? ref.image_url : undefined;
      if (typeof url !== 'string' || !/^(https?:\/\/|data:image\/(png|jpeg|webp);base64,)/.test(url))
        return {
          status: 400,
          body: apiError(
            "Invalid 'input_reference': expected an image file or {image_url} with an http(s) or base64 data URL.",
            'invalid_value',
            'input_reference',
          ),
        };
      inputReference = { url };
    }
    const blocked = moderated(prompt);
    if (blocked) return { status: 400, body: blocked };
    const v: FakeSoraVideo = {
      id: newId(),
      model,
      prompt,
      seconds: seconds as FakeSoraVideo['seconds'],
      size,
      createdAt: clock.now(),
      remixedFrom: null,
      inputReference,
      failAt: prompt.includes('FAIL') ? 30 : null,
      failure: null,
      deleted: false,
    };
    videos.set(v.id, v);
    return { status: 200, body: view(v) };
  }

  const notFound = (id: string) => ({
    status: 404,
    body: apiError(`Video with id '${id}' not found.`, 'video_not_found', 'video_id'),
  });

  function list(q: URLSearchParams) {
    const order = q.get('order') ?? 'desc';
    if (order !== 'asc' && order !== 'desc')
      return {
        status: 400,
        body: apiError(`Invalid value: '${order}'. Supported values are: 'asc' and 'desc'.`, 'invalid_value', 'order'),
      };
    const limit = q.get('limit') === null ? 20 : Number(q.get('limit'));
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return {
        status: 400,
        body: apiError('Invalid limit: must be an integer between 1 and 100.', 'invalid_value', 'limit'),
      };
    // Insertion order is creation order; ties in created_at keep it.
    let all = [...videos.values()].filter((v) => !v.deleted);
    if (order === 'desc') all = all.reverse();
    const after = q.get('after');
    if (after) {
      const at = all.findIndex((v) => v.id === after);
      if (at < 0) return notFound(after);
      all = all.slice(at + 1);
    }
    const page = all.slice(0, limit).map(view);
    return {
      status: 200,
      body: {
        object: 'list',
        data: page,
        first_id: page[0]?.id ?? null,
        last_id: page.at(-1)?.id ?? null,
        has_more: all.length > limit,
      },
    };
  }

  function sendContent(req: IncomingMessage, res: ServerResponse, v: FakeSoraVideo, variant: string) {
    const file = variantFile(v.id, variant);
    sendRanged(req, res, file.bytes, file.type);
  }

  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
    raw: Buffer,
  ): Promise<{ status: number; body: unknown } | null> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const parsed = req.method === 'POST' ? await parseFields(req, raw) : { fields: {}, files: {} };
    requests.push({
      method: req.method ?? '',
      path: url.pathname + url.search,
      headers: req.headers,
      fields: parsed === 'bad' ? {} : parsed.fields,
    });

    if (opts.azure) {
      const key = req.headers['api-key'];
      if (typeof key !== 'string' || key === '' || (opts.key !== undefined && key !== opts.key))
        return {
          status: 401,
          body: {
            error: {
              code: '401',
              message:
                'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
            },
          },
        };
    }
    const auth = String(req.headers.authorization ?? '');
    const key = opts.azure ? 'azure' : /^Bearer (\S+)$/.exec(auth)?.[1];
    if (!key)
      return {
        status: 401,
        body: apiError(
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
          null,
        ),
      };
    if (!opts.azure && opts.key !== undefined && key !== opts.key)
      return {
        status: 401,
        body: apiError(
          `Incorrect API key provided: ${key.slice(0, 3)}***${key.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          'invalid_api_key',
        ),
      };
    if (parsed === 'bad')
      return {
        status: 400,
        body: apiError('We could not parse the body of your request. Send JSON or multipart/form-data.', null),
      };
    const { fields, files } = parsed;
    if (opts.azure && !url.pathname.startsWith('/openai/v1/')) return null;
    const p = opts.azure ? url.pathname.slice('/openai'.length) : url.pathname;

    if (p === '/v1/models' && req.method === 'GET')
      return {
        status: 200,
        body: {
          object: 'list',
          data: Object.keys(SIZES).map((id) => ({ id, object: 'model', created: 1759708800, owned_by: 'system' })),
        },
      };
    if (p === '/v1/videos' && req.method === 'POST') return create(fields, files);
    if (p === '/v1/videos' && req.method === 'GET') return list(url.searchParams);

    const m = /^\/v1\/videos\/([^/]+)(\/remix|\/content)?$/.exec(p);
    if (!m) return null;
    const id = decodeURIComponent(m[1]);
    const v = videos.get(id);
    if (!v || v.deleted) return notFound(id);
    const s = state(v);

    if (!m[2] && req.method === 'GET') return { status: 200, body: view(v) };
    if (!m[2] && req.method === 'DELETE') {
      if (s.status !== 'completed' && s.status !== 'failed')
        return {
          status: 400,
          body: apiError(
            `Video '${id}' is ${s.status}; only completed or failed videos can be deleted.`,
            'invalid_video_state',
          ),
        };
      v.deleted = true;
      return { status: 200, body: { id, object: 'video.deleted', deleted: true } };
    }
    if (m[2] === '/remix' && req.method === 'POST') {
      const prompt = fields.prompt;
      if (typeof prompt !== 'string' || prompt.trim() === '')
        return {
          status: 400,
          body: apiError("Missing required parameter: 'prompt'.", 'missing_required_parameter', 'prompt'),
        };
      if (s.status !== 'completed')
        return {
          status: 400,
          body: apiError(`Video '${id}' is ${s.status}; only completed videos can be remixed.`, 'invalid_video_state'),
        };
      const blocked = moderated(prompt);
      if (blocked) return { status: 400, body: blocked };
      const r: FakeSoraVideo = {
        ...v,
        id: newId(),
        prompt,
        createdAt: clock.now(),
        remixedFrom: v.id,
        inputReference: null,
        failAt: prompt.includes('FAIL') ? 30 : null,
        failure: null,
      };
      videos.set(r.id, r);
      return { status: 200, body: view(r) };
    }
    if (m[2] === '/content' && (req.method === 'GET' || req.method === 'HEAD')) {
      const variant = url.searchParams.get('variant') ?? 'video';
      if (!['video', 'thumbnail', 'spritesheet'].includes(variant))
        return {
          status: 400,
          body: apiError(
            `Invalid value: '${variant}'. Supported values are: 'video', 'thumbnail', and 'spritesheet'.`,
            'invalid_value',
            'variant',
          ),
        };
      if (s.status !== 'completed')
        return {
          status: 400,
          body: apiError(
            `Video '${id}' is ${s.status}; its content is available once it has completed.`,
            'video_not_ready',
          ),
        };
      sendContent(req, res, v, variant);
      return { status: 0, body: null };
    }
    return null;
  }

  const srv = await listenBuffered(
    opts,
    async (req, res, raw) => {
      const out = await handle(req, res, raw);
      if (out?.status === 0) return;
      const answer = out ?? { status: 404, body: apiError(`Invalid URL (${req.method} ${req.url})`, null) };
      sendJson(res, answer.status, answer.body);
    },
    (err) => apiError(String(err), null, null, 'server_error'),
  );
  return {
    url: srv.url,
    requests,
    videos,
    advance: clock.advance,
    fail(id, error = { code: 'video_generation_failed', message: 'Video generation failed.' }) {
      const v = videos.get(id);
      if (v) v.failure = error;
    },
    contentOf: (id, variant = 'video') => variantFile(id, variant).bytes,
    close: srv.close,
  };
}
