import type { RelayCancel } from '../../cancel.ts';
import { imagesAnswer } from '../../images/image-answer.ts';
import { aspectRatioOf } from '../../images/image-answer.ts';
import { type ImageRequest, pixelSize } from '../../images/image-request.ts';
import type { ImageUpstream } from '../../images/upstream.ts';
import { syntheticAnswer, type UpstreamResponse } from '../../upstream.ts';
import { concurrentCalls, exchange, isOk, pause, type ReadAnswer } from '../shared/image-calls.ts';
import { unparsableUpstreamJson } from '../shared/error-body.ts';
import type { AttemptContext, UpstreamRequest } from '../types.ts';
import { mapReplicateError, problemBody } from './errors.ts';

/*
 * Replicate's predictions API (channel type 56) behind OpenAI's images API. A model is named as on
 * Replicate: `owner/name` runs the official model (`POST /v1/models/{owner}/{name}/predictions`),
 * `owner/name:<version>` or a bare version id runs that version (`POST /v1/predictions`). The request
 * asks `Prefer: wait` (Replicate holds the answer up to 60 s); a prediction still running then is
 * polled at `/v1/predictions/{id}` until it ends, and canceled when the client goes away or the
 * deadline passes, so nobody pays Replicate for a picture no one will see. Outputs are public
 * replicate.delivery URLs: they pass through (delivery.ts downloads them for `b64_json`).
 */

type Json = Record<string, unknown>;

/** Waits between polls once the held answer came back unfinished. */
const POLL_STEPS_MS = [250, 500, 1000, 2000];
/** A prediction not finished after this long is canceled and the attempt fails (retryable). */
let predictionDeadlineMs = 300_000;

/** For tests: how long a prediction may run before it is given up. */
export function setReplicateDeadline(ms: number): void {
  predictionDeadlineMs = ms;
}

/** The aspect ratios flux and most Replicate image models take. */
const RATIOS = ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'];

/** Fields of OpenAI's images API that mean nothing to a Replicate model. */
const OPENAI_ONLY = new Set(['user', 'moderation', 'output_compression', 'partial_images', 'stream', 'input']);

const dataUri = (img: { mediaType: string; data: string }) => `data:${img.mediaType};base64,${img.data}`;

/** Where a model takes its input picture: flux-kontext `input_image`, flux-pro `image_prompt`, the rest `image`. */
function imageField(model: string): string {
  if (model.includes('kontext')) return 'input_image';
  if (/flux-(1\.1-)?pro/.test(model)) return 'image_prompt';
  return 'image';
}

/** The prediction's `input` for the client's request. */
export function replicateInput(model: string, req: ImageRequest): Json {
  const input: Json = { prompt: req.prompt };
  if (req.n > 1) input.num_outputs = req.n;
  const px = pixelSize(req.size);
  if (req.aspectRatio) input.aspect_ratio = req.aspectRatio;
  else if (px) input.aspect_ratio = aspectRatioOf(px.width, px.height, RATIOS);
  if (req.outputFormat) input.output_format = req.outputFormat === 'jpeg' ? 'jpg' : req.outputFormat;
  if (req.seed !== undefined) input.seed = req.seed;
  if (req.negativePrompt) input.negative_prompt = req.negativePrompt;
  if (req.images[0]) input[imageField(model)] = dataUri(req.images[0]);
  if (req.mask) input.mask = dataUri(req.mask);
  // Model-specific inputs: a client's own `input` object, then any other field it sent (as new-api does).
  for (const [k, v] of Object.entries(req.extra)) if (!OPENAI_ONLY.has(k)) input[k] = v;
  const own = req.extra.input;
  if (own && typeof own === 'object' && !Array.isArray(own)) Object.assign(input, own);
  return input;
}

/** `owner/name` -> the model's endpoint; `owner/name:version` or a version id -> /v1/predictions. */
function predictionTarget(root: string, model: string, input: Json): { url: string; body: Json } {
  const official = /^([^/:]+)\/([^/:]+)$/.exec(model);
  if (official)
    return {
      url: `${root}/v1/models/${encodeURIComponent(official[1])}/${encodeURIComponent(official[2])}/predictions`,
      body: { input },
    };
  return { url: `${root}/v1/predictions`, body: { version: model, input } };
}

const rootOf = (ctx: AttemptContext) => ctx.channel.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');

interface Prediction {
  id?: string;
  status?: string;
  output?: unknown;
  error?: unknown;
  urls?: { get?: string; cancel?: string };
}

const parse = (text: string): Prediction => {
  try {
    return JSON.parse(text) as Prediction;
  } catch {
    throw unparsableUpstreamJson();
  }
};

const FINAL = new Set(['succeeded', 'failed', 'canceled', 'aborted']);

