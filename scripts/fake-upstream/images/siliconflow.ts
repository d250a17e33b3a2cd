import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { RecordedRequest } from '../server.ts';
import { fakePng, jsonObjectOf, listenBuffered, pictureHost } from './shared.ts';

/*
 * A strict fake of SiliconFlow's image generation (channel type 40), as docs.siliconflow.cn documents
 * it: `POST /v1/images/generations` `{model, prompt, negative_prompt, image_size "WxH", batch_size,
 * seed, num_inference_steps, guidance_scale, cfg, image, image2, image3}` answers `{images: [{url}],
 * timings: {inference}, seed}`. Each model takes its own image sizes; batch_size (1..4) is Kolors'
 * only; Qwen-Image-Edit needs `image` and takes no image_size; `image*` must be a data URI of a real
 * picture or an http(s) URL. Refusals are `{code, message, data: null}` (20012 unknown model, 20015 a
 * bad parameter) with status 400; a wrong or missing key is 401 with the bare JSON string
 * "Invalid token". Pictures are PNGs of the size (an edit's: its input's), labelled `sf-<n>`, served
 * publicly as SiliconFlow's signed links are. `[busy]` in the prompt answers 429.
 */

export const FAKE_SILICONFLOW_KEY = 'sk-fakesiliconflow000000000000000000000000';

const SIZES: Record<string, string[] | null> = {
  'Kwai-Kolors/Kolors': ['1024x1024', '960x1280', '768x1024', '720x1440', '720x1280'],
  'black-forest-labs/FLUX.1-schnell': ['1024x1024', '512x1024', '768x512', '768x1024', '1024x576', '576x1024'],
  'black-forest-labs/FLUX.1-dev': ['1024x1024', '512x1024', '768x512', '768x1024', '1024x576', '576x1024'],
  'Qwen/Qwen-Image': ['1328x1328', '1664x928', '928x1664', '1472x1140', '1140x1472', '1584x1056', '1056x1584'],
  // Edit models: the picture follows the input's size.
  'Qwen/Qwen-Image-Edit': null,
  'Qwen/Qwen-Image-Edit-2509': null,
};
const FIELDS = new Set([
  'model',
  'prompt',
  'negative_prompt',
  'image_size',
  'batch_size',
  'seed',
  'num_inference_steps',
  'guidance_scale',
  'cfg',
  'image',
  'image2',
  'image3',
  'prompt_enhancement',
]);

const sfError = (res: ServerResponse, status: number, code: number, message: string) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ code, message, data: null }));
};

/** A data URI's picture size (PNG only; a JPEG is accepted at 1024x1024), undefined when it is no picture. */
function inputPicture(v: string): { width: number; height: number } | undefined {
  if (/^https?:\/\//.test(v)) return { width: 1024, height: 1024 };
  const m = /^data:image\/(png|jpeg|jpg|webp);base64,(.+)$/.exec(v);
  if (!m) return undefined;
  const bytes = Buffer.from(m[2], 'base64');
  if (bytes.subarray(1, 4).toString('latin1') === 'PNG' && bytes.length > 24)
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return { width: 1024, height: 1024 };
  return undefined;
}

export interface FakeSiliconFlow {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeSiliconFlow(): Promise<FakeSiliconFlow> {
  const requests: RecordedRequest[] = [];
  const host = pictureHost('sf-outputs');
  let made = 0;
  const server = await listenBuffered({}, (req, res, raw) => {
    const path = (req.url ?? '').split('?')[0];
    const { body, parsed } = jsonObjectOf(raw);
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, aborted: false });
    if (host.serve(req.method, path, res)) return;
    if (path !== '/v1/images/generations' || req.method !== 'POST') return sfError(res, 404, 404, 'Not Found');
    if (req.headers.authorization !== `Bearer ${FAKE_SILICONFLOW_KEY}`) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('"Invalid token"');
      return;
    }
    if (!parsed) return sfError(res, 400, 20015, 'Invalid JSON body');
    for (const k of Object.keys(body)) if (!FIELDS.has(k)) return sfError(res, 400, 20015, `Unknown parameter: ${k}`);
    const model = String(body.model ?? '');
    if (!(model in SIZES)) return sfError(res, 400, 20012, 'Model does not exist. Please check it carefully.');
    if (typeof body.prompt !== 'string' || !body.prompt) return sfError(res, 400, 20015, 'prompt is required');
    const sizes = SIZES[model];
    let size = { width: 1024, height: 1024 };
    if (sizes === null) {
      if (body.image_size !== undefined) return sfError(res, 400, 20015, `image_size is not supported by ${model}`);
      const input = typeof body.image === 'string' ? inputPicture(body.image) : undefined;
      if (!input) return sfError(res, 400, 20015, 'image is required: a base64 data URI or a URL of a picture');
      size = input;
    } else {
      const asked = body.image_size ?? (model === 'Qwen/Qwen-Image' ? '1328x1328' : '1024x1024');
      if (typeof asked !== 'string' || !sizes.includes(asked))
        return sfError(res, 400, 20015, `image_size must be one of ${sizes.join(', ')}`);
      const [w, h] = asked.split('x').map(Number);
      size = { width: w, height: h };
    }
    for (const k of ['image', 'image2', 'image3'])
      if (body[k] !== undefined && (typeof body[k] !== 'string' || !inputPicture(body[k])))
        return sfError(res, 400, 20015, `${k} must be a base64 data URI or a URL of a picture`);
    const batch = body.batch_size ?? 1;
    if (typeof batch !== 'number' || !Number.isInteger(batch) || batch < 1 || batch > 4)
      return sfError(res, 400, 20015, 'batch_size must be between 1 and 4');
    if (batch > 1 && model !== 'Kwai-Kolors/Kolors')
      return sfError(res, 400, 20015, `batch_size is not supported by ${model}`);
    const steps = body.num_inference_steps;
    if (steps !== undefined && (typeof steps !== 'number' || steps < 1 || steps > 100))
      return sfError(res, 400, 20015, 'num_inference_steps must be between 1 and 100');
    if (body.prompt.includes('[busy]'))
      return sfError(res, 429, 50603, 'System is too busy now. Please try again later.');
    const images = Array.from({ length: batch }, () => {
      const id = randomBytes(8).toString('hex');
      return { url: host.keep(id, fakePng(size.width, size.height, `sf-${++made}`)) };
    });
    const seed = typeof body.seed === 'number' ? body.seed : 1234567;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ images, timings: { inference: 0.31 }, seed, shared_id: '0' }));
  });
  host.listening(server.url);
  return { url: server.url, requests, close: server.close };
}
