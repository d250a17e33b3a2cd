import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  fakePng,
  jsonObjectOf,
  labelOf,
  listenBuffered,
  readForm,
} from '../../../scripts/fake-upstream/images/shared.ts';
import { ChannelType } from '../../../shared/channel-types.ts';
import { insertChannel, setOptions } from '../../relay-fixtures.ts';
import type { Gateway } from '../harness.ts';

/*
 * The playground's image tab (issue 44) against an OpenAI images API fake: the console's own calls
 * (/pg/images/generations, /pg/images/edits) reach it through a real OpenAI channel. The fake keeps to
 * what OpenAI's images API refuses that a console could get wrong: a wrong key, an unknown model or
 * size, a field it does not know (the playground's `group` must not reach it), `response_format` on a
 * gpt-image model (which always answers base64), an edit without an image. Used by
 * test/browser/playground-images.test.ts.
 */

export const IMAGE_KEY = 'sk-images-upstream';
/** $0.042 a gpt-image-1 picture (medium, square: the price table's plain one), $0.04 a DALL-E 3 one. */
export const GPT_IMAGE_PRICE = 0.042;
export const DALLE_PRICE = 0.04;
export const PAINTER = { username: 'painter', password: 'painter-pass-1' };
/** $0.01: less than one picture. */
export const PAUPER = { username: 'pauper', password: 'pauper-pass-1' };

const SIZES: Record<string, string[]> = {
  'gpt-image-1': ['1024x1024', '1536x1024', '1024x1536', 'auto'],
  'dall-e-3': ['1024x1024', '1792x1024', '1024x1792'],
};
const GENERATION_FIELDS = new Set([
  'model',
  'prompt',
  'n',
  'size',
  'quality',
  'response_format',
  'style',
  'user',
  'background',
  'moderation',
  'output_format',
  'output_compression',
]);
const EDIT_FIELDS = new Set([
  'model',
  'prompt',
  'n',
  'size',
  'quality',
  'response_format',
  'user',
  'background',
  'output_format',
  'image',
  'image[]',
  'mask',
]);

