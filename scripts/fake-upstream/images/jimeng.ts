import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { checkVolcV4 } from '../video/volc-signature.ts';
import { fakePng, jsonObjectOf, labelOf, listenBuffered } from './shared.ts';

export { FAKE_VOLC_ACCESS_KEY, FAKE_VOLC_SECRET_KEY } from '../video/volc-signature.ts';

/*
 * A fake Jimeng image API (visual.volcengineapi.com, Volcengine's "cv" service, issue 44), strict as
 * the real one:
 * - `POST /?Action=CVSync2AsyncSubmitTask|CVSync2AsyncGetResult&Version=2022-08-31`, JSON, signed with
 *   Volcengine V4 (region cn-north-1, service cv: volc-signature.ts); a bad signature or key answers
 *   `{ResponseMetadata:{..., Error:{CodeN, Code, Message}}}` with its HTTP status.
 * - Submit, by req_key: jimeng_t2i_v40 (prompt, 0-10 image_urls or binary_data_base64, `size` an area in
 *   [1024², 4096²] or width+height whose product is in it and ratio within [1/16, 16], scale 0-1,
 *   force_single, min_ratio/max_ratio), jimeng_t2i_v31 / jimeng_t2i_v30 (prompt, no image, width and
 *   height each 512-2048, seed, use_pre_llm), jimeng_i2i_v30 (prompt and exactly one image, width and
 *   height 512-2048, seed, scale 0-1). Unknown fields, images both as URLs and base64, base64 with a
 *   `data:` prefix: 400 code 50400. Business answers are `{code, data, message, request_id, status,
 *   time_elapsed}` with Jimeng's codes and HTTP statuses.
 * - GetResult {req_key, task_id, req_json?}: req_json a JSON string of {return_url, logo_info, aigc_meta}
 *   only; the task walks in_queue -> generating -> done on the wall clock (`stepMs` each); under another
 *   req_key it is not_found; done answers binary_data_base64 (or image_urls when return_url) and
 *   a jimeng_t2i_v40 task without force_single may make several pictures ("N pictures" in the prompt).
 * Steering: "risk" in the prompt is refused at submit (400, 50412 Text Risk Not Pass); "fail" ends the
 * task with 400 50511 (Post Img Risk Not Pass); "crash" with 500 50500; `throttleNext()` answers 429
 * 50429 at the next submit; "slow" makes the task take 50 times as long.
 */

const IMAGE_REQ_KEYS = {
  jimeng_t2i_v40: {
    images: [0, 10],
    fields: ['size', 'width', 'height', 'scale', 'force_single', 'min_ratio', 'max_ratio'],
  },
  jimeng_t2i_v31: { images: [0, 0], fields: ['width', 'height', 'seed', 'use_pre_llm'] },
  jimeng_t2i_v30: { images: [0, 0], fields: ['width', 'height', 'seed', 'use_pre_llm'] },
  jimeng_i2i_v30: { images: [1, 1], fields: ['width', 'height', 'seed', 'scale'] },
} as const;

type ReqKey = keyof typeof IMAGE_REQ_KEYS;

export interface FakeJimengImageTask {
  id: string;
  reqKey: ReqKey;
  prompt: string;
  width: number;
  height: number;
  count: number;
  inputLabels: (string | undefined)[];
  createdAt: number;
  fail: { status: number; code: number; message: string } | null;
}

