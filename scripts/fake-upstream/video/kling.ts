import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify } from 'jose';
import { createClock, type FakeTaskOptions, sendJson as send } from '../task-clock.ts';
import { labelledMp4, listenBuffered, sendRanged } from './shared.ts';

/*
 * A strict fake of Kling's video API (api-beijing.klingai.com, channel type 50), for tests and manual
 * runs: `POST /v1/videos/text2video` and `/v1/videos/image2video`, `GET /v1/videos/{kind}/{task_id}`.
 *
 * What it enforces, as Kling documents it:
 * - `Authorization: Bearer <JWT>`, HS256 signed with the secret key, `iss` = the access key, `exp` and
 *   `nbf` present; else HTTP 401 with 1001 (no header), 1002 (not a JWT / claims missing), 1003 (nbf in
 *   the future), 1004 (expired), 1000 (bad signature or another access key).
 * - Only the fields each endpoint documents (an unknown one is 1201, HTTP 400); model_name among Kling's
 *   models; mode std|pro; aspect_ratio 16:9|9:16|1:1 (text2video only: image2video takes the image's);
 *   duration the string "5" or "10"; cfg_scale in [0, 1]; prompt required for text2video, <= 2500
 *   characters; image2video needs `image` or `image_tail`, each an http(s) URL or raw base64 (a
 *   `data:` prefix is refused, as Kling does).
 * - A task of another kind or an unknown id is 1203 (HTTP 404).
 * Tasks run submitted -> processing -> succeed on a virtual clock (`advance`): submitted for one step,
 * processing for eight, then the video. A prompt containing "fail", or `fail(id, why)`, makes it end
 * `failed` with `task_status_msg`. The finished video is a small real MP4 at `/files/<task>.mp4`, served
 * without auth (Kling's CDN links are public) and with Range.
 * Not reproduced: account codes 1100-1103, rate limits 1302/1303, callbacks (never called), the task list.
 */

export const FAKE_KLING_AK = 'kling-fake-access-key';
export const FAKE_KLING_SK = 'kling-fake-secret-key';

export const KLING_MODELS = new Set([
  'kling-v1',
  'kling-v1-5',
  'kling-v1-6',
  'kling-v2-master',
  'kling-v2-1',
  'kling-v2-1-master',
  'kling-v2-5-turbo',
  'kling-v2-6',
]);

const COMMON = ['model_name', 'prompt', 'negative_prompt', 'cfg_scale', 'mode', 'duration', 'camera_control'];
const FIELDS = {
  text2video: new Set([...COMMON, 'aspect_ratio', 'callback_url', 'external_task_id']),
  image2video: new Set([
    ...COMMON,
    'image',
    'image_tail',
    'static_mask',
    'dynamic_masks',
    'callback_url',
    'external_task_id',
  ]),
};

export type KlingKind = keyof typeof FIELDS;

export interface FakeKlingTask {
  id: string;
  kind: KlingKind;
  body: Record<string, unknown>;
  createdAt: number;
  /** Set to fail the task (at its next poll after submission). */
  failReason: string | null;
}

export interface FakeKlingRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface FakeKling {
  url: string;
  accessKey: string;
  secretKey: string;
  requests: FakeKlingRequest[];
  tasks: Map<string, FakeKlingTask>;
  /** Moves the virtual clock (e.g. past a whole job: `advance(10 * stepMs)`). */
  advance(ms: number): void;
  /** Makes a task end failed with this message. */
  fail(taskId: string, why: string): void;
  /** Bytes of the finished video. */
  mp4: Buffer;
  close(): Promise<void>;
}

/** Kling's refusal of the Authorization header, as [code, message]; undefined when valid. */
async function authRefusal(header: string | undefined, ak: string, sk: string): Promise<[number, string] | undefined> {
  if (!header) return [1001, 'Authorization is empty'];
  const m = /^Bearer (\S+)$/.exec(header);
  if (!m) return [1002, 'Authorization is invalid'];
  try {
    const { payload } = await jwtVerify(m[1], new TextEncoder().encode(sk), {
      algorithms: ['HS256'],
      requiredClaims: ['iss', 'exp', 'nbf'],
    });
    if (payload.iss !== ak) return [1000, 'Authentication failed'];
    return undefined;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) return [1004, 'Authorization has expired'];
    if (err instanceof joseErrors.JWTClaimValidationFailed && err.claim === 'nbf' && err.reason !== 'missing')
      return [1003, 'Authorization is not yet valid'];
    if (err instanceof joseErrors.JWSSignatureVerificationFailed) return [1000, 'Authentication failed'];
    return [1002, 'Authorization is invalid'];
  }
}

const isImage = (v: unknown) =>
  typeof v === 'string' && (/^https?:\/\/\S+$/.test(v) || (/^[A-Za-z0-9+/]+={0,2}$/.test(v) && v.length % 4 === 0));

