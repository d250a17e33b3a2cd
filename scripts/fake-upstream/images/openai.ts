import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { checkEdit, type Fields, ImagesError, invalid, KNOWN, LOOSE, MODELS, type Upload } from './openai-rules.ts';
import { type FakeFormEntry, fakePng, labelOf, readForm } from './shared.ts';

/*
 * OpenAI's images API as strictly as the real one (issue 44): /v1/images/generations (JSON) and
 * /v1/images/edits (multipart), and Azure's /openai/deployments/{d}/images/...?api-version=. Rules of
 * the API reference: dall-e-2 (sizes 256/512/1024, edits of one square PNG with an optional mask of
 * the same size), dall-e-3 (n=1, sizes 1024x1024/1792x1024/1024x1792, quality standard/hd, style
 * vivid/natural, no edits), gpt-image-1 (sizes 1024x1024/1536x1024/1024x1536/auto, quality
 * low/medium/high/auto, base64 only: `response_format` is an unknown parameter, usage in tokens,
 * edits of up to 16 images). Errors in OpenAI's shape. dall-e answers URLs by default: public files of
 * this server (like OpenAI's signed blob links). Prompts drive the failure modes: `fail500` (500),
 * `blocked` (400 content_policy_violation), `no-picture` (200 with an empty list).
 * The default fake (openai-extra.ts) answers its image paths here, with `anyModel` (it serves any name).
 */

export interface OpenAIImagesState {
  /** The base URL public picture links are built on (this server's own). */
  origin: string;
  /** Pictures served at /files/<id>.png (dall-e's URL answers). */
  files: Map<string, Buffer>;
  /** Every image request the fake accepted: the fields it read and the input pictures' labels. */
  seen: { path: string; fields: Record<string, string | number>; inputs: (string | undefined)[] }[];
  anyModel?: boolean;
}

/** Whether the (version-stripped) path is one of the images API's. */
export const isImagesPath = (path: string) => /\/images\/(generations|edits)$/.test(path);

/** Answers one images request (path without /v1 or the Azure deployment prefix); never throws. */
export async function answerOpenAIImages(
  st: OpenAIImagesState,
  path: string,
  headers: IncomingHttpHeaders,
  raw: Buffer,
  res: ServerResponse,
): Promise<void> {
  try {
    const edit = path.endsWith('/edits');
    const { fields, images, mask } = edit ? await editFields(raw, headers['content-type']) : jsonFields(raw);
    const body = answer(st, edit, fields, images, mask);
    st.seen.push({ path, fields, inputs: images.map((i) => labelOf(i.data)) });
    if (body === 'fail500')
      throw new ImagesError(500, 'The server had an error processing your request.', null, null, 'server_error');
    send(res, 200, body);
  } catch (err) {
    const e = err instanceof ImagesError ? err : new ImagesError(400, String((err as Error).message));
    send(res, e.status, { error: { message: e.message, type: e.type, param: e.param, code: e.code } });
  }
}

function jsonFields(raw: Buffer): { fields: Fields; images: Upload[]; mask?: Upload } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ImagesError(400, 'We could not parse the JSON body of your request.');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ImagesError(400, 'We could not parse the JSON body of your request.');
  const fields: Fields = {};
  for (const [k, v] of Object.entries(parsed)) {
    if (v === null || v === undefined) continue;
    if (typeof v !== 'string' && typeof v !== 'number')
      throw new ImagesError(400, `Invalid type for '${k}': expected a string or a number.`, k, 'invalid_type');
    fields[k] = v;
  }
  return { fields, images: [] };
}

async function editFields(raw: Buffer, contentType: string | undefined) {
  let entries: FakeFormEntry[];
  try {
    entries = await readForm(raw, contentType);
  } catch {
    throw new ImagesError(400, 'Invalid multipart/form-data body.');
  }
  const fields: Fields = {};
  const images: Upload[] = [];
  let mask: Upload | undefined;
  for (const e of entries) {
    if (e.file) {
      if (e.name === 'image' || e.name === 'image[]') images.push(e.file);
      else if (e.name === 'mask') mask = e.file;
      else throw new ImagesError(400, `Unknown parameter: '${e.name}'.`, e.name, 'unknown_parameter');
    } else if (e.value !== undefined) fields[e.name] = e.value;
  }
  return { fields, images, mask };
}

