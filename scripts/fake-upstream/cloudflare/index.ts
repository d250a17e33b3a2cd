import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nativeBehaviour, PIECES, sendJson, sleep } from '../native-http.ts';
import type { FakeUpstream, RecordedRequest } from '../server.ts';
import { checkChat } from '../strict/openai-chat.ts';

/** The fake's one API token and account id (a request with another answers as Cloudflare does). */
export const FAKE_CF_TOKEN = 'fake-cloudflare-api-token';
export const FAKE_CF_ACCOUNT = '0123456789abcdef0123456789abcdef';

/** Fixed usage of every chat answer (the conformance entry bills it). */
export const CF_USAGE = { prompt_tokens: 13, completion_tokens: 5, total_tokens: 18 };

/** Cloudflare's refusal of a `+fail-400` model: its API envelope with a Workers AI error code. */
export const CF_FAIL_400 = {
  code: 5006,
  message: "AiError: AiError: Bad input: Error: oneOf at '/' not met, 0 matches",
};

/** The transcript whisper gives for any audio. */
export const CF_TRANSCRIPT = 'hello from the fake whisper';

/** The models the account's catalogue lists (`GET .../ai/models/search`). */
export const CF_CATALOGUE = ['@cf/meta/llama-3.1-8b-instruct', '@cf/baai/bge-m3', '@cf/openai/whisper'];

type Json = Record<string, unknown>;

/** Cloudflare's API envelope for a failure: `{success: false, errors: [{code, message}], messages: [], result: null}`. */
const cfError = (res: ServerResponse, status: number, code: number, message: string) =>
  sendJson(res, status, { success: false, errors: [{ code, message }], messages: [], result: null });

const route = (path: string) =>
  /^\/client\/v4\/accounts\/([^/]+)\/ai\/(v1\/chat\/completions|v1\/embeddings|models\/search|run\/(.+))$/.exec(path);

async function chat(res: ServerResponse, body: Json) {
  const refused = checkChat(body, 'deepseek');
  if (refused) {
    const e = (refused.body as { error?: { message?: string } }).error;
    return cfError(res, 400, 5006, `AiError: Bad input: ${e?.message ?? JSON.stringify(refused.body)}`);
  }
  const model = String(body.model);
  if (!model.startsWith('@cf/') && !model.startsWith('@hf/'))
    return cfError(res, 400, 5007, `No such model ${model} or task`);
  if (nativeBehaviour(model, '').failStatus === 400) return cfError(res, 400, CF_FAIL_400.code, CF_FAIL_400.message);
  const id = `id-${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  if (body.stream !== true)
    return sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: PIECES.join('') }, finish_reason: 'stop' }],
      usage: CF_USAGE,
    });
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (o: Json) =>
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, ...o })}\n\n`);
  for (const [i, piece] of PIECES.entries()) {
    const last = i === PIECES.length - 1;
    chunk({
      choices: [{ index: 0, delta: { role: 'assistant', content: piece }, finish_reason: last ? 'stop' : null }],
    });
    await sleep(1);
  }
  const so = body.stream_options as { include_usage?: boolean } | undefined;
  if (so?.include_usage) chunk({ choices: [], usage: CF_USAGE });
  res.end('data: [DONE]\n\n');
}

function embeddings(res: ServerResponse, body: Json) {
  const input = body.input;
  const inputs = typeof input === 'string' ? [input] : Array.isArray(input) ? input : undefined;
  if (!inputs?.length || !inputs.every((s) => typeof s === 'string'))
    return cfError(res, 400, 5006, "AiError: Bad input: required properties at '/' are 'input'");
  const tokens = inputs.reduce((n: number, s: string) => n + Math.ceil(s.length / 4), 0);
  sendJson(res, 200, {
    object: 'list',
    model: body.model,
    data: inputs.map((_, i) => ({ object: 'embedding', index: i, embedding: [0.5, 0.25, 0.125, i] })),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

/** `@cf/openai/whisper`: the audio file's bytes as the body, the transcript in the API envelope. */
function whisper(res: ServerResponse, model: string, req: IncomingMessage, raw: Buffer) {
  if (model !== '@cf/openai/whisper' && model !== '@cf/openai/whisper-tiny-en')
    return cfError(res, 400, 5007, `No such model ${model} or task`);
  const type = String(req.headers['content-type'] ?? '');
  if (raw.length === 0 || type.startsWith('application/json') || type.startsWith('multipart/'))
    return cfError(res, 400, 5006, "AiError: Bad input: Type mismatch of '/audio', 'array' not in 'string'");
  const words = CF_TRANSCRIPT.split(' ').map((word, i) => ({ word, start: i * 0.5, end: i * 0.5 + 0.4 }));
  sendJson(res, 200, {
    result: {
      text: CF_TRANSCRIPT,
      word_count: words.length,
      words,
      vtt: `WEBVTT\n\n00:00.000 --> 00:02.400\n${CF_TRANSCRIPT}\n\n`,
    },
    success: true,
    errors: [],
    messages: [],
  });
}

/**
 * A fake Cloudflare Workers AI account API: `/client/v4/accounts/{id}/ai/v1/chat/completions`
 * (JSON and SSE, OpenAI's shape, messages checked as strict OpenAI-compatible vendors check them),
 * `/ai/v1/embeddings`, `/ai/run/@cf/openai/whisper` (raw audio bytes) and `/ai/models/search`.
 * The bearer token and the account id in the path are checked first, answered with Cloudflare's
 * envelope (10000 Authentication error, 7003 for an unknown account). `+fail-400` models get
 * Workers AI's bad-input error.
 */
export async function startFakeCloudflare(port = 0): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: Json = {};
      if (String(req.headers['content-type'] ?? '').startsWith('application/json'))
        try {
          body = JSON.parse(raw.toString('utf8')) as Json;
        } catch {
          return cfError(res, 400, 5006, 'AiError: Bad input: the body is not JSON');
        }
      const rec: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        aborted: false,
      };
      requests.push(rec);
      res.on('close', () => {
        if (!res.writableFinished) rec.aborted = true;
      });
      void handle(req, res, body, raw).catch(() => res.destroy());
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse, body: Json, raw: Buffer) {
    const m = route((req.url ?? '').split('?')[0]);
    if (!m) return cfError(res, 404, 7000, 'No route for that URI');
    if (req.headers.authorization !== `Bearer ${FAKE_CF_TOKEN}`)
      return cfError(res, 401, 10000, 'Authentication error');
    if (m[1] !== FAKE_CF_ACCOUNT)
      return cfError(
        res,
        403,
        7003,
        'Could not route to /client/v4/accounts/' + m[1] + ', perhaps your object identifier is invalid?',
      );
    if (m[2] === 'models/search') {
      if (req.method !== 'GET') return cfError(res, 405, 10405, 'Method not allowed');
      return sendJson(res, 200, {
        success: true,
        errors: [],
        messages: [],
        result: CF_CATALOGUE.map((name, i) => ({ id: `model-${i}`, name, task: { name: 'Text Generation' } })),
      });
    }
    if (req.method !== 'POST') return cfError(res, 405, 10405, 'Method not allowed');
    if (m[2] === 'v1/chat/completions') return chat(res, body);
    if (m[2] === 'v1/embeddings') return embeddings(res, body);
    return whisper(res, decodeURIComponent(m[3]), req, raw);
  }
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
