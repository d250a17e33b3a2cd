import type { IncomingMessage, ServerResponse } from 'node:http';
import { Sha256 } from '@aws-crypto/sha256-js';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { SignatureV4 } from '@smithy/signature-v4';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { anthropicAnswer, anthropicStreamEvents } from './anthropic.ts';
import { nativeBehaviour, sendJson, startRecordingServer } from './native-http.ts';
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

/** One event-stream message, as Bedrock frames an Anthropic event (`{"bytes": base64}`). */
function chunkMessage(event: object): Uint8Array {
  const bytes = Buffer.from(JSON.stringify(event)).toString('base64');
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: 'chunk' },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: fromUtf8(JSON.stringify({ bytes, p: 'abcdefghij' })),
  });
}

function exceptionMessage(exception: string, message: string): Uint8Array {
  return codec.encode({
    headers: {
      ':exception-type': { type: 'string', value: exception },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'exception' },
    },
    body: fromUtf8(JSON.stringify({ message })),
  });
}

/**
 * A fake AWS Bedrock runtime for Anthropic models: `POST /model/{id}/invoke` (JSON) and
 * `/invoke-with-response-stream` (binary event stream, each message written in two
 * pieces so a decoder must join frames across reads). It checks the SigV4 signature
 * with the fake secret and the body's `anthropic_version`. Behaviour tokens in the model
 * id as for the other fakes (fail-<status>, cache-<n>), plus `midfail` for a throttling
 * exception after the first events.
 */
export function startFakeBedrock(port = 0): Promise<FakeUpstream> {
  return startRecordingServer(async (req, res, body, raw) => {
    const route = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/.exec(req.url ?? '');
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
    if (body.anthropic_version !== 'bedrock-2023-05-31' || body.model !== undefined || body.stream !== undefined)
      return bedrockError(
        res,
        400,
        'ValidationException',
        'Malformed input request, please reformat your input and try again.',
      );
    const message = anthropicAnswer(body, b, modelId.replace(/^anthropic\./, '').replace(/-v\d+:\d+$/, ''));
    if (route[2] === 'invoke') return sendJson(res, 200, message);

    res.writeHead(200, {
      'content-type': 'application/vnd.amazon.eventstream',
      'x-amzn-bedrock-content-type': 'application/json',
    });
    const events = anthropicStreamEvents(message);
    for (const [i, e] of events.entries()) {
      // After message_start, ping, the text block's start and its first delta.
      if (modelId.includes('midfail') && i === 4) {
        res.end(exceptionMessage('throttlingException', 'Too many tokens, please wait before trying again.'));
        return;
      }
      const frame = chunkMessage(e);
      const cut = Math.floor(frame.length / 2);
      res.write(frame.subarray(0, cut));
      await new Promise((r) => setImmediate(r));
      res.write(frame.subarray(cut));
    }
    res.end();
  }, port);
}
