import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { fakePng, jsonObjectOf, labelOf, listenBuffered } from './shared.ts';

/*
 * A fake MiniMax image API (`POST /v1/image_generation`, issue 44), strict as the real one:
 * - `Authorization: Bearer <key>`; every answer is HTTP 200 with `base_resp {status_code, status_msg}`,
 *   refusals included: 1004 (authentication failed), 2013 (invalid parameters), 1026 (input sensitive),
 *   1027 (output sensitive), 1002 (rate limit), 1008 (insufficient balance).
 * - body: model image-01 | image-01-live; prompt 1-1500 chars; aspect_ratio one of MiniMax's (21:9 only
 *   on image-01); width and height together, 512-2048 and multiples of 8, image-01 only (they win over
 *   aspect_ratio); response_format url | base64; seed an integer; n 1-9; prompt_optimizer a boolean;
 *   subject_reference one `{type: "character", image_file}` (an http(s) URL or a data:image URL); any
 *   other field is refused (2013).
 * - answer `{id, data: {image_urls | image_base64}, metadata: {success_count, failed_count} (strings),
 *   base_resp}`; URLs are public links the fake serves.
 * Steering: "sensitive" in the prompt is 1026; "censor-one" fails the review of one picture of n
 * (failed_count 1); "censor-all" fails them all (1027); `failNext(code, msg)` answers the next call so.
 */

export const FAKE_MINIMAX_KEY = 'minimax-upstream-key';

const RATIOS: Record<string, [number, number]> = {
  '1:1': [1024, 1024],
  '16:9': [1280, 720],
  '4:3': [1152, 864],
  '3:2': [1248, 832],
  '2:3': [832, 1248],
  '3:4': [864, 1152],
  '9:16': [720, 1280],
  '21:9': [1344, 576],
};

const FIELDS = new Set([
  'model',
  'prompt',
  'aspect_ratio',
  'width',
  'height',
  'response_format',
  'seed',
  'n',
  'prompt_optimizer',
  'subject_reference',
  'aigc_watermark',
]);

export interface FakeMiniMaxImageRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** The label of a fakePng given as the subject reference's data URL. */
  referenceLabel?: string;
}

export interface FakeMiniMaxImages {
  url: string;
  key: string;
  requests: FakeMiniMaxImageRequest[];
  failNext(code: number, message: string): void;
  close(): Promise<void>;
}

