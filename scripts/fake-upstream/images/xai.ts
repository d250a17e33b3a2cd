import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { RecordedRequest } from '../server.ts';
import { fakePng, jsonObjectOf, listenBuffered, pictureHost } from './shared.ts';

/*
 * A strict fake of xAI's image generation (channel type 48), as docs.x.ai documents it: `POST
 * /v1/images/generations` `{model, prompt, n (1..10), response_format (url | b64_json), user}`.
 * xAI refuses OpenAI's `size`, `quality` and `style` ("Argument not supported") and any other field.
 * Answers `{data: [{url | b64_json, revised_prompt}]}` (the fake's pictures are 1024x768 PNGs, labelled
 * `grok-<n>`; xAI's are JPEGs of that size). Errors are xAI's `{code, error}`: a wrong key is 400
 * ("Incorrect API key provided"), a missing one 401, an unknown model 404, `[busy]` in the prompt 429.
 */

export const FAKE_XAI_KEY = 'xai-fakeKey0000000000000000000000000000';
export const XAI_SIZE = { width: 1024, height: 768 };

const MODELS = new Set(['grok-2-image', 'grok-2-image-1212', 'grok-2-image-latest']);
const FIELDS = new Set(['model', 'prompt', 'n', 'response_format', 'user']);
const INVALID = 'Client specified an invalid argument';

const xaiError = (res: ServerResponse, status: number, code: string, error: string) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ code, error }));
};

export interface FakeXai {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeXai(): Promise<FakeXai> {
  const requests: RecordedRequest[] = [];
  const host = pictureHost('xai-imgen');
  let made = 0;
  const server = await listenBuffered({}, (req, res, raw) => {
    const path = (req.url ?? '').split('?')[0];
    const { body, parsed } = jsonObjectOf(raw);
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, aborted: false });
    if (host.serve(req.method, path, res)) return;
    if (path !== '/v1/images/generations' || req.method !== 'POST')
      return xaiError(res, 404, 'Some requested entity was not found', 'Not found');
    const auth = req.headers.authorization;
    if (!auth) return xaiError(res, 401, 'Unauthenticated', 'No API key provided.');
    if (auth !== `Bearer ${FAKE_XAI_KEY}`)
      return xaiError(
        res,
        400,
        INVALID,
        `Incorrect API key provided: ${auth.slice(7, 11)}***. You can obtain an API key from https://console.x.ai.`,
      );
    if (!parsed) return xaiError(res, 400, INVALID, 'Failed to deserialize the JSON body into the target type');
    for (const k of Object.keys(body))
      if (!FIELDS.has(k)) return xaiError(res, 400, INVALID, `Argument not supported: ${k}`);
    const model = String(body.model ?? '');
    if (!MODELS.has(model))
      return xaiError(
        res,
        404,
        'Some requested entity was not found',
        `The model ${model} does not exist or your team does not have access to it.`,
      );
    if (typeof body.prompt !== 'string' || !body.prompt) return xaiError(res, 400, INVALID, 'prompt must not be empty');
    const n = body.n ?? 1;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 10)
      return xaiError(res, 400, INVALID, 'n must be between 1 and 10');
    const format = body.response_format ?? 'url';
    if (format !== 'url' && format !== 'b64_json')
      return xaiError(res, 400, INVALID, `Invalid response_format: ${String(format)}`);
    if (body.prompt.includes('[busy]'))
      return xaiError(res, 429, 'Too many requests', 'Your team has exceeded its rate limit.');
    const data = Array.from({ length: n }, () => {
      const png = fakePng(XAI_SIZE.width, XAI_SIZE.height, `grok-${++made}`);
      const revised_prompt = `A detailed picture of ${String(body.prompt)}.`;
      if (format === 'b64_json') return { b64_json: png.toString('base64'), revised_prompt };
      const id = `xai-tmp-imgen-${randomBytes(8).toString('hex')}`;
      return { url: host.keep(id, png), revised_prompt };
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data }));
  });
  host.listening(server.url);
  return { url: server.url, requests, close: server.close };
}