/** Kling's 1201 message for the first thing wrong with a submit body; undefined when it is acceptable. */
function bodyRefusal(kind: KlingKind, b: Record<string, unknown>): string | undefined {
  for (const k of Object.keys(b)) if (!FIELDS[kind].has(k)) return `Invalid parameter: unknown field ${k}`;
  if (b.model_name !== undefined && !KLING_MODELS.has(String(b.model_name)))
    return `model_name value '${String(b.model_name)}' is invalid`;
  if (kind === 'text2video' && (typeof b.prompt !== 'string' || b.prompt.trim() === '')) return 'prompt is required';
  if (b.prompt !== undefined && (typeof b.prompt !== 'string' || b.prompt.length > 2500))
    return 'prompt must be a string of at most 2500 characters';
  if (b.negative_prompt !== undefined && (typeof b.negative_prompt !== 'string' || b.negative_prompt.length > 2500))
    return 'negative_prompt must be a string of at most 2500 characters';
  if (b.mode !== undefined && b.mode !== 'std' && b.mode !== 'pro') return 'mode must be std or pro';
  if (b.aspect_ratio !== undefined && !['16:9', '9:16', '1:1'].includes(b.aspect_ratio as string))
    return 'aspect_ratio must be one of 16:9, 9:16, 1:1';
  if (b.duration !== undefined && b.duration !== '5' && b.duration !== '10') return 'duration must be "5" or "10"';
  if (b.cfg_scale !== undefined && !(typeof b.cfg_scale === 'number' && b.cfg_scale >= 0 && b.cfg_scale <= 1))
    return 'cfg_scale must be a number in [0, 1]';
  if (b.callback_url !== undefined && typeof b.callback_url !== 'string') return 'callback_url must be a string';
  if (kind === 'image2video') {
    if (b.image === undefined && b.image_tail === undefined) return 'image and image_tail cannot both be empty';
    for (const f of ['image', 'image_tail'] as const)
      if (b[f] !== undefined && !isImage(b[f])) return `${f} must be an image URL or Base64 without a data: prefix`;
  }
  return undefined;
}

export async function startFakeKling(opts: FakeTaskOptions = {}): Promise<FakeKling> {
  const stepMs = opts.stepMs ?? 1000;
  const clock = createClock();
  const tasks = new Map<string, FakeKlingTask>();
  const requests: FakeKlingRequest[] = [];
  const mp4 = labelledMp4('switchyard fake kling video');
  let base = '';

  function view(t: FakeKlingTask) {
    const step = Math.floor((clock.now() - t.createdAt) / stepMs);
    const status = step < 1 ? 'submitted' : t.failReason !== null ? 'failed' : step < 9 ? 'processing' : 'succeed';
    const data: Record<string, unknown> = {
      task_id: t.id,
      task_status: status,
      task_status_msg: status === 'failed' ? t.failReason : '',
      created_at: t.createdAt,
      updated_at: status === 'submitted' ? t.createdAt : Math.min(clock.now(), t.createdAt + 9 * stepMs),
    };
    if (status === 'succeed')
      data.task_result = {
        videos: [{ id: `${t.id}-v0`, url: `${base}/files/${t.id}.mp4`, duration: String(t.body.duration ?? '5') }],
      };
    return data;
  }

  function serveFile(req: IncomingMessage, res: ServerResponse, id: string) {
    if (!tasks.has(id)) return send(res, 404, { code: 1203, message: 'file not found' });
    sendRanged(req, res, mp4);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, raw: Buffer) {
    const path = (req.url ?? '').split('?')[0];
    let body: Record<string, unknown> = {};
    let badJson = false;
    if (raw.length) {
      try {
        const v: unknown = JSON.parse(raw.toString('utf8'));
        if (v && typeof v === 'object' && !Array.isArray(v)) body = v as Record<string, unknown>;
        else badJson = true;
      } catch {
        badJson = true;
      }
    }
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    const file = /^\/files\/([^/]+)\.mp4$/.exec(path);
    if (file && req.method === 'GET') return serveFile(req, res, file[1]);

    const requestId = randomUUID();
    const err = (status: number, code: number, message: string) =>
      send(res, status, { code, message, request_id: requestId });
    const refused = await authRefusal(req.headers.authorization, FAKE_KLING_AK, FAKE_KLING_SK);
    if (refused) return err(401, ...refused);

    const submit = /^\/v1\/videos\/(text2video|image2video)$/.exec(path);
    if (submit && req.method === 'POST') {
      if (badJson) return err(400, 1200, 'Invalid request parameters: body is not a JSON object');
      const kind = submit[1] as KlingKind;
      const why = bodyRefusal(kind, body);
      if (why) return err(400, 1201, why);
      const id = String(800_000_000_000_000_000n + BigInt(tasks.size + 1));
      const t: FakeKlingTask = {
        id,
        kind,
        body,
        createdAt: clock.now(),
        failReason: String(body.prompt ?? '').includes('fail') ? 'fake failure: the prompt asked to fail' : null,
      };
      tasks.set(id, t);
      return send(res, 200, { code: 0, message: 'SUCCEED', request_id: requestId, data: view(t) });
    }
    const one = /^\/v1\/videos\/(text2video|image2video)\/([^/]+)$/.exec(path);
    if (one && req.method === 'GET') {
      const t = tasks.get(one[2]);
      if (!t || t.kind !== one[1]) return err(404, 1203, 'Requested resource does not exist: task');
      return send(res, 200, { code: 0, message: 'SUCCEED', request_id: requestId, data: view(t) });
    }
    return err(404, 1203, 'Requested resource does not exist');
  }

  const srv = await listenBuffered(opts, handle, (e) => ({ code: 5000, message: String(e) }));
  base = srv.url;
  return {
    url: base,
    accessKey: FAKE_KLING_AK,
    secretKey: FAKE_KLING_SK,
    requests,
    tasks,
    advance: clock.advance,
    fail(taskId, why) {
      const t = tasks.get(taskId);
      if (t) t.failReason = why;
    },
    mp4,
    close: srv.close,
  };
}
