import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import type { RelayCancel } from './cancel.ts';
import type { AttemptContext, ProviderAdapter, UpstreamRequest } from './providers/types.ts';

/**
 * One shared keep-alive connection pool for every upstream. Connect and header
 * timeouts bound a dead provider; the body has no global timeout because streams
 * can legitimately run for minutes (the stream reader has its own idle timer).
 * An idle connection is kept 30 s at most, whatever keep-alive the upstream offers:
 * after a burst (a thousand streams opened a thousand connections) the pool shrinks
 * back soon, instead of holding every socket and its buffers for the upstream's minute or more.
 */
const agent = new Agent({
  keepAliveTimeout: 30_000,
  keepAliveMaxTimeout: 30_000,
  // Above the 1,000 concurrent streams the bench holds: a stream queued behind others would stall.
  connections: 4096,
  pipelining: 1,
  connect: { timeout: 10_000 },
  headersTimeout: 300_000,
  bodyTimeout: 0,
});

export type UpstreamResponse = Awaited<ReturnType<typeof request>>;

/** Sends one upstream request; `signal` aborts it (client gone, idle stream); `headersTimeoutMs` overrides the pool's. */
export function sendUpstream(
  req: UpstreamRequest,
  signal: AbortSignal | RelayCancel,
  headersTimeoutMs?: number,
): Promise<UpstreamResponse> {
  return request(req.url, {
    method: req.method,
    headers: req.headers,
    body: req.body,
    signal,
    dispatcher: agent,
    ...(headersTimeoutMs ? { headersTimeout: headersTimeoutMs } : {}),
  });
}

/** The upstream accepted the request but sent no status line within the headers timeout. */
export const isHeadersTimeout = (err: unknown) => describeNetworkError(err) === 'UND_ERR_HEADERS_TIMEOUT';

/** Network-level failures (refused, reset, timeouts): retryable like a 5xx, never a client error. */
export function describeNetworkError(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code ?? e?.message ?? 'network error';
}

/**
 * An answer that did not come from one HTTP exchange (an adapter's own `send`: a WebSocket, a
 * polled task), shaped like undici's so the relay reads it the same way: `statusCode`, `headers`,
 * and a body that is async-iterable (streams) and has `text()`, `dump()` and `destroy()`.
 */
export function syntheticAnswer(
  statusCode: number,
  body: string | AsyncIterable<Uint8Array | string>,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): UpstreamResponse {
  // Bytes only: the stream reader decodes what it reads as UTF-8.
  const readable = Readable.from(typeof body === 'string' ? [Buffer.from(body)] : asBytes(body));
  const text = async () => {
    let out = '';
    for await (const c of readable) out += typeof c === 'string' ? c : Buffer.from(c as Uint8Array).toString('utf8');
    return out;
  };
  const dump = async () => {
    readable.destroy();
  };
  Object.assign(readable, { text, dump });
  return {
    statusCode,
    headers,
    body: readable,
    trailers: {},
    opaque: null,
    context: {},
  } as unknown as UpstreamResponse;
}

async function* asBytes(body: AsyncIterable<Uint8Array | string>): AsyncIterable<Uint8Array> {
  for await (const c of body) yield typeof c === 'string' ? Buffer.from(c) : c;
}

/**
 * Sends one attempt's request: through the adapter's own transport when it has one, else the shared
 * pool; either way within the attempt's headers timeout (ctx.headersTimeoutMs, the pool's when unset).
 */
export const sendAttempt = (
  adapter: ProviderAdapter,
  ctx: AttemptContext,
  req: UpstreamRequest,
  signal: AbortSignal | RelayCancel,
): Promise<UpstreamResponse> =>
  adapter.send ? adapter.send(ctx, req, signal) : sendUpstream(req, signal, ctx.headersTimeoutMs);
