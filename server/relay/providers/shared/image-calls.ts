import type { RelayCancel } from '../../cancel.ts';
import { sendUpstream } from '../../upstream.ts';
import type { UpstreamRequest } from '../types.ts';

/*
 * What the image upstreams that are not one plain exchange share (issue 44): a wait the client's
 * departure cuts short (polling a prediction), and several calls at once for upstreams that make one
 * picture per call (CogView, SiliconFlow's FLUX, Replicate's single-output models) when the client
 * asked for `n` of them.
 */

/** Resolves after `ms`, or rejects when the relay cancels the attempt (client gone). */
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

/** One exchange read whole. */
export interface ReadAnswer {
  status: number;
  text: string;
}

export const isOk = (a: ReadAnswer) => a.status >= 200 && a.status < 300;

/** Sends a request and reads its whole body. */
export async function exchange(
  req: UpstreamRequest,
  signal: AbortSignal | RelayCancel,
  headersTimeoutMs?: number,
): Promise<ReadAnswer> {
  const res = await sendUpstream(req, signal, headersTimeoutMs);
  return { status: res.statusCode, text: await res.body.text() };
}

/**
 * `count` calls at once: every answer when all succeeded; the successes alone when some did (the
 * client gets, and pays for, the pictures that came); the first failure when none did.
 */
export async function concurrentCalls(
  count: number,
  one: (index: number) => Promise<ReadAnswer>,
): Promise<{ ok: ReadAnswer[] } | { failed: ReadAnswer }> {
  const settled = await Promise.allSettled(Array.from({ length: count }, (_, i) => one(i)));
  const answers: ReadAnswer[] = [];
  let firstError: unknown;
  for (const s of settled) {
    if (s.status === 'fulfilled') answers.push(s.value);
    else firstError ??= s.reason;
  }
  const ok = answers.filter(isOk);
  if (ok.length) return { ok };
  if (answers.length) return { failed: answers.find((a) => !isOk(a))! };
  throw firstError;
}

/**
 * How many one-picture calls an attempt makes: `buildRequest` says it in this header, the upstream's
 * own `send` reads it and takes it off (it never leaves the gateway). A header rather than a field of
 * the body, because the upstream refuses fields it does not know, and rather than state kept beside
 * the request, because the relay may rebuild the request (header and parameter overrides) in between.
 */
const COUNT_HEADER = 'x-switchyard-image-calls';

export const withCallCount = (headers: Record<string, string>, count: number): Record<string, string> =>
  count > 1 ? { ...headers, [COUNT_HEADER]: String(count) } : headers;

/** The request as the upstream gets it, and the number of calls `withCallCount` asked for. */
export function takeCallCount(req: UpstreamRequest): { req: UpstreamRequest; count: number } {
  const headers = { ...req.headers };
  const count = Math.max(1, Math.min(10, Math.trunc(Number(headers[COUNT_HEADER] ?? 1)) || 1));
  delete headers[COUNT_HEADER];
  return { req: { ...req, headers }, count };
}
