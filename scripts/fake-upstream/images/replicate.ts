import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RecordedRequest } from '../server.ts';
import { fakePng, jsonObjectOf, listenBuffered } from './shared.ts';

/*
 * A strict fake of Replicate's predictions API (channel type 56), as documented at
 * replicate.com/docs/reference/http:
 * - `POST /v1/models/{owner}/{name}/predictions` `{input}` (an official model), and `POST /v1/predictions`
 *   `{version, input}` where version is `owner/name`, `owner/name:<version id>` or the bare version id.
 *   `Authorization: Bearer <token>` (the older `Token <token>` too); anything else is 401.
 * - `Prefer: wait` (60 s) or `wait=N` (1..60) holds the answer until the prediction ends or the wait
 *   runs out; either way 201 with the prediction `{id, model, version, input, output, error, status
 *   (starting|processing|succeeded|failed|canceled), urls: {get, cancel, stream, web}, metrics, ...}`.
 *   Without Prefer the answer is at once (`starting`). `GET /v1/predictions/{id}` reads it;
 *   `POST /v1/predictions/{id}/cancel` cancels a running one.
 * - Each model checks its input as its published schema does (Cog's validation): required prompt,
 *   enums, integer ranges (flux-schnell num_outputs 1..4...); a refusal is 422 "Input validation failed"
 *   with `invalid_fields`. Fields a schema does not know are dropped, as Replicate drops them.
 * - Errors are problem+json `{title, detail, status}`.
 * - Outputs are public delivery URLs (replicate.delivery needs no key), served here under
 *   `/replicate.delivery/...`; a list for the models that take num_outputs, one URL for the others.
 *   The bytes are always a PNG of the ratio's size (the fake draws no WebP or JPEG), labelled
 *   `<prediction id>-<index>` so a test can tell them apart.
 * Behaviours by words in the prompt: `[slow]` runs `slowRunMs` (longer than the fake's longest wait),
 * `[nsfw]` fails with Replicate's NSFW error, `[fail]` fails with a model error, `[throttle]` is 429.
 */

export const FAKE_REPLICATE_KEY = 'r8_fakeReplicateToken0000000000000000000';

type Field =
  | { kind: 'string'; required?: boolean; enum?: readonly string[] }
  | { kind: 'integer' | 'number'; min?: number; max?: number; multipleOf?: number }
  | { kind: 'boolean' }
  | { kind: 'uri' };

const FLUX_RATIOS = ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'] as const;
const FORMATS = ['webp', 'jpg', 'png'] as const;

interface ModelSchema {
  fields: Record<string, Field>;
  /** The output is a list (the model takes num_outputs) or one URL. */
  list: boolean;
}

const common: Record<string, Field> = {
  prompt: { kind: 'string', required: true },
  seed: { kind: 'integer' },
  output_format: { kind: 'string', enum: FORMATS },
  output_quality: { kind: 'integer', min: 0, max: 100 },
};

export const REPLICATE_MODELS: Record<string, ModelSchema> = {
  'black-forest-labs/flux-schnell': {
    list: true,
    fields: {
      ...common,
      aspect_ratio: { kind: 'string', enum: FLUX_RATIOS },
      num_outputs: { kind: 'integer', min: 1, max: 4 },
      num_inference_steps: { kind: 'integer', min: 1, max: 4 },
      go_fast: { kind: 'boolean' },
      megapixels: { kind: 'string', enum: ['1', '0.25'] },
      disable_safety_checker: { kind: 'boolean' },
    },
  },
  'black-forest-labs/flux-dev': {
    list: true,
    fields: {
      ...common,
      aspect_ratio: { kind: 'string', enum: FLUX_RATIOS },
      image: { kind: 'uri' },
      prompt_strength: { kind: 'number', min: 0, max: 1 },
      num_outputs: { kind: 'integer', min: 1, max: 4 },
      num_inference_steps: { kind: 'integer', min: 1, max: 50 },
      guidance: { kind: 'number', min: 0, max: 10 },
      go_fast: { kind: 'boolean' },
      megapixels: { kind: 'string', enum: ['1', '0.25'] },
      disable_safety_checker: { kind: 'boolean' },
    },
  },
  'black-forest-labs/flux-1.1-pro': {
    list: false,
    fields: {
      ...common,
      aspect_ratio: { kind: 'string', enum: [...FLUX_RATIOS, 'custom'] },
      width: { kind: 'integer', min: 256, max: 1440, multipleOf: 32 },
      height: { kind: 'integer', min: 256, max: 1440, multipleOf: 32 },
      image_prompt: { kind: 'uri' },
      safety_tolerance: { kind: 'integer', min: 1, max: 6 },
      prompt_upsampling: { kind: 'boolean' },
    },
  },
  'black-forest-labs/flux-kontext-pro': {
    list: false,
    fields: {
      prompt: { kind: 'string', required: true },
      seed: { kind: 'integer' },
      input_image: { kind: 'uri' },
      aspect_ratio: { kind: 'string', enum: ['match_input_image', ...FLUX_RATIOS] },
      output_format: { kind: 'string', enum: ['jpg', 'png'] },
      safety_tolerance: { kind: 'integer', min: 0, max: 6 },
      prompt_upsampling: { kind: 'boolean' },
    },
  },
  'ideogram-ai/ideogram-v3-turbo': {
    list: false,
    fields: {
      prompt: { kind: 'string', required: true },
      seed: { kind: 'integer', min: 0, max: 2147483647 },
      aspect_ratio: {
        kind: 'string',
        enum: [
          '1:3',
          '3:1',
          '1:2',
          '2:1',
          '9:16',
          '16:9',
          '10:16',
          '16:10',
          '2:3',
          '3:2',
          '3:4',
          '4:3',
          '4:5',
          '5:4',
          '1:1',
        ],
      },
      magic_prompt_option: { kind: 'string', enum: ['Auto', 'On', 'Off'] },
      style_type: { kind: 'string', enum: ['None', 'Auto', 'General', 'Realistic', 'Design'] },
      image: { kind: 'uri' },
      mask: { kind: 'uri' },
    },
  },
};

