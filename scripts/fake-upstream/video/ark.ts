import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { createClock, sendJson as send } from '../task-clock.ts';
import { serveSignedFile, signedFileUrl, volcPhase } from './volc-media.ts';
import { jsonObjectOf, listenBuffered } from './shared.ts';

/*
 * A fake Volcengine Ark content-generation task API (Seedance / Doubao video), strict as the real one:
 * - Bearer API key (only FAKE_ARK_KEY passes: 401 AuthenticationError otherwise).
 * - POST /api/v3/contents/generations/tasks {model, content:[{type:"text", text:"prompt --rs 720p --ratio
 *   16:9 --dur 5 ..."}, {type:"image_url", image_url:{url}, role?}], ...}: the model must be one of
 *   ARK_VIDEO_MODELS (404 InvalidEndpointOrModel.NotFound), exactly one text item, images by http(s) or
 *   data:image/...;base64 URL, roles first_frame / last_frame (a last frame needs a first), what each model
 *   takes (lite-t2v no image, lite-i2v needs one, last frames only where the model has them); the text's
 *   commands (--rs/--resolution, --ratio/--rt, --dur/--duration, --fps, --seed, --wm, --cf) must be known
 *   and in range; errors {error:{code, message, param, type}} with Ark's codes and statuses.
 * - GET /api/v3/contents/generations/tasks/{id}: {id, model, status queued|running|succeeded|failed|
 *   cancelled, content:{video_url}, usage:{completion_tokens, total_tokens}, error, seed, resolution, ratio,
 *   duration, framespersecond, created_at, updated_at}; DELETE cancels a queued task or deletes a finished one.
 * Steering: a prompt containing "sensitive" is refused at submit (InputTextSensitiveContentDetected);
 * containing "fail" the task fails (OutputVideoSensitiveContentDetected); `failTask(id)` fails any task.
 */

export const FAKE_ARK_KEY = 'ark-fake-switchyard-0001';

export interface ArkModelSpec {
  t2v: boolean;
  firstFrame: boolean;
  lastFrame: boolean;
  resolutions: readonly string[];
  durations: readonly number[];
  defaultResolution: string;
}

export const ARK_VIDEO_MODELS: Record<string, ArkModelSpec> = {
  'doubao-seedance-1-0-pro-250528': {
    t2v: true,
    firstFrame: true,
    lastFrame: true,
    resolutions: ['480p', '720p', '1080p'],
    durations: [5, 10],
    defaultResolution: '1080p',
  },
  'doubao-seedance-1-0-lite-t2v-250428': {
    t2v: true,
    firstFrame: false,
    lastFrame: false,
    resolutions: ['480p', '720p', '1080p'],
    durations: [5, 10],
    defaultResolution: '720p',
  },
  'doubao-seedance-1-0-lite-i2v-250428': {
    t2v: false,
    firstFrame: true,
    lastFrame: true,
    resolutions: ['480p', '720p', '1080p'],
    durations: [5, 10],
    defaultResolution: '720p',
  },
};

const RATIOS = ['21:9', '16:9', '4:3', '1:1', '3:4', '9:16', '9:21', 'keep_ratio', 'adaptive'];
const PIXELS: Record<string, number> = { '480p': 864 * 480, '720p': 1248 * 704, '1080p': 1920 * 1088 };

export interface FakeArkTask {
  id: string;
  model: string;
  prompt: string;
  resolution: string;
  ratio: string;
  duration: number;
  seed: number;
  images: { url: string; role: string }[];
  createdAt: number;
  cancelled: boolean;
  fail: { code: string; message: string } | null;
}

export interface FakeArk {
  url: string;
  requests: { method: string; path: string; headers: IncomingHttpHeaders; body: Record<string, unknown> }[];
  tasks: Map<string, FakeArkTask>;
  downloads: { count: number; ranges: string[] };
  advance(ms: number): void;
  failTask(id: string, code?: string, message?: string): void;
  close(): Promise<void>;
}

