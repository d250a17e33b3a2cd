import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { createClock, sendJson as send } from '../task-clock.ts';
import { serveSignedFile, signedFileUrl, volcPhase } from './volc-media.ts';
import { jsonObjectOf, listenBuffered } from './shared.ts';
import { checkVolcV4 } from './volc-signature.ts';

/*
 * A fake Jimeng video API (visual.volcengineapi.com, Volcengine's "CV" service), strict as the real one:
 * - POST /?Action=CVSync2AsyncSubmitTask|CVSync2AsyncGetResult&Version=2022-08-31 only, JSON bodies,
 *   every request signed with Volcengine V4 (region cn-north-1, service cv; volc-signature.ts): a wrong
 *   secret, key, date or body hash is refused with {ResponseMetadata:{..., Error:{CodeN, Code, Message}}};
 *   an unknown Action/Version is InvalidActionOrVersion (404), a missing one MissingParameter (400).
 * - Submit: req_key one of the video req_keys below; text-to-video keys take a prompt (<= 800 chars)
 *   and no image, image-to-video keys exactly one image (image_urls or binary_data_base64, never both),
 *   first-tail keys two; frames 121 (5 s) or 241 (10 s); aspect_ratio one of Jimeng's; seed an integer.
 *   Business errors answer {code, message, request_id, status, time_elapsed, data:null} with Jimeng's
 *   codes and HTTP statuses (50400 parameter error 400, 50412 text risk 400, 50429 QPS limit 429).
 * - GetResult: {req_key, task_id}; the req_key must be the one submitted; data.status in_queue ->
 *   generating -> done (video_url, a pre-signed file URL valid 1 h) | not_found | expired.
 * Steering: a prompt containing "risk" is refused at submit (50412); containing "fail" the job ends
 * with code 50511 (output video risk, HTTP 400); `failTask(id)` fails any job; `expire(id)` expires it.
 */

export const JIMENG_REQ_KEYS = {
  jimeng_vgfm_t2v_l20: { images: 0 },
  jimeng_vgfm_i2v_l20: { images: 1 },
  jimeng_t2v_v30: { images: 0 },
  jimeng_t2v_v30_1080p: { images: 0 },
  jimeng_i2v_first_v30: { images: 1 },
  jimeng_i2v_first_v30_1080: { images: 1 },
  jimeng_i2v_first_tail_v30: { images: 2 },
  jimeng_i2v_first_tail_v30_1080: { images: 2 },
  // 3.0 Pro takes a prompt with or without one first frame.
  jimeng_ti2v_v30_pro: { images: -1 },
} as const satisfies Record<string, { images: number }>;

export const JIMENG_ASPECT_RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9'];

export interface FakeJimengTask {
  id: string;
  reqKey: string;
  prompt: string;
  frames: number;
  aspectRatio: string;
  seed: number;
  images: { urls: string[]; base64: string[] };
  createdAt: number;
  fail: { code: number; message: string } | null;
  expired: boolean;
}

export interface FakeJimengRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FakeJimeng {
  url: string;
  requests: FakeJimengRequest[];
  tasks: Map<string, FakeJimengTask>;
  downloads: { count: number; ranges: string[] };
  advance(ms: number): void;
  failTask(id: string, code?: number, message?: string): void;
  expire(id: string): void;
  /** The next submit is refused with Jimeng's QPS limit (50429, HTTP 429). */
  throttleNext(): void;
  close(): Promise<void>;
}