export interface FakeJimengImageRequest {
  action: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FakeJimengImages {
  url: string;
  requests: FakeJimengImageRequest[];
  tasks: Map<string, FakeJimengImageTask>;
  throttleNext(): void;
  close(): Promise<void>;
}

export async function startFakeJimengImages(opts: { stepMs?: number; port?: number } = {}): Promise<FakeJimengImages> {
  const stepMs = opts.stepMs ?? 150;
  const tasks = new Map<string, FakeJimengImageTask>();
  const requests: FakeJimengImageRequest[] = [];
  const files = new Map<string, Buffer>();
  let throttle = false;
  let seq = 0;
  let base = '';

  const requestId = () =>
    `${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}${randomBytes(9).toString('hex').toUpperCase()}`;
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const answer = (res: ServerResponse, status: number, code: number, message: string, data: unknown) =>
    send(res, status, { code, data, message, request_id: requestId(), status: code, time_elapsed: '15.2ms' });
  const paramError = (res: ServerResponse, why: string) => answer(res, 400, 50400, `Invalid Parameter: ${why}`, null);
  const metaError = (
    res: ServerResponse,
    action: string,
    e: { status: number; code: string; codeN: number; message: string },
  ) =>
    send(res, e.status, {
      ResponseMetadata: {
        RequestId: requestId(),
        Action: action,
        Version: '2022-08-31',
        Service: 'cv',
        Region: 'cn-north-1',
        Error: { CodeN: e.codeN, Code: e.code, Message: e.message },
      },
    });

  const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

  function submit(res: ServerResponse, body: Record<string, unknown>) {
    if (throttle) {
      throttle = false;
      return answer(res, 429, 50429, 'Request Has Reached API Limit, Please Try Later', null);
    }
    const reqKey = body.req_key;
    if (typeof reqKey !== 'string' || !Object.hasOwn(IMAGE_REQ_KEYS, reqKey))
      return paramError(res, `req_key ${JSON.stringify(reqKey)} is not an image req_key`);
    const spec = IMAGE_REQ_KEYS[reqKey as ReqKey];
    const allowed = new Set<string>(['req_key', 'prompt', 'image_urls', 'binary_data_base64', ...spec.fields]);
    for (const k of Object.keys(body)) if (!allowed.has(k)) return paramError(res, `unknown field ${k} for ${reqKey}`);
    const prompt = body.prompt;
    if (typeof prompt !== 'string' || !prompt.trim()) return paramError(res, 'prompt is required');
    if (prompt.length > 800) return paramError(res, 'prompt is longer than 800 characters');
    if (body.image_urls !== undefined && body.binary_data_base64 !== undefined)
      return paramError(res, 'pass image_urls or binary_data_base64, not both');
    const list = (v: unknown) =>
      v === undefined ? [] : Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
    const urls = list(body.image_urls);
    const b64 = list(body.binary_data_base64);
    if (!urls || !b64) return paramError(res, 'images must be an array of strings');
    if (urls.some((u) => !/^https?:\/\//.test(u))) return paramError(res, 'image_urls must be http(s) URLs');
    if (b64.some((s) => !/^[A-Za-z0-9+/]+={0,2}$/.test(s)))
      return paramError(res, 'binary_data_base64 must be plain base64 (no data: prefix)');
    const count = urls.length + b64.length;
    if (count < spec.images[0] || count > spec.images[1])
      return paramError(
        res,
        spec.images[1] === 0
          ? `${reqKey} is text-to-image and takes no image`
          : `${reqKey} takes ${spec.images[0]}-${spec.images[1]} image(s), got ${count}`,
      );
    const inputs = b64.map((s) => Buffer.from(s, 'base64'));
    if (inputs.some((b) => !(b[0] === 0x89 && b[1] === 0x50) && !(b[0] === 0xff && b[1] === 0xd8)))
      return paramError(res, 'binary_data_base64 must hold JPEG or PNG images');
    let width = 1328;
    let height = 1328;
    if ((body.width === undefined) !== (body.height === undefined))
      return paramError(res, 'width and height must be given together');
    if (body.width !== undefined) {
      if (!Number.isInteger(body.width) || !Number.isInteger(body.height))
        return paramError(res, 'width and height must be integers');
      [width, height] = [body.width as number, body.height as number];
    }
    if (reqKey === 'jimeng_t2i_v40') {
      if (body.width !== undefined) {
        if (width * height < 1024 * 1024 || width * height > 4096 * 4096 || width / height > 16 || height / width > 16)
          return paramError(res, 'width x height must be within [1024*1024, 4096*4096], ratio within [1/16, 16]');
      } else {
        const area = body.size ?? 2048 * 2048;
        if (!Number.isInteger(area) || (area as number) < 1024 * 1024 || (area as number) > 4096 * 4096)
          return paramError(res, 'size must be an area within [1024*1024, 4096*4096]');
        width = height = Math.round(Math.sqrt(area as number));
      }
      if (body.scale !== undefined && (!isNum(body.scale) || body.scale < 0 || body.scale > 1))
        return paramError(res, 'scale must be within [0, 1]');
      if (body.force_single !== undefined && typeof body.force_single !== 'boolean')
        return paramError(res, 'force_single must be a boolean');
      for (const k of ['min_ratio', 'max_ratio'])
        if (body[k] !== undefined && (!isNum(body[k]) || (body[k] as number) < 1 / 16 || (body[k] as number) >= 16))
          return paramError(res, `${k} must be within [1/16, 16)`);
    } else {
      if (width < 512 || width > 2048 || height < 512 || height > 2048)
        return paramError(res, 'width and height must be within [512, 2048]');
      if (body.seed !== undefined && !Number.isInteger(body.seed)) return paramError(res, 'seed must be an integer');
      if (body.scale !== undefined && (!isNum(body.scale) || body.scale < 0 || body.scale > 1))
        return paramError(res, 'scale must be within [0, 1]');
      if (body.use_pre_llm !== undefined && typeof body.use_pre_llm !== 'boolean')
        return paramError(res, 'use_pre_llm must be a boolean');
    }
    if (prompt.includes('risk')) return answer(res, 400, 50412, 'Text Risk Not Pass', null);
    const asked = /(\d+) pictures/.exec(prompt);
    const count2 =
      reqKey === 'jimeng_t2i_v40' && body.force_single !== true && asked ? Math.min(15 - count, Number(asked[1])) : 1;
    const id = String(7_392_616_336_519_610_000n + BigInt(++seq) * 7919n);
    tasks.set(id, {
      id,
      reqKey: reqKey as ReqKey,
      prompt,
      width,
      height,
      count: count2,
      inputLabels: inputs.map(labelOf),
      createdAt: Date.now(),
      fail: prompt.includes('fail')
        ? { status: 400, code: 50511, message: 'Post Img Risk Not Pass' }
        : prompt.includes('crash')
          ? { status: 500, code: 50500, message: 'Internal Error' }
          : null,
    });
    return answer(res, 200, 10000, 'Success', { task_id: id });
  }

  function getResult(res: ServerResponse, body: Record<string, unknown>) {
    for (const k of Object.keys(body))
      if (!['req_key', 'task_id', 'req_json'].includes(k)) return paramError(res, `unknown field ${k}`);
    if (typeof body.req_key !== 'string' || !body.req_key) return paramError(res, 'req_key is required');
    if (typeof body.task_id !== 'string' || !body.task_id) return paramError(res, 'task_id is required');
    let returnUrl = false;
    if (body.req_json !== undefined) {
      if (typeof body.req_json !== 'string') return paramError(res, 'req_json must be a JSON string');
      let rj: unknown;
      try {
        rj = JSON.parse(body.req_json);
      } catch {
        return paramError(res, 'req_json is not valid JSON');
      }
      if (typeof rj !== 'object' || rj === null || Array.isArray(rj))
        return paramError(res, 'req_json must be an object');
      for (const k of Object.keys(rj))
        if (!['return_url', 'logo_info', 'aigc_meta'].includes(k))
          return paramError(res, `unknown req_json field ${k}`);
      const ru = (rj as { return_url?: unknown }).return_url;
      if (ru !== undefined && typeof ru !== 'boolean') return paramError(res, 'return_url must be a boolean');
      returnUrl = ru === true;
    }
    const empty = { binary_data_base64: null, image_urls: null };
    const t = tasks.get(body.task_id);
    if (!t || t.reqKey !== body.req_key) return answer(res, 200, 10000, 'Success', { ...empty, status: 'not_found' });
    const step = Math.floor((Date.now() - t.createdAt) / (t.prompt.includes('slow') ? stepMs * 50 : stepMs));
    if (step < 1) return answer(res, 200, 10000, 'Success', { ...empty, status: 'in_queue' });
    if (step < 2) return answer(res, 200, 10000, 'Success', { ...empty, status: 'generating' });
    if (t.fail) return answer(res, t.fail.status, t.fail.code, t.fail.message, null);
    const pictures = Array.from({ length: t.count }, (_, i) =>
      fakePng(t.width, t.height, `jimeng:${t.reqKey}:${t.prompt}:${t.id}:${i}`),
    );
    const data = returnUrl
      ? {
          binary_data_base64: null,
          image_urls: pictures.map((p, i) => {
            const name = `${t.id}-${i}`;
            files.set(name, p);
            return `${base}/tos-cn-i/${name}.png?x-expires=${Math.floor(Date.now() / 1000) + 86400}&x-signature=fake`;
          }),
        }
      : { binary_data_base64: pictures.map((p) => p.toString('base64')), image_urls: null };
    return answer(res, 200, 10000, 'Success', { ...data, status: 'done' });
  }

  const route = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const file = /^\/tos-cn-i\/([^/]+)\.png$/.exec(u.pathname);
    if (file && req.method === 'GET') {
      const png = files.get(file[1]);
      if (!png) {
        res.writeHead(404);
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) });
      return res.end(png);
    }
    const action = u.searchParams.get('Action') ?? '';
    const version = u.searchParams.get('Version') ?? '';
    const { body, parsed } = jsonObjectOf(raw);
    requests.push({ action, headers: req.headers, body });
    if (!action || !version)
      return metaError(res, action, {
        status: 400,
        code: 'MissingParameter',
        codeN: 100002,
        message: `The request is missing ${action ? 'Version' : 'Action'} parameter.`,
      });
    if (
      u.pathname !== '/' ||
      !['CVSync2AsyncSubmitTask', 'CVSync2AsyncGetResult'].includes(action) ||
      version !== '2022-08-31'
    )
      return metaError(res, action, {
        status: 404,
        code: 'InvalidActionOrVersion',
        codeN: 100008,
        message: `Could not find operation ${action} for version ${version}.`,
      });
    const authFailure = checkVolcV4(req.method ?? '', req.url ?? '/', req.headers, raw, {
      region: 'cn-north-1',
      service: 'cv',
    });
    if (authFailure) return metaError(res, action, authFailure);
    if (req.method !== 'POST' || !String(req.headers['content-type'] ?? '').startsWith('application/json'))
      return paramError(res, 'POST a JSON body');
    if (!parsed || typeof body !== 'object' || body === null || Array.isArray(body))
      return paramError(res, 'the body is not a JSON object');
    return action === 'CVSync2AsyncSubmitTask' ? submit(res, body) : getResult(res, body);
  };
  const srv = await listenBuffered(opts, (req, res, raw) => void route(req, res, raw));
  base = srv.url;
  return {
    url: base,
    requests,
    tasks,
    throttleNext() {
      throttle = true;
    },
    close: srv.close,
  };
}