export async function startFakeArk(opts: { stepMs?: number; port?: number } = {}): Promise<FakeArk> {
  const stepMs = opts.stepMs ?? 1000;
  const clock = createClock();
  const tasks = new Map<string, FakeArkTask>();
  const requests: FakeArk['requests'] = [];
  const downloads = { count: 0, ranges: [] as string[] };
  let base = '';
  let seq = 0;

  const err = (res: ServerResponse, status: number, code: string, type: string, message: string, param = '') =>
    send(res, status, {
      error: { code, message: `${message} Request id: 0217${Date.now()}fake`, param, type },
    });
  const invalid = (res: ServerResponse, param: string, why: string) =>
    err(
      res,
      400,
      'InvalidParameter',
      'BadRequest',
      `The parameter \`${param}\` specified in the request is not valid: ${why}.`,
      param,
    );

  /** Reads `--name value` commands off the end of a prompt; null + reason when one is unknown or bad. */
  function commands(text: string): { prompt: string; cmd: Record<string, string> } | { bad: string } {
    const cmd: Record<string, string> = {};
    const alias: Record<string, string> = {
      rs: 'resolution',
      resolution: 'resolution',
      rt: 'ratio',
      ratio: 'ratio',
      dur: 'duration',
      duration: 'duration',
      fps: 'framepersecond',
      framepersecond: 'framepersecond',
      seed: 'seed',
      wm: 'watermark',
      watermark: 'watermark',
      cf: 'camerafixed',
      camerafixed: 'camerafixed',
    };
    const re = /\s*--([a-z]+)\s+(\S+)/g;
    const first = text.search(/(^|\s)--[a-z]+\s/);
    const prompt = first < 0 ? text : text.slice(0, first).trim();
    if (first >= 0) {
      const tail = text.slice(first);
      let m: RegExpExecArray | null;
      let consumed = 0;
      while ((m = re.exec(tail))) {
        const name = alias[m[1]];
        if (!name) return { bad: `unknown command --${m[1]}` };
        cmd[name] = m[2];
        consumed = re.lastIndex;
      }
      if (tail.slice(consumed).trim()) return { bad: 'text after the commands' };
    }
    return { prompt, cmd };
  }

  function create(res: ServerResponse, body: Record<string, unknown>) {
    const model = body.model;
    if (typeof model !== 'string' || !model) return invalid(res, 'model', 'model is required');
    const spec = ARK_VIDEO_MODELS[model];
    if (!spec)
      return err(
        res,
        404,
        'InvalidEndpointOrModel.NotFound',
        'NotFound',
        `The model or endpoint ${model} does not exist or you do not have access to it.`,
      );
    if (!Array.isArray(body.content) || body.content.length === 0)
      return invalid(res, 'content', 'content must be a non-empty array');
    const content = body.content as Record<string, unknown>[];
    const texts = content.filter((c) => c?.type === 'text');
    const images = content.filter((c) => c?.type === 'image_url');
    if (texts.length + images.length !== content.length)
      return invalid(res, 'content.type', 'type must be text or image_url');
    if (texts.length > 1) return invalid(res, 'content', 'at most one text item');
    const text = texts[0]?.text ?? '';
    if (typeof text !== 'string') return invalid(res, 'content.text', 'text must be a string');
    const parsed = commands(text);
    if ('bad' in parsed) return invalid(res, 'content.text', parsed.bad);
    const imgs: { url: string; role: string }[] = [];
    for (const c of images) {
      const url = (c.image_url as { url?: unknown } | undefined)?.url;
      if (typeof url !== 'string' || !/^(https?:\/\/|data:image\/(png|jpeg|webp|bmp|gif|tiff);base64,)/.test(url))
        return invalid(res, 'content.image_url.url', 'an http(s) URL or a data:image/<format>;base64 URL');
      const role = c.role ?? (images.length === 1 ? 'first_frame' : undefined);
      if (role !== 'first_frame' && role !== 'last_frame')
        return invalid(res, 'content.role', 'role must be first_frame or last_frame with two images');
      imgs.push({ url, role });
    }
    const first = imgs.filter((i) => i.role === 'first_frame').length;
    const last = imgs.filter((i) => i.role === 'last_frame').length;
    if (first > 1 || last > 1) return invalid(res, 'content.role', 'one image per role');
    if (last && !first) return invalid(res, 'content.role', 'a last_frame needs a first_frame');
    if (first && !spec.firstFrame) return invalid(res, 'content', `${model} does not take images`);
    if (last && !spec.lastFrame) return invalid(res, 'content.role', `${model} does not take a last frame`);
    if (!first && !spec.t2v) return invalid(res, 'content', `${model} needs a first frame image`);
    if (!first && !parsed.prompt) return invalid(res, 'content.text', 'a prompt is required');
    const cmd = parsed.cmd;
    const top = (k: string) => (body[k] === undefined ? undefined : String(body[k]));
    const resolution = cmd.resolution ?? top('resolution') ?? spec.defaultResolution;
    if (!spec.resolutions.includes(resolution))
      return invalid(res, 'resolution', `${model} makes ${spec.resolutions.join('/')}`);
    const ratio = cmd.ratio ?? top('ratio') ?? (first ? 'adaptive' : '16:9');
    if (!RATIOS.includes(ratio)) return invalid(res, 'ratio', `one of ${RATIOS.join(', ')}`);
    if (!first && (ratio === 'adaptive' || ratio === 'keep_ratio'))
      return invalid(res, 'ratio', `${ratio} needs an image`);
    const duration = Number(cmd.duration ?? top('duration') ?? 5);
    if (!spec.durations.includes(duration))
      return invalid(res, 'duration', `${model} makes ${spec.durations.join('/')} s`);
    if (cmd.framepersecond !== undefined && cmd.framepersecond !== '24')
      return invalid(res, 'framepersecond', 'only 24');
    const seed = Number(cmd.seed ?? top('seed') ?? -1);
    if (!Number.isInteger(seed) || seed < -1 || seed > 2 ** 32 - 1)
      return invalid(res, 'seed', 'an integer in [-1, 2^32-1]');
    for (const b of ['watermark', 'camerafixed'])
      if (cmd[b] !== undefined && cmd[b] !== 'true' && cmd[b] !== 'false') return invalid(res, b, 'true or false');
    if (parsed.prompt.includes('sensitive'))
      return err(
        res,
        400,
        'InputTextSensitiveContentDetected',
        'BadRequest',
        'The request failed because the input text may contain sensitive information.',
      );
    const id = `cgt-20261129${String(++seq).padStart(6, '0')}-fake`;
    tasks.set(id, {
      id,
      model,
      prompt: parsed.prompt,
      resolution,
      ratio: ratio === 'adaptive' || ratio === 'keep_ratio' ? '16:9' : ratio,
      duration,
      seed: seed === -1 ? 42 : seed,
      images: imgs,
      createdAt: clock.now(),
      cancelled: false,
      fail: parsed.prompt.includes('fail')
        ? {
            code: 'OutputVideoSensitiveContentDetected',
            message: 'The request failed because the output video may contain sensitive information.',
          }
        : null,
    });
    return send(res, 200, { id });
  }

  function view(t: FakeArkTask) {
    const phase = volcPhase(clock.now() - t.createdAt, stepMs);
    const status = t.cancelled ? 'cancelled' : phase !== 'done' ? phase : t.fail ? 'failed' : 'succeeded';
    const sec = (ms: number) => Math.floor(ms / 1000);
    const tokens = Math.round((PIXELS[t.resolution] * 24 * t.duration) / 1024);
    return {
      id: t.id,
      model: t.model,
      status,
      ...(status === 'succeeded' ? { content: { video_url: signedFileUrl(base, t.id, clock.now()) } } : {}),
      ...(status === 'failed' ? { error: t.fail } : {}),
      ...(status === 'succeeded' ? { usage: { completion_tokens: tokens, total_tokens: tokens } } : {}),
      seed: t.seed,
      resolution: t.resolution,
      ratio: t.ratio,
      duration: t.duration,
      framespersecond: 24,
      created_at: sec(t.createdAt),
      updated_at: sec(status === 'queued' ? t.createdAt : clock.now()),
    };
  }

  const srv = await listenBuffered(opts, (req, res, raw) => {
    if (serveSignedFile(req, res, clock.now(), (id) => tasks.has(id), downloads)) return;
    const { body, parsed } = jsonObjectOf(raw);
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    const auth = String(req.headers.authorization ?? '');
    if (auth !== `Bearer ${FAKE_ARK_KEY}`)
      return err(
        res,
        401,
        'AuthenticationError',
        'Unauthorized',
        'The API key or AK/SK in the request is missing or invalid.',
      );
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/api/v3/contents/generations/tasks' && req.method === 'POST') {
      if (!parsed || !body || typeof body !== 'object' || Array.isArray(body))
        return invalid(res, 'body', 'the body is not a JSON object');
      return create(res, body);
    }
    const one = /^\/api\/v3\/contents\/generations\/tasks\/([^/]+)$/.exec(path);
    const t = one ? tasks.get(decodeURIComponent(one[1])) : undefined;
    if (one && (req.method === 'GET' || req.method === 'DELETE')) {
      if (!t) return err(res, 404, 'ResourceNotFound', 'NotFound', `The specified task ${one[1]} is not found.`, 'id');
      if (req.method === 'GET') return send(res, 200, view(t));
      const status = view(t).status;
      if (status === 'running')
        return err(res, 409, 'OperationDenied.TaskRunning', 'Conflict', 'A running task cannot be cancelled.');
      if (status === 'queued') t.cancelled = true;
      else tasks.delete(t.id);
      return send(res, 200, {});
    }
    return err(res, 404, 'NotFound', 'NotFound', `${req.method} ${path} is not an Ark API.`);
  });
  base = srv.url;
  return {
    url: base,
    requests,
    tasks,
    downloads,
    advance: clock.advance,
    failTask(id, code = 'InternalServiceError', message = 'The service encountered an unexpected internal error.') {
      const t = tasks.get(id);
      if (t) t.fail = { code, message };
    },
    close: srv.close,
  };
}