export async function startFakeJimeng(opts: { stepMs?: number; port?: number } = {}): Promise<FakeJimeng> {
  const stepMs = opts.stepMs ?? 1000;
  const clock = createClock();
  const tasks = new Map<string, FakeJimengTask>();
  const requests: FakeJimengRequest[] = [];
  const downloads = { count: 0, ranges: [] as string[] };
  let throttle = false;
  let base = '';

  const requestId = () =>
    `${new Date(clock.now()).toISOString().replace(/\D/g, '').slice(0, 14)}${randomBytes(9).toString('hex').toUpperCase()}`;

  const metaError = (
    res: ServerResponse,
    action: string,
    version: string,
    e: { status: number; code: string; codeN: number; message: string },
  ) =>
    send(res, e.status, {
      ResponseMetadata: {
        RequestId: requestId(),
        Action: action,
        Version: version,
        Service: 'cv',
        Region: 'cn-north-1',
        Error: { CodeN: e.codeN, Code: e.code, Message: e.message },
      },
    });
  const answer = (res: ServerResponse, status: number, code: number, message: string, data: unknown) =>
    send(res, status, { code, data, message, request_id: requestId(), status: code, time_elapsed: '12.3ms' });
  const paramError = (res: ServerResponse, message: string) => answer(res, 400, 50400, message, null);

  function submit(res: ServerResponse, body: Record<string, unknown>) {
    if (throttle) {
      throttle = false;
      return answer(res, 429, 50429, 'Request Has Reached API Limit, Please Try Later', null);
    }
    const reqKey = body.req_key;
    if (typeof reqKey !== 'string' || !Object.hasOwn(JIMENG_REQ_KEYS, reqKey))
      return paramError(res, `Invalid Parameter: req_key ${JSON.stringify(reqKey)} is not a video req_key`);
    const wantImages = JIMENG_REQ_KEYS[reqKey as keyof typeof JIMENG_REQ_KEYS].images;
    const prompt = body.prompt === undefined ? '' : body.prompt;
    if (typeof prompt !== 'string') return paramError(res, 'Invalid Parameter: prompt must be a string');
    if (prompt.length > 800) return paramError(res, 'Invalid Parameter: prompt is longer than 800 characters');
    const urls = body.image_urls;
    const b64 = body.binary_data_base64;
    if (urls !== undefined && b64 !== undefined)
      return paramError(res, 'Invalid Parameter: pass image_urls or binary_data_base64, not both');
    const list = (v: unknown) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null);
    const imageUrls = urls === undefined ? [] : list(urls);
    const base64 = b64 === undefined ? [] : list(b64);
    if (!imageUrls || !base64) return paramError(res, 'Invalid Parameter: images must be an array of strings');
    if (imageUrls.some((u) => !/^https?:\/\//.test(u)))
      return paramError(res, 'Invalid Parameter: image_urls must be http(s) URLs');
    if (base64.some((s) => !/^[A-Za-z0-9+/]+={0,2}$/.test(s)))
      return paramError(res, 'Invalid Parameter: binary_data_base64 must be plain base64 (no data: prefix)');
    const count = imageUrls.length + base64.length;
    if (wantImages === 0 && count > 0)
      return paramError(res, `Invalid Parameter: ${reqKey} is text-to-video and takes no image`);
    if (wantImages > 0 && count !== wantImages)
      return paramError(res, `Invalid Parameter: ${reqKey} takes exactly ${wantImages} image(s), got ${count}`);
    if (wantImages === -1 && count > 1) return paramError(res, `Invalid Parameter: ${reqKey} takes at most one image`);
    if (count === 0 && !prompt.trim()) return paramError(res, 'Invalid Parameter: prompt is required');
    const frames = body.frames ?? 121;
    if (frames !== 121 && frames !== 241)
      return paramError(res, 'Invalid Parameter: frames must be 121 (5 s) or 241 (10 s)');
    const aspectRatio = body.aspect_ratio ?? '16:9';
    if (typeof aspectRatio !== 'string' || !JIMENG_ASPECT_RATIOS.includes(aspectRatio))
      return paramError(res, `Invalid Parameter: aspect_ratio must be one of ${JIMENG_ASPECT_RATIOS.join(', ')}`);
    const seed = body.seed ?? -1;
    if (!Number.isInteger(seed)) return paramError(res, 'Invalid Parameter: seed must be an integer');
    if (prompt.includes('risk')) return answer(res, 400, 50412, 'Text Risk Not Pass', null);
    const id = String(7_392_616_336_519_610_000n + BigInt(tasks.size + 1) * 7919n);
    tasks.set(id, {
      id,
      reqKey,
      prompt,
      frames: frames as number,
      aspectRatio,
      seed: seed as number,
      images: { urls: imageUrls, base64 },
      createdAt: clock.now(),
      fail: prompt.includes('fail') ? { code: 50511, message: 'Post Video Risk Not Pass' } : null,
      expired: false,
    });
    return answer(res, 200, 10000, 'Success', { task_id: id });
  }

  function getResult(res: ServerResponse, body: Record<string, unknown>) {
    if (typeof body.req_key !== 'string' || !body.req_key)
      return paramError(res, 'Invalid Parameter: req_key is required');
    if (typeof body.task_id !== 'string' || !body.task_id)
      return paramError(res, 'Invalid Parameter: task_id is required');
    const t = tasks.get(body.task_id);
    const empty = { binary_data_base64: null, image_urls: null, resp_data: '', video_url: '' };
    // A task is looked up under the req_key it was submitted with; under another it does not exist.
    if (!t || t.reqKey !== body.req_key) return answer(res, 200, 10000, 'Success', { ...empty, status: 'not_found' });
    if (t.expired) return answer(res, 200, 10000, 'Success', { ...empty, status: 'expired' });
    const phase = volcPhase(clock.now() - t.createdAt, stepMs);
    if (phase !== 'done')
      return answer(res, 200, 10000, 'Success', { ...empty, status: phase === 'queued' ? 'in_queue' : 'generating' });
    if (t.fail) return answer(res, 400, t.fail.code, t.fail.message, null);
    return answer(res, 200, 10000, 'Success', {
      ...empty,
      status: 'done',
      resp_data: JSON.stringify({ frames: t.frames, aspect_ratio: t.aspectRatio, seed: t.seed }),
      video_url: signedFileUrl(base, t.id, clock.now(), 3600),
    });
  }

  const srv = await listenBuffered(opts, (req, res, raw) => {
    const known = (id: string) => tasks.has(id) && !tasks.get(id)!.expired;
    if (serveSignedFile(req, res, clock.now(), known, downloads)) return;
    const u = new URL(req.url ?? '/', 'http://x');
    const action = u.searchParams.get('Action') ?? '';
    const version = u.searchParams.get('Version') ?? '';
    const { body, parsed } = jsonObjectOf(raw);
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    if (!action || !version)
      return metaError(res, action, version, {
        status: 400,
        code: 'MissingParameter',
        codeN: 100002,
        message: `The request is missing ${action ? 'Version' : 'Action'} parameter.`,
      });
    const known2 = ['CVSync2AsyncSubmitTask', 'CVSync2AsyncGetResult'].includes(action);
    if (u.pathname !== '/' || !known2 || version !== '2022-08-31')
      return metaError(res, action, version, {
        status: 404,
        code: 'InvalidActionOrVersion',
        codeN: 100008,
        message: `Could not find operation ${action} for version ${version}.`,
      });
    const authFailure = checkVolcV4(req.method ?? '', req.url ?? '/', req.headers, raw, {
      region: 'cn-north-1',
      service: 'cv',
    });
    if (authFailure) return metaError(res, action, version, authFailure);
    if (req.method !== 'POST' || !String(req.headers['content-type'] ?? '').startsWith('application/json'))
      return paramError(res, 'Invalid Parameter: POST a JSON body');
    if (!parsed || typeof body !== 'object' || body === null || Array.isArray(body))
      return paramError(res, 'Invalid Parameter: the body is not a JSON object');
    return action === 'CVSync2AsyncSubmitTask' ? submit(res, body) : getResult(res, body);
  });
  base = srv.url;
  return {
    url: base,
    requests,
    tasks,
    downloads,
    advance: clock.advance,
    failTask(id, code = 50500, message = 'Internal Error') {
      const t = tasks.get(id);
      if (t) t.fail = { code, message };
    },
    expire(id) {
      const t = tasks.get(id);
      if (t) t.expired = true;
    },
    throttleNext() {
      throttle = true;
    },
    close: srv.close,
  };
}
