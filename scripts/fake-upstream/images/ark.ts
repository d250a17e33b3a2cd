import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { FAKE_ARK_KEY } from '../video/ark.ts';
import { fakePng, jsonObjectOf, labelOf, listenBuffered } from './shared.ts';

export { FAKE_ARK_KEY };

/*
 * A fake Volcengine Ark image API (Seedream / SeedEdit), strict as the real one (issue 44):
 * - `POST /api/v3/images/generations` only, JSON, `Authorization: Bearer <key>` (FAKE_ARK_KEY only:
 *   401 AuthenticationError otherwise); errors are Ark's `{error:{code, message, param, type}}`.
 * - models: doubao-seedream-4-0-250828 (0-10 input images, size "1K"/"2K"/"4K" or WxH with
 *   1280x720 <= pixels <= 4096x4096 and a ratio within [1/16, 16], sequential_image_generation with
 *   options.max_images 1-15, no guidance_scale), doubao-seedream-3-0-t2i-250415 (no image, WxH each side
 *   in [512, 2048], guidance_scale 1-10), doubao-seededit-3-0-i2i-250628 (exactly one image, size
 *   "adaptive" only, guidance_scale 1-10); anything else is 404 InvalidEndpointOrModel.NotFound.
 * - image: an http(s) URL or a `data:image/<png|jpeg|webp>;base64,` URL whose bytes are that image;
 *   response_format url|b64_json; seed an integer in [-1, 2147483647]; watermark a boolean; stream
 *   false; any other field is refused (the real API ignores some: stricter catches an adapter leaking
 *   OpenAI's fields such as `n`).
 * - answer `{model, created, data:[{url|b64_json, size}], usage:{generated_images, output_tokens,
 *   total_tokens}}`, one picture (or max_images under sequential "auto"); output tokens are
 *   width x height / 256 per picture, as Ark counts them. URLs are public links served by the fake.
 * Steering: a prompt containing "sensitive" is refused (400 InputTextSensitiveContentDetected),
 * "unsafe-output" fails the output review (400 OutputImageSensitiveContentDetected), "unsafe-one" fails
 * one picture of a group (an item with its error); `failNext(status,
 * code)` fails the next request (a 429 or 500 for failover).
 */

export const ARK_IMAGE_MODELS = {
  'doubao-seedream-4-0-250828': { images: [0, 10], guidance: false, sequential: true },
  'doubao-seedream-3-0-t2i-250415': { images: [0, 0], guidance: true, sequential: false },
  'doubao-seededit-3-0-i2i-250628': { images: [1, 1], guidance: true, sequential: false },
} as const;

const KNOWN_FIELDS = new Set([
  'model',
  'prompt',
  'image',
  'size',
  'seed',
  'guidance_scale',
  'response_format',
  'watermark',
  'stream',
  'sequential_image_generation',
  'sequential_image_generation_options',
  'optimize_prompt_options',
]);

const TIERS: Record<string, number> = { '1K': 1024, '2K': 2048, '4K': 4096 };

export interface FakeArkImageRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** Labels of the fake PNGs given as data-URL input images, in order. */
  inputLabels: (string | undefined)[];
}

export interface FakeArkImages {
  url: string;
  key: string;
  requests: FakeArkImageRequest[];
  /** Picture downloads served (path list). */
  downloads: string[];
  failNext(status: number, code: string, message?: string): void;
  close(): Promise<void>;
}

/** Width and height of a PNG from its IHDR (undefined for other bytes). */
function pngSize(b: Buffer): { w: number; h: number } | undefined {
  if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { w: b.readUInt32BE(16), h: b.readUInt32BE(20) };
}

