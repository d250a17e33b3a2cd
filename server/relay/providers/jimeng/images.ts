import { refusal } from '../../errors.ts';
import { type GeneratedImage, imagesAnswer } from '../../images/image-answer.ts';
import { type ImageRequest, pixelSize } from '../../images/image-request.ts';
import type { ImageUpstream } from '../../images/upstream.ts';
import type { RelayCancel } from '../../cancel.ts';
import { unparsableUpstreamJson } from '../shared/error-body.ts';
import type { AttemptContext, UpstreamError, UpstreamRequest } from '../types.ts';
import { type ReadAnswer, exchange, pause } from '../shared/image-calls.ts';
import { bodyOfCall, callsOf, fanOut, mimeOfBase64, repeated } from '../volcengine/image-calls.ts';
import { parseVolcKey, signVolcV4 } from './sign.ts';

/*
 * Jimeng pictures (channel type 51, issue 44) on Volcengine's visual API, the same async pair as its
 * videos: CVSync2AsyncSubmitTask, then CVSync2AsyncGetResult polled until `done`, every call signed
 * with the channel's `AK|SK` (sign.ts). The model name is the req_key: jimeng_t2i_v40 (Jimeng 4.0:
 * text-to-image and edits of up to 10 pictures), jimeng_t2i_v31 / jimeng_t2i_v30 (text only),
 * jimeng_i2i_v30 (edits one picture). A task makes one picture (4.0 is told `force_single`, else it
 * decides how many from the prompt and bills them all): `n` pictures are `n` tasks. Pictures come back
 * as base64, or, with `return_url` in GetResult's req_json, as public links valid 24 h that pass on.
 */

type Json = Record<string, unknown>;

const VERSION = '2022-08-31';
const SCOPE = { region: 'cn-north-1', service: 'cv' };
const RETURN_URL_HEADER = 'x-switchyard-return-url';
/** Waits between polls: pictures take seconds, so quick at first, then every 2 s. */
const POLL_STEPS_MS = [300, 500, 1000, 2000];
const TASK_DEADLINE_MS = 300_000;

/** What each req_key takes: edits (input pictures) and the size fields. */
const REQ_KEYS: Record<string, { edit: 'no' | 'optional' | 'required'; area: boolean }> = {
  jimeng_t2i_v40: { edit: 'optional', area: true },
  jimeng_t2i_v31: { edit: 'no', area: false },
  jimeng_t2i_v30: { edit: 'no', area: false },
  jimeng_i2i_v30: { edit: 'required', area: false },
};

/** Jimeng's recommended sizes per aspect ratio (for a door that gives a ratio): 3.x, and 4.0 at 2K. */
const RATIO_SIZES: Record<string, [[number, number], [number, number]]> = {
  '1:1': [
    [1328, 1328],
    [2048, 2048],
  ],
  '4:3': [
    [1472, 1104],
    [2304, 1728],
  ],
  '3:4': [
    [1104, 1472],
    [1728, 2304],
  ],
  '3:2': [
    [1584, 1056],
    [2496, 1664],
  ],
  '2:3': [
    [1056, 1584],
    [1664, 2496],
  ],
  '16:9': [
    [1664, 936],
    [2560, 1440],
  ],
  '9:16': [
    [936, 1664],
    [1440, 2560],
  ],
  '21:9': [
    [2016, 864],
    [3024, 1296],
  ],
};

const TIERS: Record<string, number> = { '1K': 1024, '2K': 2048, '4K': 4096 };
const Passed = ['scale', 'use_pre_llm', 'min_ratio', 'max_ratio'];

function sizeFields(reqKey: string, req: ImageRequest): Json {
  const v40 = REQ_KEYS[reqKey]?.area ?? false;
  if (req.size && req.size !== 'auto') {
    const px = pixelSize(req.size);
    if (px) return { width: px.width, height: px.height };
    if (v40 && TIERS[req.size]) return { size: TIERS[req.size] ** 2 };
    throw refusal(
      400,
      `Jimeng takes a size as WIDTHxHEIGHT${v40 ? ' or 1K/2K/4K' : ''}, not ${req.size}`,
      `即梦的尺寸应为 宽x高${v40 ? ' 或 1K/2K/4K' : ''}，而不是 ${req.size}`,
    );
  }
  if (req.aspectRatio) {
    const pair = RATIO_SIZES[req.aspectRatio];
    if (!pair)
      throw refusal(
        400,
        `Jimeng has no aspect ratio ${req.aspectRatio} (it takes ${Object.keys(RATIO_SIZES).join(', ')})`,
        `即梦不支持宽高比 ${req.aspectRatio}（可选 ${Object.keys(RATIO_SIZES).join('、')}）`,
      );
    const [width, height] = pair[v40 ? 1 : 0];
    return { width, height };
  }
  return {};
}

function submitBody(reqKey: string, req: ImageRequest): Json {
  const spec = REQ_KEYS[reqKey];
  if (req.edit && spec?.edit === 'no')
    throw refusal(
      400,
      `${reqKey} does not edit pictures: use jimeng_t2i_v40 or jimeng_i2i_v30`,
      `${reqKey} 不支持图片编辑，请使用 jimeng_t2i_v40 或 jimeng_i2i_v30`,
    );
  if (!req.edit && spec?.edit === 'required')
    throw refusal(
      400,
      `${reqKey} edits a picture: call /v1/images/edits with the image`,
      `${reqKey} 用于编辑图片，请通过 /v1/images/edits 上传图片`,
    );
  if (req.mask) throw refusal(400, 'Jimeng edits by the prompt and takes no mask', '即梦按提示词编辑图片，不接受蒙版');
  if (req.edit && !req.images.length) throw refusal(400, 'An image edit needs an image', '图片编辑需要提供图片');
  if (reqKey === 'jimeng_i2i_v30' && req.images.length > 1)
    throw refusal(400, 'jimeng_i2i_v30 edits one picture at a time', 'jimeng_i2i_v30 一次只能编辑一张图片');
  const body: Json = { req_key: reqKey, prompt: req.prompt, ...sizeFields(reqKey, req) };
  if (req.images.length) body.binary_data_base64 = req.images.map((i) => i.data);
  if (req.seed !== undefined && !spec?.area) body.seed = req.seed;
  if (spec?.area) body.force_single = true;
  for (const k of Passed) if (req.extra[k] !== undefined) body[k] = req.extra[k];
  return body;
}

