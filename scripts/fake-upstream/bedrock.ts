import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Sha256 } from '@aws-crypto/sha256-js';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { SignatureV4 } from '@smithy/signature-v4';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { anthropicAnswer, anthropicStreamEvents } from './anthropic.ts';
import { fakeNativePrompt, nativeBehaviour, PIECES, sendJson, startRecordingServer } from './native-http.ts';
import type { FakeUpstream } from './server.ts';

/** The secret every access key of the fake has; a request signed with another one fails as on AWS. */
export const FAKE_BEDROCK_SECRET = 'fake-bedrock-secret';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** Bedrock's error answer: `{"message"}` with the exception named in x-amzn-ErrorType. */
function bedrockError(res: ServerResponse, status: number, exception: string, message: string) {
  res.setHeader('x-amzn-errortype', `${exception}:http://internal.amazon.com/coral/com.amazon.bedrock/`);
  sendJson(res, status, { message });
}

const FAILURES: Record<number, [string, string]> = {
  400: ['ValidationException', 'Malformed input request: #: required key [messages] not found'],
  403: ['AccessDeniedException', "You don't have access to the model with the specified model ID."],
  429: ['ThrottlingException', 'Too many requests, please wait before trying again.'],
  500: ['InternalServerException', 'The server encountered an internal error.'],
  503: ['ServiceUnavailableException', 'Bedrock is unable to process your request.'],
};

/**
 * Recomputes the SigV4 signature over what arrived (the signed headers the client listed,
 * at the time it stamped) with the fake's secret, as AWS does; true when it matches.
 */