export async function startFakeArkImages(opts: { port?: number } = {}): Promise<FakeArkImages> {
  const requests: FakeArkImageRequest[] = [];
  const downloads: string[] = [];
  const files = new Map<string, Buffer>();
  let next: { status: number; code: string; message: string } | undefined;
  let seq = 0;
  let base = '';

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': `0217${Date.now()}` });
    res.end(JSON.stringify(body));
  };
  const err = (res: ServerResponse, status: number, code: string, message: string, param = '', type = 'BadRequest') =>
    send(res, status, { error: { code, message: `${message} Request id: 0217${Date.now()}fake`, param, type } });
  const invalid = (res: ServerResponse, param: string, why: string) =>
    err(
      res,
      400,
      'InvalidParameter',
      `The parameter \`${param}\` specified in the request is not valid: ${why}.`,
      param,
    );

  function readImage(v: unknown): { ok: true; label?: string; size?: { w: number; h: number } } | { ok: false } {
    if (typeof v !== 'string') return { ok: false };
    if (/^https?:\/\/\S+$/.test(v)) return { ok: true };
    const m = /^data:image\/(png|jpeg|jpg|webp|bmp|tiff|gif);base64,([A-Za-z0-9+/]+={0,2})$/.exec(v);
    if (!m) return { ok: false };
    const bytes = Buffer.from(m[2], 'base64');
    const png = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
    if ((m[1] === 'png' && !png) || ((m[1] === 'jpeg' || m[1] === 'jpg') && !jpeg) || bytes.length < 8)
      return { ok: false };
    return { ok: true, label: labelOf(bytes), size: png ? pngSize(bytes) : undefined };
  }

  function generate(res: ServerResponse, body: Record<string, unknown>, rec: FakeArkImageRequest) {
    for (const k of Object.keys(body)) if (!KNOWN_FIELDS.has(k)) return invalid(res, k, 'unknown parameter');
    const model = body.model;
    if (typeof model !== 'string' || !model) return invalid(res, 'model', 'model is required');
    const spec = ARK_IMAGE_MODELS[model as keyof typeof ARK_IMAGE_MODELS];
    if (!spec)
      return err(
        res,
        404,
        'InvalidEndpointOrModel.NotFound',
        `The model or endpoint ${model} does not exist or you do not have access to it.`,
        '',
        'NotFound',
      );
    const prompt = body.prompt;
    if (typeof prompt !== 'string' || !prompt.trim()) return invalid(res, 'prompt', 'prompt is required');
    const raw = body.image === undefined ? [] : Array.isArray(body.image) ? body.image : [body.image];
    if (Array.isArray(body.image) && !spec.sequential)
      return invalid(res, 'image', `${model} takes one image, not an array`);
    const images = raw.map(readImage);
    if (images.some((i) => !i.ok))
      return invalid(
        res,
        'image',
        'an image must be an http(s) URL or a data:image/<format>;base64 URL of that format',
      );
    rec.inputLabels = images.map((i) => (i.ok ? i.label : undefined));
    if (images.length < spec.images[0] || images.length > spec.images[1])
      return invalid(
        res,
        'image',
        spec.images[1] === 0
          ? `${model} is text-to-image and takes no image`
          : `${model} takes ${spec.images[0]}-${spec.images[1]} image(s), got ${images.length}`,
      );
    // Size.
    let w: number;
    let h: number;
    const size = body.size;
    if (model.startsWith('doubao-seededit')) {
      if (size !== undefined && size !== 'adaptive') return invalid(res, 'size', 'only "adaptive" is supported');
      const first = images[0];
      ({ w, h } = first?.ok && first.size ? first.size : { w: 1024, h: 1024 });
    } else if (size === undefined) {
      [w, h] = spec.sequential ? [2048, 2048] : [1024, 1024];
    } else if (typeof size !== 'string') {
      return invalid(res, 'size', 'size must be a string');
    } else if (spec.sequential && TIERS[size]) {
      w = h = TIERS[size];
    } else {
      const m = /^(\d+)x(\d+)$/.exec(size);
      if (!m) return invalid(res, 'size', `"${size}" is not WIDTHxHEIGHT${spec.sequential ? ' or 1K/2K/4K' : ''}`);
      [w, h] = [Number(m[1]), Number(m[2])];
      if (spec.sequential) {
        if (w * h < 1280 * 720 || w * h > 4096 * 4096 || w / h > 16 || h / w > 16)
          return invalid(
            res,
            'size',
            'the pixels must be within [1280x720, 4096x4096] and the ratio within [1/16, 16]',
          );
      } else if (w < 512 || w > 2048 || h < 512 || h > 2048)
        return invalid(res, 'size', 'width and height must be within [512, 2048]');
    }
    if (
      body.seed !== undefined &&
      (!Number.isInteger(body.seed) || (body.seed as number) < -1 || (body.seed as number) > 2147483647)
    )
      return invalid(res, 'seed', 'seed must be an integer within [-1, 2147483647]');
    if (body.guidance_scale !== undefined) {
      if (!spec.guidance) return invalid(res, 'guidance_scale', `${model} does not support guidance_scale`);
      const g = body.guidance_scale;
      if (typeof g !== 'number' || g < 1 || g > 10) return invalid(res, 'guidance_scale', 'must be within [1, 10]');
    }
    const format = body.response_format ?? 'url';
    if (format !== 'url' && format !== 'b64_json') return invalid(res, 'response_format', 'must be url or b64_json');
    if (body.watermark !== undefined && typeof body.watermark !== 'boolean')
      return invalid(res, 'watermark', 'must be a boolean');
    if (body.stream !== undefined && body.stream !== false)
      return invalid(res, 'stream', 'streaming is not supported here');
    let count = 1;
    const seqMode = body.sequential_image_generation;
    if (seqMode !== undefined) {
      if (!spec.sequential) return invalid(res, 'sequential_image_generation', `${model} does not support it`);
      if (seqMode !== 'auto' && seqMode !== 'disabled')
        return invalid(res, 'sequential_image_generation', 'auto or disabled');
      const o = body.sequential_image_generation_options;
      if (o !== undefined) {
        const max = (o as { max_images?: unknown }).max_images;
        if (
          typeof o !== 'object' ||
          o === null ||
          !Number.isInteger(max) ||
          (max as number) < 1 ||
          (max as number) > 15
        )
          return invalid(res, 'sequential_image_generation_options.max_images', 'must be an integer within [1, 15]');
        if (seqMode === 'auto') count = max as number;
      }
      if (count + images.length > 15)
        return invalid(res, 'sequential_image_generation_options.max_images', 'input + output images exceed 15');
    } else if (body.sequential_image_generation_options !== undefined)
      return invalid(res, 'sequential_image_generation_options', 'needs sequential_image_generation');
    if (prompt.includes('sensitive'))
      return err(
        res,
        400,
        'InputTextSensitiveContentDetected',
        'The request failed because the input text may contain sensitive information.',
      );
    if (prompt.includes('unsafe-output'))
      return err(
        res,
        400,
        'OutputImageSensitiveContentDetected',
        'The request failed because the output image may contain sensitive information.',
      );
    // In a group, a picture that fails its review is an item with its own error among the others.
    const censored = count > 1 && prompt.includes('unsafe-one') ? 1 : 0;
    const made = count - censored;
    const refusedItem = {
      error: {
        code: 'OutputImageSensitiveContentDetected',
        message: 'The output image may contain sensitive information.',
      },
    };
    const data: unknown[] = Array.from({ length: made }, () => {
      const id = `${Date.now().toString(36)}-${++seq}`;
      const png = fakePng(w, h, `ark:${model}:${prompt}:${seq}`);
      files.set(id, png);
      return format === 'b64_json'
        ? { b64_json: png.toString('base64'), size: `${w}x${h}` }
        : { url: `${base}/tos/${id}.png?X-Tos-Expires=86400&X-Tos-Signature=fake`, size: `${w}x${h}` };
    });
    if (censored) data.push(refusedItem);
    const tokens = Math.round((w * h) / 256) * made;
    return send(res, 200, {
      model,
      created: Math.floor(Date.now() / 1000),
      data,
      usage: { generated_images: made, output_tokens: tokens, total_tokens: tokens },
    });
  }

  const route = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const file = /^\/tos\/([^/]+)\.png$/.exec(u.pathname);
    if (file && req.method === 'GET') {
      const png = files.get(file[1]);
      downloads.push(u.pathname);
      if (!png) return err(res, 404, 'NoSuchKey', 'The specified key does not exist.');
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) });
      return res.end(png);
    }
    const { body, parsed } = jsonObjectOf(raw);
    const rec: FakeArkImageRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body,
      inputLabels: [],
    };
    requests.push(rec);
    if (u.pathname !== '/api/v3/images/generations' || req.method !== 'POST')
      return err(res, 404, 'NotFound', `${req.method} ${u.pathname} is not an Ark API.`, '', 'NotFound');
    if (req.headers.authorization !== `Bearer ${FAKE_ARK_KEY}`)
      return err(
        res,
        401,
        'AuthenticationError',
        'The API key or AK/SK in the request is missing or invalid.',
        '',
        'Unauthorized',
      );
    if (next) {
      const n = next;
      next = undefined;
      return err(res, n.status, n.code, n.message, '', n.status === 429 ? 'TooManyRequests' : 'InternalServiceError');
    }
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json'))
      return invalid(res, 'body', 'the body must be application/json');
    if (!parsed || typeof body !== 'object' || body === null || Array.isArray(body))
      return invalid(res, 'body', 'the body is not a JSON object');
    return generate(res, body, rec);
  };
  const srv = await listenBuffered(opts, (req, res, raw) => void route(req, res, raw));
  base = srv.url;
  return {
    url: base,
    key: FAKE_ARK_KEY,
    requests,
    downloads,
    failNext(status, code, message = 'The service encountered an unexpected internal error.') {
      next = { status, code, message };
    },
    close: srv.close,
  };
}