export async function startFakeMiniMaxImages(opts: { port?: number } = {}): Promise<FakeMiniMaxImages> {
  const requests: FakeMiniMaxImageRequest[] = [];
  const files = new Map<string, Buffer>();
  let next: { code: number; message: string } | undefined;
  let seq = 0;
  let base = '';

  const send = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: ServerResponse, code: number, msg: string, id = '') =>
    send(res, { id, data: null, metadata: null, base_resp: { status_code: code, status_msg: msg } });
  const invalid = (res: ServerResponse, why: string) => refuse(res, 2013, `invalid params, ${why}`);

  function generate(res: ServerResponse, body: Record<string, unknown>, rec: FakeMiniMaxImageRequest) {
    for (const k of Object.keys(body)) if (!FIELDS.has(k)) return invalid(res, `unknown field ${k}`);
    const model = body.model;
    if (model !== 'image-01' && model !== 'image-01-live') return invalid(res, `model ${String(model)} not supported`);
    const prompt = body.prompt;
    if (typeof prompt !== 'string' || !prompt.trim() || prompt.length > 1500)
      return invalid(res, 'prompt must be 1-1500 characters');
    let [w, h] = RATIOS['1:1'];
    if (body.aspect_ratio !== undefined) {
      const r = RATIOS[body.aspect_ratio as string];
      if (!r || (body.aspect_ratio === '21:9' && model !== 'image-01'))
        return invalid(res, `aspect_ratio ${String(body.aspect_ratio)} not supported`);
      [w, h] = r;
    }
    if (body.width !== undefined || body.height !== undefined) {
      if (model !== 'image-01') return invalid(res, 'width and height are for image-01 only');
      const ok = (v: unknown) =>
        Number.isInteger(v) && (v as number) >= 512 && (v as number) <= 2048 && (v as number) % 8 === 0;
      if (!ok(body.width) || !ok(body.height))
        return invalid(res, 'width and height must both be given, 512-2048 and multiples of 8');
      if (body.aspect_ratio === undefined) [w, h] = [body.width as number, body.height as number];
    }
    const format = body.response_format ?? 'url';
    if (format !== 'url' && format !== 'base64') return invalid(res, 'response_format must be url or base64');
    if (body.seed !== undefined && !Number.isInteger(body.seed)) return invalid(res, 'seed must be an integer');
    const n = body.n ?? 1;
    if (!Number.isInteger(n) || (n as number) < 1 || (n as number) > 9) return invalid(res, 'n must be 1-9');
    if (body.prompt_optimizer !== undefined && typeof body.prompt_optimizer !== 'boolean')
      return invalid(res, 'prompt_optimizer must be a boolean');
    if (body.subject_reference !== undefined) {
      const s = body.subject_reference;
      const item = Array.isArray(s) && s.length === 1 ? (s[0] as Record<string, unknown>) : undefined;
      const file = item?.image_file;
      if (!item || item.type !== 'character' || typeof file !== 'string')
        return invalid(res, 'subject_reference must be one {type: "character", image_file}');
      const m = /^data:image\/(png|jpeg|jpg|webp);base64,([A-Za-z0-9+/]+={0,2})$/.exec(file);
      if (!m && !/^https?:\/\/\S+$/.test(file)) return invalid(res, 'image_file must be a URL or a base64 data URL');
      if (m) rec.referenceLabel = labelOf(Buffer.from(m[2], 'base64'));
    } else if (model === 'image-01-live') return invalid(res, 'image-01-live needs subject_reference');
    const id = `0${(Date.now() * 1000 + ++seq).toString(16)}`;
    if (prompt.includes('sensitive')) return refuse(res, 1026, 'input new_sensitive', id);
    if (prompt.includes('censor-all')) return refuse(res, 1027, 'output new_sensitive', id);
    const made = prompt.includes('censor-one') ? (n as number) - 1 : (n as number);
    const pictures = Array.from({ length: made }, (_, i) => fakePng(w, h, `minimax:${prompt}:${id}:${i}`));
    const data =
      format === 'base64'
        ? { image_base64: pictures.map((p) => p.toString('base64')) }
        : {
            image_urls: pictures.map((p, i) => {
              files.set(`${id}-${i}`, p);
              return `${base}/oss/${id}-${i}.jpeg?Expires=${Math.floor(Date.now() / 1000) + 86400}&OSSAccessKeyId=LTAIfake&Signature=fake`;
            }),
          };
    return send(res, {
      id,
      data,
      metadata: { failed_count: String((n as number) - made), success_count: String(made) },
      base_resp: { status_code: 0, status_msg: 'success' },
    });
  }

  const route = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const file = /^\/oss\/([^/]+)\.jpeg$/.exec(u.pathname);
    if (file && req.method === 'GET') {
      const png = files.get(file[1]);
      if (!png) {
        res.writeHead(404);
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) });
      return res.end(png);
    }
    const { body, parsed } = jsonObjectOf(raw);
    const rec: FakeMiniMaxImageRequest = { path: req.url ?? '', headers: req.headers, body };
    requests.push(rec);
    if (u.pathname !== '/v1/image_generation' || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('404 page not found');
    }
    if (req.headers.authorization !== `Bearer ${FAKE_MINIMAX_KEY}`)
      return refuse(
        res,
        1004,
        'login fail: Please carry the API secret key in the Authorization field of the request header',
      );
    if (next) {
      const n = next;
      next = undefined;
      return refuse(res, n.code, n.message);
    }
    if (!parsed || typeof body !== 'object' || body === null || Array.isArray(body))
      return invalid(res, 'the body is not a JSON object');
    return generate(res, body, rec);
  };
  const srv = await listenBuffered(opts, (req, res, raw) => void route(req, res, raw));
  base = srv.url;
  return {
    url: base,
    key: FAKE_MINIMAX_KEY,
    requests,
    failNext(code, message) {
      next = { code, message };
    },
    close: srv.close,
  };
}
