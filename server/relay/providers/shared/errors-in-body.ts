import type { RelayCancel } from '../../cancel.ts';
import { sendUpstream, syntheticAnswer, type UpstreamResponse } from '../../upstream.ts';
import type { UpstreamRequest } from '../types.ts';

/**
 * Sends a request to a provider that answers some failures with HTTP 200 and the error in the body
 * (Baidu's legacy API, Tencent Cloud, Coze, Zhipu's legacy API...). A JSON answer (a stream request
 * too: these providers answer a refused stream with one JSON body) is read whole, and when
 * `errorStatusOf` finds an error in it, the answer gets that status: the relay then retries,
 * auto-disables and reports it in the caller's dialect like any HTTP error. SSE answers pass as
 * they come; an error inside a stream is the stream converter's to report.
 */
export async function sendReadingBodyErrors(
  req: UpstreamRequest,
  signal: AbortSignal | RelayCancel,
  errorStatusOf: (text: string) => number | undefined,
  headersTimeoutMs?: number,
): Promise<UpstreamResponse> {
  const res = await sendUpstream(req, signal, headersTimeoutMs);
  const type = String(res.headers['content-type'] ?? '');
  if (res.statusCode < 200 || res.statusCode >= 300 || type.includes('text/event-stream')) return res;
  const text = await res.body.text();
  const status = errorStatusOf(text);
  return syntheticAnswer(status ?? res.statusCode, text, { 'content-type': type || 'application/json' });
}