/** A prediction's output as a list of URLs (a list, or one URL for single-output models). */
export const outputUrls = (output: unknown): string[] =>
  (Array.isArray(output) ? output : [output]).filter((u): u is string => typeof u === 'string' && u !== '');

/** A prediction that did not succeed, as the HTTP answer the relay reads: an NSFW refusal is the prompt's fault. */
function failedPrediction(p: Prediction): ReadAnswer {
  const detail =
    typeof p.error === 'string' && p.error ? p.error : `The prediction ended ${p.status ?? 'without output'}`;
  const status = /nsfw|sensitive|safety|flagged/i.test(detail) ? 400 : 502;
  return { status, text: problemBody(status, 'Prediction failed', detail) };
}

/** Runs one prediction to its end: the held answer, then polls; canceled on the client's departure or the deadline. */
async function runPrediction(
  ctx: AttemptContext,
  req: UpstreamRequest,
  signal: AbortSignal | RelayCancel,
): Promise<ReadAnswer & { prediction?: Prediction }> {
  const created = await exchange(req, signal, ctx.headersTimeoutMs);
  if (!isOk(created)) return created;
  let p = parse(created.text);
  if (!p.id) return { status: 502, text: problemBody(502, 'Bad response', 'Replicate answered no prediction id') };
  const root = rootOf(ctx);
  const auth = { authorization: req.headers.authorization };
  const poll: UpstreamRequest = {
    url: `${root}/v1/predictions/${encodeURIComponent(p.id)}`,
    method: 'GET',
    headers: auth,
  };
  // Not the client's signal: the cancel must go out after the client left.
  const cancel = () =>
    exchange({ ...poll, url: `${poll.url}/cancel`, method: 'POST' }, AbortSignal.timeout(10_000)).catch(
      () => undefined,
    );
  const deadline = Date.now() + predictionDeadlineMs;
  try {
    for (let step = 0; !FINAL.has(p.status ?? ''); step++) {
      if (Date.now() >= deadline) {
        void cancel();
        return {
          status: 504,
          text: problemBody(504, 'Prediction timed out', `The prediction ${p.id} did not finish in time`),
        };
      }
      await pause(POLL_STEPS_MS[Math.min(step, POLL_STEPS_MS.length - 1)], signal);
      const polled = await exchange(poll, signal, ctx.headersTimeoutMs);
      if (!isOk(polled)) return polled;
      p = parse(polled.text);
    }
  } catch (err) {
    if (signal.aborted) void cancel();
    throw err;
  }
  if (p.status !== 'succeeded' || outputUrls(p.output).length === 0) return failedPrediction(p);
  return { status: 200, text: JSON.stringify(p), prediction: p };
}

export const replicateImages: ImageUpstream = {
  id: 'replicate',
  modes: ['images', 'image_edits'],

  buildRequest(ctx, req) {
    const { url, body } = predictionTarget(rootOf(ctx), ctx.upstreamModel, replicateInput(ctx.upstreamModel, req));
    return {
      url,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${ctx.key}`,
        prefer: 'wait',
      },
      body: JSON.stringify(body),
    };
  },

  /**
   * One prediction to its end. A model with a single output (its `output` one URL, not a list) ignores
   * num_outputs: for `n` pictures the rest are asked as predictions of their own, at once.
   */
  async send(ctx, req, signal): Promise<UpstreamResponse> {
    const first = await runPrediction(ctx, req, signal);
    if (!first.prediction) return syntheticAnswer(first.status, first.text);
    const wanted = Number((JSON.parse(String(req.body)) as { input?: Json }).input?.num_outputs ?? 1);
    const urls = outputUrls(first.prediction.output);
    if (typeof first.prediction.output === 'string' && wanted > 1) {
      const more = await concurrentCalls(wanted - 1, () => runPrediction(ctx, req, signal));
      if ('ok' in more) for (const a of more.ok) urls.push(...outputUrls(parse(a.text).output));
    }
    return syntheticAnswer(200, JSON.stringify({ ...first.prediction, output: urls }));
  },

  convertResponse(_ctx, text) {
    const urls = outputUrls(parse(text).output);
    return { body: imagesAnswer(urls.map((url) => ({ url, mimeType: mimeOf(url) }))) };
  },

  mapError: mapReplicateError,
};

/** The picture's type from the delivery URL's extension (Replicate names them out-0.webp...). */
function mimeOf(url: string): string | undefined {
  const ext = /\.(\w+)(?:\?|$)/.exec(url)?.[1]?.toLowerCase();
  if (ext === 'jpg' || ext === 'jpeg') return 'image/jpeg';
  if (ext === 'png' || ext === 'webp' || ext === 'gif') return `image/${ext}`;
  return undefined;
}