/** One signed visual API call, read whole. */
function visualCall(
  ctx: AttemptContext,
  base: string,
  action: string,
  body: string,
  signal: AbortSignal | RelayCancel,
): Promise<ReadAnswer> {
  const url = `${base}/?Action=${action}&Version=${VERSION}`;
  const headers = signVolcV4(
    { method: 'POST', url, body, contentType: 'application/json' },
    parseVolcKey(ctx.key),
    SCOPE,
  );
  return exchange({ url, method: 'POST', headers, body }, signal, ctx.headersTimeoutMs);
}

interface JimengAnswer {
  code?: number;
  message?: string;
  data?: {
    task_id?: string;
    status?: string;
    binary_data_base64?: string[] | null;
    image_urls?: string[] | null;
  } | null;
  ResponseMetadata?: { Error?: { Code?: string; Message?: string } };
}

const parse = (text: string): JimengAnswer => {
  try {
    return JSON.parse(text) as JimengAnswer;
  } catch {
    throw unparsableUpstreamJson();
  }
};

const jimengFailure = (status: number, code: string, message: string): ReadAnswer => ({
  status,
  text: JSON.stringify({ code, message }),
});

/** One task: submitted, then polled until Jimeng has its pictures or says why not. */
async function runTask(
  ctx: AttemptContext,
  base: string,
  submit: string,
  returnUrl: boolean,
  signal: AbortSignal | RelayCancel,
): Promise<ReadAnswer> {
  const sent = await visualCall(ctx, base, 'CVSync2AsyncSubmitTask', submit, signal);
  const s = sent.status === 200 ? parse(sent.text) : undefined;
  if (!s || s.code !== 10000 || !s.data?.task_id) return sent.status === 200 ? { ...sent, status: 502 } : sent;
  const poll = JSON.stringify({
    req_key: (JSON.parse(submit) as Json).req_key,
    task_id: s.data.task_id,
    req_json: JSON.stringify({ return_url: returnUrl }),
  });
  const deadline = Date.now() + TASK_DEADLINE_MS;
  for (let step = 0; Date.now() < deadline; step++) {
    await pause(POLL_STEPS_MS[Math.min(step, POLL_STEPS_MS.length - 1)], signal);
    const got = await visualCall(ctx, base, 'CVSync2AsyncGetResult', poll, signal);
    // A failed task (its review, a generation error) answers its code with a 4xx/5xx: final for this call.
    if (got.status !== 200) return got;
    const a = parse(got.text);
    if (a.code !== 10000) return { ...got, status: 502 };
    const state = a.data?.status;
    if (state === 'done') return got;
    if (state === 'not_found' || state === 'expired')
      return jimengFailure(502, state, `Jimeng lost the task (${state})`);
  }
  return jimengFailure(504, 'timeout', 'The Jimeng task did not finish in time');
}

/** Several tasks' answers as one: their pictures in order. */
function mergeAnswers(texts: string[]): string {
  const data = texts.map((t) => parse(t).data ?? {});
  return JSON.stringify({
    code: 10000,
    data: {
      status: 'done',
      binary_data_base64: data.flatMap((d) => d.binary_data_base64 ?? []),
      image_urls: data.flatMap((d) => d.image_urls ?? []),
    },
  });
}

export const jimengImages: ImageUpstream = {
  id: 'jimeng',
  modes: ['images', 'image_edits'],

  buildRequest(ctx, req): UpstreamRequest {
    parseVolcKey(ctx.key); // a malformed key is the operator's to fix, said before any call
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (req.responseFormat !== 'b64_json') headers[RETURN_URL_HEADER] = '1';
    return repeated(
      {
        url: ctx.channel.baseUrl.replace(/\/+$/, ''),
        method: 'POST',
        headers,
        body: JSON.stringify(submitBody(ctx.upstreamModel, req)),
      },
      req.n,
    );
  },

  async send(ctx, request, signal) {
    const { n, req } = callsOf(request);
    const returnUrl = req.headers[RETURN_URL_HEADER] === '1';
    return fanOut(n, (i) => runTask(ctx, req.url, bodyOfCall(String(req.body), i), returnUrl, signal), mergeAnswers);
  },

  convertResponse(_ctx, text) {
    const d = parse(text).data ?? {};
    const images: GeneratedImage[] = [
      ...(d.binary_data_base64 ?? []).map((b64) => ({ b64, mimeType: mimeOfBase64(b64) })),
      ...(d.image_urls ?? []).map((url) => ({ url })),
    ];
    return { body: imagesAnswer(images) };
  },

  mapError(status, text): UpstreamError | undefined {
    let a: JimengAnswer;
    try {
      a = JSON.parse(text) as JimengAnswer;
    } catch {
      return undefined;
    }
    const meta = a.ResponseMetadata?.Error;
    if (meta?.Code)
      return {
        status,
        message: `Jimeng refused the request: ${meta.Message ?? meta.Code} (${meta.Code})`,
        code: meta.Code,
      };
    if (a.code === undefined) return undefined;
    return { status, message: `Jimeng: ${a.message ?? 'the task failed'} (${a.code})`, code: String(a.code) };
  },
};
