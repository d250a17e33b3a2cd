import { syntheticAnswer, type UpstreamResponse } from '../../upstream.ts';
import { sniffMime } from '../../images/image-request.ts';
import { type ReadAnswer, takeCallCount, withCallCount } from '../shared/image-calls.ts';
import type { UpstreamRequest } from '../types.ts';

/*
 * What the image upstreams without OpenAI's `n` share (issue 44; Seedream on Ark, Jimeng): the one
 * request buildRequest made is sent once per picture asked for, concurrently, and the answers are
 * merged into one exchange for the relay. The count rides on shared/image-calls.ts's internal header,
 * stripped before anything leaves the gateway.
 */

/** At most this many calls of one request run at once (an upstream's concurrency limit is per key). */
const PARALLEL = 4;

/** Marks `req` to be sent `n` times (shared/image-calls.ts's internal header). */
export const repeated = (req: UpstreamRequest, n: number): UpstreamRequest => ({
  ...req,
  headers: withCallCount(req.headers, n),
});

/** How many times to send it, and the request as it goes upstream (internal headers removed). */
export function callsOf(request: UpstreamRequest): { n: number; req: UpstreamRequest } {
  const { req, count } = takeCallCount(request);
  return { n: count, req };
}

/**
 * Runs `one` n times (PARALLEL at a time). Answers the merge of the successes when there is any (the
 * client is billed for the pictures it gets), else the first failure as it came (status and body).
 */
export async function fanOut(
  n: number,
  one: (i: number) => Promise<ReadAnswer>,
  merge: (texts: string[]) => string,
): Promise<UpstreamResponse> {
  const results: ReadAnswer[] = new Array<ReadAnswer>(n);
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
