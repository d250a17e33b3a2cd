import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ExtraImages, handleExtra } from './openai-extra.ts';
import { type OpenAIImagesState, serveImageFile } from './images/openai.ts';
import { answerChatToolCall } from './openai-agent.ts';
import {
  type Behaviour,
  candidateText,
  choiceCount,
  failureBody,
  fakePromptTokens,
  insufficientQuotaBody,
  invalidKeyBody,
  leakedKeyBody,
  parseBehaviour,
  reasoningDeltas,
  reasoningFields,
} from './behaviour.ts';
import { chatUnits, createKeyMemory, type KeyMemory } from './key-memory.ts';
import type { StrictValidator } from './strict/types.ts';

export interface FakeOptions {
  port?: number;
  host?: string;
  /** Delay before every answer's headers (ms). */
  latencyMs?: number;
  /** Content chunks per answer (also the completion token count). */
  chunks?: number;
  /** Delay between stream chunks (ms). */
  chunkDelayMs?: number;
  /** Strict mode (strict/index.ts): a request the real API would refuse gets its refusal instead of an answer. */
  validate?: StrictValidator;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** The gateway closed the connection before the answer ended. */
  aborted: boolean;
}

export interface FakeUpstream {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A real HTTP server speaking OpenAI's wire format for tests and the bench:
 * chat (JSON and SSE), completions, embeddings, models. Behaviour per request
 * comes from the model name or the key (see behaviour.ts).
 */
export async function startFakeOpenAI(opts: FakeOptions = {}): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const memory = createKeyMemory();
  // The images API (images/openai.ts) for any model name; its picture links are served here too.
  const images: OpenAIImagesState = { origin: '', files: new Map(), seen: [], anyModel: true };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown>;
      try {
        body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
      } catch {
        body = {};
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
      const refusal = opts.validate?.(rec.path, req.headers, body);
      if (refusal) return json(res, refusal.status, refusal.body);
      if (req.method === 'GET' && serveImageFile(images, rec.path, res)) return;
      const raw = { state: images, headers: req.headers, raw: Buffer.concat(chunks) };
      handle(req, res, body, opts, memory, raw).catch(() => res.destroy());
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  images.origin = `http://127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  body: Record<string, unknown>,
  o: FakeOptions,
  memory: KeyMemory,
  images: ExtraImages,
) {
  // Azure deployment URLs (/openai/deployments/{name}/chat/completions) and the version prefixes of
  // OpenAI-compatible vendors (Zhipu /api/paas/v4, VolcEngine /api/v3, Baidu /v2) map onto the same routes.
  const path = (req.url ?? '')
    .split('?')[0]
    .replace(/^\/(v1|v2|api\/v3|api\/paas\/v4)(?=\/)/, '')
    .replace(/^\/openai\/deployments\/[^/]+/, '');
  const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  const leaked = parseBehaviour('', key);
  if (req.method === 'GET' && path === '/models' && leaked.invalidKey && leaked.leakKey)
    return json(res, 401, leakedKeyBody(key));
  if (req.method === 'GET' && path === '/models')
    return json(res, 200, { object: 'list', data: [{ id: 'gpt-4o', object: 'model', created: 0, owned_by: 'fake' }] });
  const model = String(body.model ?? '');
  const b = parseBehaviour(model, key);
  if (b.resetBefore) return void req.socket.destroy();
  const wait = (o.latencyMs ?? 0) + b.slowMs;
  if (wait > 0) await sleep(wait);
  if (b.invalidKey) return json(res, 401, b.leakKey ? leakedKeyBody(key) : invalidKeyBody);
  if (b.quotaExceeded) return json(res, 429, insufficientQuotaBody);
  if (b.failStatus || memory.exhausted(model, key)) {
    const status = b.failStatus ?? 429;
    if (status === 429) res.setHeader('retry-after', '1');
    return json(res, status, failureBody(status));
  }
  if (path === '/embeddings') return embeddings(res, body, model);
  if (handleExtra(path, body, model, res, images)) return;
  const chat = path === '/chat/completions';
  // Read (and remembered) once per request, whichever answer it gets: a tool call or text.
  const cached = chat
    ? memory.cachedTokens(model, key, chatUnits(body), fakePromptTokens(body) + b.cachedTokens)
    : undefined;
  if (chat && answerChatToolCall(res, body, model, cached)) return;
  if (path !== '/chat/completions' && path !== '/completions')
    return json(res, 404, { error: { message: `Unknown path ${path}`, type: 'invalid_request_error' } });
  const limit = Number(body.max_tokens ?? body.max_completion_tokens ?? Infinity);
  const n = Math.min(b.drip ? 40 : (b.chunks ?? o.chunks ?? 5), limit);
  const pieces = Array.from({ length: n }, (_, i) => `w${i} `);
  const thoughts = chat ? Array.from({ length: b.reasoning }, (_, i) => `r${i} `) : [];
  const count = choiceCount(body);
  // Usage counts every completion, as OpenAI bills n choices.
  const usage = makeUsage(body, (n + thoughts.length) * count, b);
  if (cached !== undefined) usage.prompt_tokens_details.cached_tokens = cached;
  const id = `chatcmpl-fake${Date.now()}`;
  if (body.stream !== true) {
    const choices = Array.from({ length: count }, (_, index) => {
      const text = candidateText(pieces.join(''), index);
      const reasoning = reasoningFields(b.reasoningField, thoughts.join(''));
      return chat
        ? { index, message: { role: 'assistant', content: text, ...reasoning }, finish_reason: 'stop' }
        : { index, text, finish_reason: 'stop' };
    });
    return json(res, 200, {
      id,
      object: chat ? 'chat.completion' : 'text_completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices,
      ...(b.noUsage ? {} : { usage }),
    });
  }
  await streamAnswer(res, {
    id,
    model,
    chat,
    pieces,
    thoughts,
    count,
    usage,
    b,
    body,
    delayMs: b.drip ? 100 : (b.gapMs ?? o.chunkDelayMs ?? 0),
  });
}

function makeUsage(body: Record<string, unknown>, completion: number, b: Behaviour) {
  const prompt = fakePromptTokens(body) + b.cachedTokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: b.cachedTokens },
  };
}

interface StreamPlan {
  id: string;
  model: string;
  chat: boolean;
  pieces: string[];
  /** Reasoning pieces, streamed before the content in `b.reasoningField`. */
  thoughts: string[];
  /** Choices (`n`); each piece is streamed once per choice, the choices taking turns. */
  count: number;
  usage: ReturnType<typeof makeUsage>;
  b: Behaviour;
  body: Record<string, unknown>;
  delayMs: number;
}

async function streamAnswer(res: ServerResponse, p: StreamPlan) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  // Headers go out at once, as a real streaming API does before its first token.
  res.flushHeaders();
  if (p.b.hang) return;
  const created = Math.floor(Date.now() / 1000);
  const object = p.chat ? 'chat.completion.chunk' : 'text_completion';
  const send = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    res.write(`data: ${JSON.stringify({ id: p.id, object, created, model: p.model, choices, ...extra })}\n\n`);
  const indexes = Array.from({ length: p.count }, (_, index) => index);
  if (p.chat)
    for (const index of indexes) send([{ index, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
  for (const delta of reasoningDeltas(p.b.reasoningField, p.thoughts)) {
    if (res.destroyed) return;
    if (p.delayMs > 0) await sleep(p.delayMs);
    for (const index of indexes) send([{ index, delta, finish_reason: null }]);
  }
  for (let i = 0; i < p.pieces.length; i++) {
    if (res.destroyed) return;
    if (p.delayMs > 0) await sleep(p.delayMs);
    if (p.b.resetMidStream && i === Math.floor(p.pieces.length / 2)) {
      // Let the first half reach the client before the connection dies.
      await sleep(30);
      return void res.socket?.destroy();
    }
    for (const index of indexes) {
      const piece = candidateText(p.pieces[i], index);
      send([p.chat ? { index, delta: { content: piece }, finish_reason: null } : { index, text: piece }]);
    }
  }
  for (const index of indexes)
    send([p.chat ? { index, delta: {}, finish_reason: 'stop' } : { index, text: '', finish_reason: 'stop' }]);
  const so = p.body.stream_options as { include_usage?: boolean } | undefined;
  if (so?.include_usage && !p.b.noUsage) send([], { usage: p.usage });
  if (!p.b.noDone) res.write('data: [DONE]\n\n');
  res.end();
}

function embeddings(res: ServerResponse, body: Record<string, unknown>, model: string) {
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  const prompt = fakePromptTokens(body);
  return json(res, 200, {
    object: 'list',
    data: inputs.map((_, index) => ({ object: 'embedding', index, embedding: [0.1, 0.2, 0.3, 0.4] })),
    model,
    usage: { prompt_tokens: prompt, total_tokens: prompt },
  });
}

function json(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