export interface FakeImages {
  url: string;
  /** What each call sent: its path, model, the fields named, and an edit's input picture label. */
  calls: { path: string; model: string; fields: string[]; inputLabel?: string }[];
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
/** OpenAI's error shape. */
const refuse = (res: ServerResponse, status: number, message: string, code: string | null, param: string | null) =>
  send(res, status, { error: { message, type: 'invalid_request_error', param, code } });

const pixels = (size: string | undefined) => {
  const [w, h] = (size && size !== 'auto' ? size : '1024x1024').split('x').map(Number);
  return { w, h };
};

export async function startFakeImages(): Promise<FakeImages> {
  const calls: FakeImages['calls'] = [];
  /** What OpenAI refuses in a body both paths share, as [status, message, code, param]; null when fine. */
  const problem = (f: Record<string, unknown>, known: Set<string>): [number, string, string, string] | null => {
    const unknown = Object.keys(f).find((k) => !known.has(k));
    if (unknown) return [400, `Unknown parameter: '${unknown}'.`, 'unknown_parameter', unknown];
    const model = String(f.model ?? 'dall-e-2');
    if (!SIZES[model]) return [404, `The model '${model}' does not exist.`, 'model_not_found', 'model'];
    if (typeof f.prompt !== 'string' || f.prompt.trim() === '')
      return [400, "Missing required parameter: 'prompt'.", 'missing_required_parameter', 'prompt'];
    if (f.size !== undefined && !SIZES[model].includes(String(f.size))) {
      const list = SIZES[model].map((s) => `'${s}'`).join(', ');
      return [400, `Invalid value: '${String(f.size)}'. Supported values are: ${list}.`, 'invalid_value', 'size'];
    }
    if (model === 'gpt-image-1' && f.response_format !== undefined)
      return [400, "Unknown parameter: 'response_format'.", 'unknown_parameter', 'response_format'];
    const n = Number(f.n ?? 1);
    if (!Number.isInteger(n) || n < 1 || n > 10 || (model === 'dall-e-3' && n !== 1))
      return [400, `Invalid value for 'n': ${String(f.n)}.`, 'invalid_value', 'n'];
    return null;
  };
  const answer = (res: ServerResponse, f: Record<string, unknown>, label: (i: number) => string) => {
    const model = String(f.model);
    const { w, h } = pixels(f.size as string | undefined);
    const data = Array.from({ length: Number(f.n ?? 1) }, (_, i) => ({
      b64_json: fakePng(w, h, label(i)).toString('base64'),
      ...(model === 'dall-e-3' ? { revised_prompt: `A picture of ${String(f.prompt)}` } : {}),
    }));
    send(res, 200, {
      created: Math.floor(Date.now() / 1000),
      data,
      ...(model === 'gpt-image-1'
        ? { usage: { input_tokens: 20, output_tokens: 4160 * data.length, total_tokens: 20 + 4160 * data.length } }
        : {}),
    });
  };

  const server = await listenBuffered({}, async (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    if (req.headers.authorization !== `Bearer ${IMAGE_KEY}`)
      return refuse(res, 401, 'Incorrect API key provided.', 'invalid_api_key', null);
    if (req.method === 'POST' && req.url === '/v1/images/generations') {
      const { body, parsed } = jsonObjectOf(raw);
      if (!parsed) return refuse(res, 400, 'We could not parse the JSON body of your request.', null, null);
      calls.push({ path: 'generations', model: String(body.model), fields: Object.keys(body).sort() });
      const bad = problem(body, GENERATION_FIELDS);
      if (bad) return refuse(res, ...bad);
      return answer(res, body, (i) => `gen-${i}:${String(body.prompt)}`);
    }
    if (req.method === 'POST' && req.url === '/v1/images/edits') {
      let form;
      try {
        form = await readForm(raw, req.headers['content-type']);
      } catch {
        return refuse(res, 400, 'Invalid multipart form data.', null, null);
      }
      const fields: Record<string, unknown> = {};
      for (const e of form) fields[e.name] = e.value ?? e.file;
      const image = form.find((e) => (e.name === 'image' || e.name === 'image[]') && e.file)?.file;
      const inputLabel = image ? labelOf(image.data) : undefined;
      calls.push({ path: 'edits', model: String(fields.model), fields: Object.keys(fields).sort(), inputLabel });
      const bad = problem(fields, EDIT_FIELDS);
      if (bad) return refuse(res, ...bad);
      if (!image)
        return refuse(res, 400, "Missing required parameter: 'image'.", 'missing_required_parameter', 'image');
      return answer(res, fields, (i) => `edit-${i}:${inputLabel ?? 'upload'}`);
    }
    refuse(res, 404, `Invalid URL (${req.method} ${req.url})`, null, null);
  });
  return { url: server.url, calls, close: server.close };
}

export interface ImageSeed {
  fake: FakeImages;
  painterId: number;
  pauperId: number;
}

/** An OpenAI channel serving gpt-image-1 and dall-e-3 (and a chat model), priced per picture; two users. */
export async function seedPlaygroundImages(gateway: Gateway): Promise<ImageSeed> {
  const fake = await startFakeImages();
  const deps = gateway.test.deps;
  await setOptions(deps, {
    ModelPrice: JSON.stringify({ 'gpt-image-1': GPT_IMAGE_PRICE, 'dall-e-3': DALLE_PRICE }),
    ModelRatio: JSON.stringify({ 'gpt-4o-mini': 0.075 }),
  });
  await insertChannel(deps, {
    name: 'images',
    type: ChannelType.OpenAI,
    key: IMAGE_KEY,
    baseUrl: fake.url,
    models: ['gpt-image-1', 'dall-e-3', 'gpt-4o-mini'],
  });
  const painter = await deps.services.users.createUserDirect({ ...PAINTER, role: 1, quota: 5_000_000 });
  const pauper = await deps.services.users.createUserDirect({ ...PAUPER, role: 1, quota: 5_000 });
  return { fake, painterId: Number(painter.id), pauperId: Number(pauper.id) };
}