async function signatureMatches(req: IncomingMessage, raw: string): Promise<boolean> {
  const auth = String(req.headers.authorization ?? '');
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/bedrock\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  if (!m || !/^\d{8}T\d{6}Z$/.test(amzDate)) return false;
  const [, accessKeyId, , region, signedHeaders] = m;
  // A payload hash header must be the hash of the bytes that arrived (AWS refuses a mismatch).
  const payloadHash = req.headers['x-amz-content-sha256'];
  if (payloadHash !== undefined && payloadHash !== createHash('sha256').update(raw).digest('hex')) return false;
  const headers: Record<string, string> = {};
  for (const name of signedHeaders.split(';')) headers[name] = String(req.headers[name] ?? '');
  const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
  const signer = new SignatureV4({
    credentials: { accessKeyId, secretAccessKey: FAKE_BEDROCK_SECRET },
    region,
    service: 'bedrock',
    sha256: Sha256,
  });
  const at = new Date(
    `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
  );
  const expected = await signer.sign(
    {
      method: req.method ?? 'POST',
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      // The path as sent (model id percent-encoded): the signer escapes it once more, as on the client.
      path: url.pathname,
      query: {},
      headers,
      body: raw,
    },
    { signingDate: at },
  );
  return expected.headers.authorization === auth;
}

/** One event-stream message with a JSON payload: an event (named by `:event-type`) or an exception. */
function frameOf(kind: 'event' | 'exception', name: string, payload: object): Uint8Array {
  return codec.encode({
    headers: {
      [kind === 'event' ? ':event-type' : ':exception-type']: { type: 'string', value: name },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: kind },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

/** A named Converse event, or InvokeModel's `chunk`, padded as Bedrock pads them. */
const eventMessage = (type: string, payload: object) => frameOf('event', type, { ...payload, p: 'abcdefghij' });

/** InvokeModel frames an Anthropic event as `{"bytes": base64}` in a `chunk` event. */
const chunkMessage = (event: object) =>
  eventMessage('chunk', { bytes: Buffer.from(JSON.stringify(event)).toString('base64') });

/** Writes frames as a stream, each in two pieces, so a decoder must join frames across reads. */
async function writeFrames(res: ServerResponse, frames: Uint8Array[]) {
  res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
  for (const frame of frames) {
    const cut = Math.floor(frame.length / 2);
    res.write(frame.subarray(0, cut));
    await new Promise((r) => setImmediate(r));
    res.write(frame.subarray(cut));
  }
  res.end();
}

type ConverseMessage = { role?: string; content?: Record<string, unknown>[] };

/** Bedrock's own checks of a Converse body that the relay could get wrong. */
function converseProblem(body: Record<string, unknown>): string | undefined {
  const allowed = new Set(['messages', 'system', 'inferenceConfig', 'toolConfig', 'additionalModelRequestFields']);
  const extra = Object.keys(body).find((k) => !allowed.has(k));
  if (extra) return `Malformed input request: extraneous key [${extra}] is not permitted`;
  const messages = (body.messages ?? []) as ConverseMessage[];
  if (messages[0]?.role !== 'user') return 'A conversation must start with a user message.';
  for (let i = 1; i < messages.length; i++)
    if (messages[i].role === messages[i - 1].role)
      return 'A conversation must alternate between user and assistant roles.';
  const blockKeys = new Set(['text', 'image', 'toolUse', 'toolResult']);
  for (const m of messages)
    for (const b of m.content ?? [])
      if (Object.keys(b).length !== 1 || !blockKeys.has(Object.keys(b)[0])) return 'Invalid content block.';
  return undefined;
}

/** A Converse answer: a tool call when tools are offered and the last turn is no tool result, else text. */
function converseAnswer(body: Record<string, unknown>, b: ReturnType<typeof nativeBehaviour>) {
  const messages = (body.messages ?? []) as ConverseMessage[];
  const lastIsToolResult = (messages.at(-1)?.content ?? []).some((c) => 'toolResult' in c);
  const tools = ((body.toolConfig as { tools?: { toolSpec?: { name?: string } }[] } | undefined)?.tools ?? []).map(
    (t) => t.toolSpec?.name ?? '',
  );
  const maxTokens = Number((body.inferenceConfig as { maxTokens?: number } | undefined)?.maxTokens ?? 5);
  const usage = {
    inputTokens: fakeNativePrompt(messages, body.system),
    outputTokens: 0,
    totalTokens: 0,
    cacheReadInputTokens: b.cacheRead,
    cacheWriteInputTokens: b.cacheWrite,
  };
  let content: Record<string, unknown>[];
  let stopReason = 'end_turn';
  if (tools.length > 0 && !lastIsToolResult) {
    content = [{ toolUse: { toolUseId: 'tooluse_fake1', name: tools[0], input: { location: 'Paris' } } }];
    usage.outputTokens = 7;
    stopReason = 'tool_use';
  } else {
    const n = Math.max(0, Math.min(PIECES.length, maxTokens));
    content = [{ text: PIECES.slice(0, n).join('') }];
    usage.outputTokens = n;
    if (n < PIECES.length) stopReason = 'max_tokens';
  }
  usage.totalTokens = usage.inputTokens + usage.outputTokens;
  return { output: { message: { role: 'assistant', content } }, stopReason, usage, metrics: { latencyMs: 12 } };
}

/** The ConverseStream event sequence for an answer. */
function converseFrames(a: ReturnType<typeof converseAnswer>): Uint8Array[] {
  const frames = [eventMessage('messageStart', { role: 'assistant' })];
  const block = a.output.message.content[0] as {
    text?: string;
    toolUse?: { toolUseId: string; name: string; input: object };
  };
  if (block.toolUse) {
    const { toolUseId, name, input } = block.toolUse;
    frames.push(eventMessage('contentBlockStart', { start: { toolUse: { toolUseId, name } }, contentBlockIndex: 0 }));
    const json = JSON.stringify(input);
    for (const part of [json.slice(0, 5), json.slice(5)])
      frames.push(eventMessage('contentBlockDelta', { delta: { toolUse: { input: part } }, contentBlockIndex: 0 }));
  } else {
    for (const piece of block.text?.match(/\S+ /g) ?? [])
      frames.push(eventMessage('contentBlockDelta', { delta: { text: piece }, contentBlockIndex: 0 }));
  }
  frames.push(eventMessage('contentBlockStop', { contentBlockIndex: 0 }));
  frames.push(eventMessage('messageStop', { stopReason: a.stopReason }));
  frames.push(eventMessage('metadata', { usage: a.usage, metrics: a.metrics }));
  return frames;
}

const exceptionMessage = (exception: string, text: string) => frameOf('exception', exception, { message: text });

/**
 * A fake AWS Bedrock runtime: `POST /model/{id}/invoke` and `/invoke-with-response-stream`
 * for Anthropic models (Messages bodies with `anthropic_version`), `/converse` and
 * `/converse-stream` for any model (Converse bodies, checked as Bedrock does: known keys,
 * alternating roles, one key per content block). Streams are binary event streams, each
 * message written in two pieces so a decoder must join frames across reads. Every request's
 * SigV4 signature is checked with the fake secret. Behaviour tokens in the model id as for
 * the other fakes (fail-<status>, cache-<n>), plus `midfail` for a throttling exception
 * after the first events of an InvokeModel stream.
 */
export function startFakeBedrock(port = 0): Promise<FakeUpstream> {
  return startRecordingServer(async (req, res, body, raw) => {
    const route = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|converse|converse-stream)$/.exec(
      req.url ?? '',
    );
    if (req.method !== 'POST' || !route) return bedrockError(res, 404, 'UnknownOperationException', 'Not found');
    if (!(await signatureMatches(req, raw)))
      return bedrockError(
        res,
        403,
        'InvalidSignatureException',
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
      );
    const modelId = decodeURIComponent(route[1]);
    const b = nativeBehaviour(modelId, '');
    const failure = b.failStatus ? FAILURES[b.failStatus] : undefined;
    if (failure) return bedrockError(res, b.failStatus!, failure[0], failure[1]);
    if (route[2].startsWith('converse')) {
      const problem = converseProblem(body);
      if (problem) return bedrockError(res, 400, 'ValidationException', problem);
      const answer = converseAnswer(body, b);
      if (route[2] === 'converse') return sendJson(res, 200, answer);
      return writeFrames(res, converseFrames(answer));
    }
    if (body.anthropic_version !== 'bedrock-2023-05-31' || body.model !== undefined || body.stream !== undefined)
      return bedrockError(
        res,
        400,
        'ValidationException',
        'Malformed input request, please reformat your input and try again.',
      );
    const message = anthropicAnswer(body, b, modelId.replace(/^anthropic\./, '').replace(/-v\d+:\d+$/, ''));
    if (route[2] === 'invoke') return sendJson(res, 200, message);

    const frames = anthropicStreamEvents(message).map(chunkMessage);
    // After message_start, ping, the text block's start and its first delta: a throttling exception.
    if (modelId.includes('midfail'))
      frames.splice(
        4,
        frames.length,
        exceptionMessage('throttlingException', 'Too many tokens, please wait before trying again.'),
      );
    await writeFrames(res, frames);
  }, port);
}