/** The version id the fake gives each model (Replicate's are 64 hex digits). */
export const replicateVersionOf = (model: string) => createHash('sha256').update(model).digest('hex');

export const REPLICATE_NSFW_ERROR = 'NSFW content detected. Try running it again, or try a different prompt.';
export const REPLICATE_MODEL_ERROR = 'CUDA error: out of memory';

type Status = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';

interface Prediction {
  id: string;
  model: string;
  version: string;
  input: Record<string, unknown>;
  createdAt: number;
  runMs: number;
  outcome: 'succeeded' | 'failed';
  error?: string;
  canceledAt?: number;
  size: { width: number; height: number };
  count: number;
  format: string;
}

export interface FakeReplicateOptions {
  /** How long a prediction runs (default 300 ms). */
  runMs?: number;
  /** How long a `[slow]` prediction runs (default 2500 ms). */
  slowRunMs?: number;
  /** The longest a `Prefer: wait` is held here (default 800 ms; Replicate holds up to 60 s). */
  maxWaitMs?: number;
}

export interface FakeReplicate {
  url: string;
  requests: RecordedRequest[];
  /** Ids of the predictions canceled through the API. */
  canceled: string[];
  close(): Promise<void>;
}

const problem = (res: ServerResponse, status: number, title: string, detail: string, extra: object = {}) => {
  const text = JSON.stringify({ title, detail, status, ...extra });
  res.writeHead(status, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

const json = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

/** Cog's checks of one input against a schema: the invalid fields as Replicate lists them. */
function invalidFields(schema: ModelSchema, input: Record<string, unknown>) {
  const out: { type: string; field: string; description: string }[] = [];
  for (const [name, f] of Object.entries(schema.fields)) {
    const v = input[name];
    const field = `input.${name}`;
    if (v === undefined || v === null) {
      if (f.kind === 'string' && f.required) out.push({ type: 'required', field, description: `${name} is required` });
      continue;
    }
    if (f.kind === 'string') {
      if (typeof v !== 'string')
        out.push({ type: 'invalid_type', field, description: 'Invalid type. Expected: string' });
      else if (f.enum && !f.enum.includes(v))
        out.push({
          type: 'enum',
          field,
          description: `${name} must be one of the following: ${f.enum.map((e) => `"${e}"`).join(', ')}`,
        });
    } else if (f.kind === 'uri') {
      if (typeof v !== 'string' || !/^(https?:\/\/|data:[\w/+.-]+;base64,)/.test(v))
        out.push({ type: 'format', field, description: "Does not match format 'uri'" });
    } else if (f.kind === 'boolean') {
      if (typeof v !== 'boolean')
        out.push({ type: 'invalid_type', field, description: 'Invalid type. Expected: boolean' });
    } else {
      if (typeof v !== 'number' || (f.kind === 'integer' && !Number.isInteger(v))) {
        out.push({ type: 'invalid_type', field, description: `Invalid type. Expected: ${f.kind}` });
        continue;
      }
      if (f.min !== undefined && v < f.min)
        out.push({ type: 'number_gte', field, description: `Must be greater than or equal to ${f.min}` });
      if (f.max !== undefined && v > f.max)
        out.push({ type: 'number_lte', field, description: `Must be less than or equal to ${f.max}` });
      if (f.multipleOf !== undefined && v % f.multipleOf !== 0)
        out.push({ type: 'multiple_of', field, description: `Must be a multiple of ${f.multipleOf}` });
    }
  }
  return out;
}

/** The picture's size for an aspect ratio at about one megapixel (flux's default), in multiples of 16. */
function sizeOf(input: Record<string, unknown>): { width: number; height: number } {
  if (input.aspect_ratio === 'custom' && typeof input.width === 'number' && typeof input.height === 'number')
    return { width: input.width, height: input.height };
  const m = /^(\d+):(\d+)$/.exec(typeof input.aspect_ratio === 'string' ? input.aspect_ratio : '1:1');
  const r = m ? Number(m[1]) / Number(m[2]) : 1;
  const px = input.megapixels === '0.25' ? 512 * 512 : 1024 * 1024;
  const round16 = (x: number) => Math.max(16, Math.round(x / 16) * 16);
  return { width: round16(Math.sqrt(px * r)), height: round16(Math.sqrt(px / r)) };
}

export async function startFakeReplicate(opts: FakeReplicateOptions = {}): Promise<FakeReplicate> {
  const runMs = opts.runMs ?? 300;
  const slowRunMs = opts.slowRunMs ?? 2500;
  const maxWaitMs = opts.maxWaitMs ?? 800;
  const requests: RecordedRequest[] = [];
  const canceled: string[] = [];
  const predictions = new Map<string, Prediction>();
  let origin = '';

  const statusOf = (p: Prediction, now = Date.now()): Status => {
    if (p.canceledAt !== undefined) return 'canceled';
    const elapsed = now - p.createdAt;
    if (elapsed >= p.runMs) return p.outcome;
    return elapsed < Math.min(100, p.runMs / 3) ? 'starting' : 'processing';
  };

  const view = (p: Prediction) => {
    const status = statusOf(p);
    const urls = Array.from(
      { length: p.count },
      (_, i) => `${origin}/replicate.delivery/xezq/${p.id}/out-${i}.${p.format}`,
    );
    const done = status === 'succeeded' || status === 'failed' || status === 'canceled';
    return {
      id: p.id,
      model: p.model,
      version: p.version,
      input: p.input,
      logs: status === 'starting' ? '' : 'Using seed: 1234\n',
      output: status === 'succeeded' ? (REPLICATE_MODELS[p.model].list ? urls : urls[0]) : null,
      data_removed: false,
      error: status === 'failed' ? (p.error ?? null) : null,
      status,
      created_at: new Date(p.createdAt).toISOString(),
      ...(done ? { completed_at: new Date(p.createdAt + p.runMs).toISOString() } : {}),
      urls: {
        cancel: `${origin}/v1/predictions/${p.id}/cancel`,
        get: `${origin}/v1/predictions/${p.id}`,
        stream: `https://stream.replicate.com/v1/files/${p.id}`,
        web: `https://replicate.com/p/${p.id}`,
      },
      metrics: status === 'succeeded' ? { image_count: p.count, predict_time: p.runMs / 1000 } : {},
    };
  };

  /** `Prefer: wait` / `wait=N`: how long to hold the answer (capped at the fake's max). */
  const waitOf = (prefer: string | undefined): number => {
    const m = /(?:^|[,;\s])wait(?:=(\d+))?(?:$|[,;\s])/.exec(prefer ?? '');
    if (!m) return 0;
    const seconds = m[1] ? Number(m[1]) : 60;
    return Math.min(Math.max(seconds, 1) * 1000, maxWaitMs);
  };

  const authorized = (req: IncomingMessage) => {
    const m = /^(Bearer|Token) (.+)$/.exec(req.headers.authorization ?? '');
    return m?.[2] === FAKE_REPLICATE_KEY;
  };

  async function create(req: IncomingMessage, res: ServerResponse, model: string, body: Record<string, unknown>) {
    const schema = REPLICATE_MODELS[model];
    if (!schema) return problem(res, 404, 'Not found', 'The requested resource could not be found.');
    const input = body.input;
    if (!input || typeof input !== 'object' || Array.isArray(input))
      return problem(res, 422, 'Input validation failed', '- input: Invalid type. Expected: object, given: null\n', {
        invalid_fields: [{ type: 'invalid_type', field: 'input', description: 'Invalid type. Expected: object' }],
      });
    const given = input as Record<string, unknown>;
    const bad = invalidFields(schema, given);
    if (bad.length)
      return problem(res, 422, 'Input validation failed', bad.map((b) => `- ${b.field}: ${b.description}\n`).join(''), {
        invalid_fields: bad,
      });
    const prompt = String(given.prompt);
    if (prompt.includes('[throttle]'))
      return problem(res, 429, 'Request was throttled', 'Request was throttled. Expected available in 1 second.');
    // Replicate keeps only the inputs the model declares.
    const kept = Object.fromEntries(Object.entries(given).filter(([k]) => k in schema.fields));
    const p: Prediction = {
      id: randomBytes(13).toString('hex').slice(0, 26),
      model,
      version: replicateVersionOf(model),
      input: kept,
      createdAt: Date.now(),
      runMs: prompt.includes('[slow]') ? slowRunMs : runMs,
      outcome: prompt.includes('[nsfw]') || prompt.includes('[fail]') ? 'failed' : 'succeeded',
      error: prompt.includes('[nsfw]')
        ? REPLICATE_NSFW_ERROR
        : prompt.includes('[fail]')
          ? REPLICATE_MODEL_ERROR
          : undefined,
      size: sizeOf(kept),
      count: schema.list ? Number(kept.num_outputs ?? 1) : 1,
      format: typeof kept.output_format === 'string' ? kept.output_format : 'webp',
    };
    predictions.set(p.id, p);
    const wait = waitOf(req.headers.prefer as string | undefined);
    const until = Math.min(p.createdAt + wait, p.createdAt + p.runMs);
    while (Date.now() < until && p.canceledAt === undefined && !res.destroyed)
      await new Promise((r) => setTimeout(r, Math.min(25, until - Date.now())));
    json(res, 201, view(p));
  }

  const server = await listenBuffered({}, async (req, res, raw) => {
    const path = (req.url ?? '').split('?')[0];
    const { body, parsed } = jsonObjectOf(raw);
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, aborted: false });
    // Public delivery: no key, as replicate.delivery serves it.
    const file = /^\/replicate\.delivery\/xezq\/([^/]+)\/out-(\d+)\.(\w+)$/.exec(path);
    if (file && req.method === 'GET') {
      const p = predictions.get(file[1]);
      if (!p || statusOf(p) !== 'succeeded' || Number(file[2]) >= p.count) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('Not Found');
        return;
      }
      const png = fakePng(p.size.width, p.size.height, `${p.id}-${file[2]}`);
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
      res.end(png);
      return;
    }
    if (!authorized(req)) return problem(res, 401, 'Unauthenticated', 'You did not pass a valid authentication token');
    if (req.method === 'POST' && !parsed)
      return problem(res, 400, 'Invalid JSON', 'The request body is not valid JSON.');
    const byModel = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(path);
    if (byModel && req.method === 'POST')
      return create(req, res, `${decodeURIComponent(byModel[1])}/${decodeURIComponent(byModel[2])}`, body);
    if (path === '/v1/predictions' && req.method === 'POST') {
      const version = typeof body.version === 'string' ? body.version : '';
      const [name, id] = version.includes('/') ? version.split(':') : [undefined, version];
      const model =
        name ?? Object.keys(REPLICATE_MODELS).find((m) => replicateVersionOf(m) === id) ?? `version:${version}`;
      if (name && id !== undefined && replicateVersionOf(name) !== id)
        return problem(
          res,
          422,
          'Invalid version or not permitted',
          "The specified version does not exist (or perhaps you don't have permission to use it?)",
        );
      if (!REPLICATE_MODELS[model])
        return problem(
          res,
          422,
          'Invalid version or not permitted',
          "The specified version does not exist (or perhaps you don't have permission to use it?)",
        );
      return create(req, res, model, body);
    }
    const one = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/.exec(path);
    if (one) {
      const p = predictions.get(one[1]);
      if (!p) return problem(res, 404, 'Not found', 'The requested resource could not be found.');
      if (one[2] && req.method === 'POST') {
        const s = statusOf(p);
        if (s === 'starting' || s === 'processing') {
          p.canceledAt = Date.now();
          canceled.push(p.id);
        }
        return json(res, 200, view(p));
      }
      if (!one[2] && req.method === 'GET') return json(res, 200, view(p));
    }
    return problem(res, 404, 'Not found', 'The requested resource could not be found.');
  });
  origin = server.url;
  return { url: server.url, requests, canceled, close: server.close };
}
