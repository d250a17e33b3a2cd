import type { RelayCancel } from '../../cancel.ts';
import { sendUpstream, syntheticAnswer, type UpstreamResponse } from '../../upstream.ts';
import { sniffMime } from '../../images/image-request.ts';
import type { UpstreamRequest } from '../types.ts';

/*
 * What the image upstreams without OpenAI's `n` share (issue 44; Seedream on Ark, Jimeng): the one
 * request buildRequest made is sent once per picture asked for, concurrently, and the answers are
 * merged into one exchange for the relay. The count rides on an internal header (the request passes
 * through the relay's param-override merge between buildRequest and send, so it must travel inside
 * it) that `sendCalls` strips before anything leaves the gateway.
 */

const CALLS_HEADER = 'x-switchyard-image-calls';
/** At most this many calls of one request run at once (an upstream's concurrency limit is per key). */
const PARALLEL = 4;

/** Marks `req` to be sent `n` times. */
export function repeated(req: UpstreamRequest, n: number): UpstreamRequest {
  return n > 1 ? { ...req, headers: { ...req.headers, [CALLS_HEADER]: String(n) } } : req;
}

/** How many times to send it, and the request as it goes upstream (internal headers removed). */
export function callsOf(req: UpstreamRequest): { n: number; req: UpstreamRequest } {
  const headers = { ...req.headers };
  const n = Math.max(1, Number(headers[CALLS_HEADER]) || 1);
  delete headers[CALLS_HEADER];
  return { n, req: { ...req, headers } };
}

export interface CallAnswer {
  status: number;
  text: string;
}

/** One plain exchange read whole. */
export async function exchange(
  req: UpstreamRequest,
  signal: AbortSignal | RelayCancel,
  headersTimeoutMs?: number,
): Promise<CallAnswer> {
  const res = await sendUpstream(req, signal, headersTimeoutMs);
  return { status: res.statusCode, text: await res.body.text() };
}

/**
 * Runs `one` n times (PARALLEL at a time). Answers the merge of the successes when there is any (the
 * client is billed for the pictures it gets), else the first failure as it came (status and body).
 */
export async function fanOut(
  n: number,
  one: (i: number) => Promise<CallAnswer>,
  merge: (texts: string[]) => string,
): Promise<UpstreamResponse> {
  const results: CallAnswer[] = new Array<CallAnswer>(n);
  let nextIndex = 0;
  const worker = async () => {
    while (nextIndex < n) {
      const i = nextIndex++;
      results[i] = await one(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, n) }, worker));
  const ok = results.filter((r) => r.status >= 200 && r.status < 300);
  if (!ok.length) return syntheticAnswer(results[0].status, results[0].text);
  return syntheticAnswer(200, merge(ok.map((r) => r.text)));
}

/** Resolves after `ms`, or rejects when the relay cancels the attempt (the client went away). */
export function pause(ms: number, signal: AbortSignal | RelayCancel): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason ?? new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The image type of a base64 picture, by its first bytes (upstreams answer JPEG, PNG or WebP). */
export const mimeOfBase64 = (b64: string): string => sniffMime(Buffer.from(b64.slice(0, 32), 'base64'));

/**
 * The body of call `i` of n: with a fixed seed every call would draw the same picture, so call i
 * gets seed + i (the first keeps the client's seed: n = 1 is reproducible as asked).
 */
export function bodyOfCall(body: string, i: number): string {
  if (i === 0) return body;
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    if (typeof json.seed !== 'number' || json.seed < 0) return body;
    return JSON.stringify({ ...json, seed: json.seed + i });
  } catch {
    return body;
  }
}