function answer(st: OpenAIImagesState, edit: boolean, f: Fields, images: Upload[], mask?: Upload) {
  const model = String(f.model ?? 'dall-e-2');
  const rules = MODELS[model] ?? (st.anyModel ? LOOSE : undefined);
  if (!rules)
    throw new ImagesError(400, `Invalid value: '${model}'. The model does not exist.`, 'model', 'invalid_value');
  for (const k of Object.keys(f))
    if (!KNOWN.has(k)) throw new ImagesError(400, `Unknown parameter: '${k}'.`, k, 'unknown_parameter');
  const prompt = f.prompt;
  if (typeof prompt !== 'string' || prompt === '')
    throw new ImagesError(400, "Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter');
  if (prompt.length > rules.maxPrompt)
    throw new ImagesError(
      400,
      `Invalid 'prompt': string too long. Expected a string with maximum length ${rules.maxPrompt}, but got a string with length ${prompt.length} instead.`,
      'prompt',
      'string_above_max_length',
    );
  const n = f.n === undefined ? 1 : Number(f.n);
  if (!Number.isInteger(n) || n < 1)
    throw new ImagesError(400, `Invalid value for 'n': expected an integer.`, 'n', 'invalid_value');
  if (n > rules.maxN)
    throw new ImagesError(
      400,
      rules.maxN === 1
        ? `Invalid 'n': integer above maximum value. Expected a value <= 1, but got ${n} instead.`
        : `Invalid 'n': integer above maximum value. Expected a value <= ${rules.maxN}, but got ${n} instead.`,
      'n',
      'integer_above_max_value',
    );
  const size = f.size === undefined ? (rules.gptImage ? 'auto' : '1024x1024') : String(f.size);
  if (rules.sizes.length && !rules.sizes.includes(size)) throw invalid('size', size, rules.sizes);
  if (f.quality !== undefined && rules.qualities.length && !rules.qualities.includes(String(f.quality)))
    throw invalid('quality', f.quality, rules.qualities);
  if (f.style !== undefined && model !== 'dall-e-3' && MODELS[model])
    throw new ImagesError(400, `Unknown parameter: 'style'.`, 'style', 'unknown_parameter');
  if (f.style !== undefined && !['vivid', 'natural'].includes(String(f.style)))
    throw invalid('style', f.style, ['vivid', 'natural']);
  if (f.response_format !== undefined) {
    if (rules.gptImage)
      throw new ImagesError(400, "Unknown parameter: 'response_format'.", 'response_format', 'unknown_parameter');
    if (!['url', 'b64_json'].includes(String(f.response_format)))
      throw invalid('response_format', f.response_format, ['url', 'b64_json']);
  }
  for (const k of ['output_format', 'background', 'moderation', 'output_compression'])
    if (f[k] !== undefined && !rules.gptImage && MODELS[model])
      throw new ImagesError(400, `Unknown parameter: '${k}'.`, k, 'unknown_parameter');
  if (f.output_format !== undefined && !['png', 'jpeg', 'webp'].includes(String(f.output_format)))
    throw invalid('output_format', f.output_format, ['png', 'jpeg', 'webp']);
  if (edit) checkEdit(model, rules, images, mask);
  else if (images.length) throw new ImagesError(400, "Unknown parameter: 'image'.", 'image', 'unknown_parameter');
  if (prompt.includes('fail500')) return 'fail500' as const;
  if (prompt.includes('blocked'))
    throw new ImagesError(
      400,
      'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.',
      null,
      'content_policy_violation',
      'image_generation_user_error',
    );
  const [w, h] = size === 'auto' ? [1024, 1024] : size.split('x').map(Number);
  const inputs = images.map((i) => labelOf(i.data) ?? 'upload').join('+');
  const pictures = prompt.includes('no-picture')
    ? []
    : Array.from({ length: n }, (_, i) => fakePng(w, h, `${model}${edit ? `:edit(${inputs})` : ''}#${i}`));
  const b64 = rules.gptImage || f.response_format === 'b64_json';
  const data = pictures.map((png) => {
    if (b64) return { b64_json: png.toString('base64'), ...(rules.gptImage ? {} : { revised_prompt: prompt }) };
    const id = randomBytes(8).toString('hex');
    st.files.set(id, png);
    return { url: `${st.origin}/files/${id}.png`, ...(model === 'dall-e-3' ? { revised_prompt: prompt } : {}) };
  });
  const out: Record<string, unknown> = { created: Math.floor(Date.now() / 1000), data };
  if (rules.gptImage) {
    // OpenAI's image generation guide: output tokens by quality and size; prompt text and input pictures in.
    const q = String(f.quality ?? 'auto');
    const per = q === 'low' ? 272 : q === 'high' ? 4160 : 1056;
    const text = Math.ceil(prompt.length / 4);
    const imageTokens = images.length * 323;
    out.usage = {
      total_tokens: text + imageTokens + per * pictures.length,
      input_tokens: text + imageTokens,
      output_tokens: per * pictures.length,
      input_tokens_details: { text_tokens: text, image_tokens: imageTokens },
    };
    out.background = 'opaque';
    out.output_format = String(f.output_format ?? 'png');
    out.quality = q === 'auto' ? 'medium' : q;
    out.size = size === 'auto' ? '1024x1024' : size;
  }
  return out;
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Serves a picture link (`/files/<id>.png`); false when the path is not one. */
export function serveImageFile(st: OpenAIImagesState, path: string, res: ServerResponse): boolean {
  const m = /^\/files\/([0-9a-f]+)\.png$/.exec(path);
  if (!m) return false;
  const png = st.files.get(m[1]);
  if (!png) {
    res.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>BlobNotFound</Code></Error>');
    return true;
  }
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
  return true;
}

export interface FakeOpenAIImages {
  url: string;
  state: OpenAIImagesState;
  /** Requests by path, in order, including refused ones. */
  hits: string[];
  close(): Promise<void>;
}

/**
 * A strict OpenAI (and Azure) images server: keys must start with `sk-` (OpenAI: `Authorization:
 * Bearer`; Azure: `api-key` and an `api-version` query); `sk-dead` is an invalid key (401).
 */
export async function startFakeOpenAIImages(): Promise<FakeOpenAIImages> {
  const hits: string[] = [];
  const state: OpenAIImagesState = { origin: '', files: new Map(), seen: [] };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake.invalid');
      hits.push(url.pathname);
      if (req.method === 'GET' && serveImageFile(state, url.pathname, res)) return;
      const azure = /^\/openai\/deployments\/[^/]+(\/images\/(generations|edits))$/.exec(url.pathname);
      const path = azure ? azure[1] : url.pathname.replace(/^\/v1(?=\/)/, '');
      if (req.method !== 'POST' || !isImagesPath(path) || (!azure && !url.pathname.startsWith('/v1/')))
        return send(res, 404, {
          error: {
            message: `Invalid URL (${req.method} ${url.pathname})`,
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        });
      if (azure && !url.searchParams.get('api-version'))
        return send(res, 404, { error: { code: '404', message: 'Resource not found' } });
      const key = azure
        ? String(req.headers['api-key'] ?? '')
        : (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (!key.startsWith('sk-') || key === 'sk-dead')
        return azure
          ? send(res, 401, {
              error: { code: '401', message: 'Access denied due to invalid subscription key or wrong API endpoint.' },
            })
          : send(res, 401, {
              error: {
                message: `Incorrect API key provided: ${key.slice(0, 6)}****.`,
                type: 'invalid_request_error',
                param: null,
                code: 'invalid_api_key',
              },
            });
      void answerOpenAIImages(state, path, req.headers, Buffer.concat(chunks), res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.origin = `http://127.0.0.1:${port}`;
  return {
    url: state.origin,
    state,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
